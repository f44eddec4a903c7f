// Pig: players take turns; a turn is a run of throws of one or two dice whose
// points add up to a turn total, until the player holds (banks the turn
// total) or throws a 1. One die: a 1 loses the turn total. Two dice: a single
// 1 loses the turn total, two 1s also reset the banked score to 0. The first
// to bank the goal wins; a player whose banked score plus turn total reaches
// the goal wins at once (holding there is always right, so no strategy loses
// anything by it).
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "dice.h"
#include "rng.h"

namespace dicesim::pig {

constexpr int kMaxGoal = 200;   // strategies are tables over goal^3 states
constexpr int kMaxPhases = 50;  // optimal_turns: at most this many turns planned

struct Rules {
  int dice = 1;  // 1 or 2
  int goal = 100;

  int smallest_throw() const { return dice == 1 ? 2 : 4; }  // the least a scoring throw adds
  int largest_throw() const { return 6 * dice; }
  // Banked scores stay below the goal; a winner's final score is at most
  // goal - 1 + largest_throw.
  int score_bins() const { return goal + largest_throw(); }
};

// What one throw does to the turn: the points it adds (> 0), kBust for a
// single 1, kReset for two 1s. Faces 1..6; with one die `second` is unused.
constexpr int kBust = 0, kReset = -1;
constexpr int throw_points(int dice, int first, int second) {
  const int ones = (first == 1) + (dice == 2 && second == 1);
  return ones == 0 ? first + (dice == 2 ? second : 0) : ones == 1 ? kBust : kReset;
}

// One throw of the rules' dice, by what it does to the turn.
struct ThrowOdds {
  int outcomes = 6;                         // 6^dice equally likely outcomes
  int bust = 0;                             // outcomes that lose the turn total (a single 1)
  int reset = 0;                            // outcomes that also reset the banked score (two 1s)
  std::vector<std::pair<int, int>> points;  // (points added, outcomes), in increasing points
  double probability(int ways) const { return double(ways) / outcomes; }
};
ThrowOdds throw_odds(const Rules& rules);

// A strategy compiled to a table: after a throw that brings the turn total to
// k (k >= 1, score + k below the goal), hold or throw again, for each of the
// player's banked score i, the score j of the leading opponent and the phase:
// the turns the player has started before this one, modulo phases() (1 for a
// stationary strategy). Identical rows over k are stored once, so a strategy
// such as hold_at is one row the hot loop keeps in L1.
class Policy {
 public:
  Policy() = default;
  Policy(const Rules& rules, int phases);  // every row: throw on to the goal

  int goal() const { return goal_; }
  int phases() const { return phases_; }
  // hold[k] for k = 0..row_size()-1: entry 0 is 0 (a turn starts with a
  // throw), and from k = goal - i on every entry is 1 (the goal ends the turn),
  // so the hot loop needs one test per throw.
  const std::uint8_t* row(int phase, int i, int j) const { return pool_.data() + row_offset(phase, i, j); }
  bool hold(int phase, int i, int j, int k) const { return row(phase, i, j)[k] != 0; }
  // An id shared by identical rows (their offset in the pool).
  std::uint32_t row_offset(int phase, int i, int j) const {
    return offset_[(std::size_t(phase) * goal_ + i) * goal_ + j];
  }
  // Sets the decisions for k = 1..goal-i-1 from hold[k]; the rest as above.
  void set_row(int phase, int i, int j, const std::vector<std::uint8_t>& hold);
  int row_size() const { return goal_ + 12; }  // any turn total a throw can reach
  int distinct_rows() const { return static_cast<int>(pool_.size() / row_size()); }

 private:
  int goal_ = 0;
  int phases_ = 1;
  std::vector<std::uint32_t> offset_;
  std::vector<std::uint8_t> pool_;
  std::unordered_map<std::string, std::uint32_t> index_;  // row -> offset, for sharing
};

// Unbiased throws from few random draws: one Lemire draw in [0, Sides^22)
// gives 22 base-Sides digits (one die each) or 11 base-Sides^2 digits (two
// dice each), every digit uniform and independent; a digit is the side each
// die shows. Sides is the die's (6, or the loaded test die's 7: 7^22 < 2^64
// too), a template parameter so that the hot loop knows it. Per block, so
// nothing outlives a block.
template <int Dice, int Sides = kFaces>
class ThrowStream {
 public:
  static constexpr std::uint64_t kBase = Dice == 1 ? Sides : Sides * Sides;
  static constexpr int kDigits = Dice == 1 ? 22 : 11;
  static constexpr std::uint64_t kRange = [] {
    std::uint64_t range = 1;
    for (int i = 0; i < 22; ++i) range *= Sides;
    return range;
  }();

  explicit ThrowStream(Rng& rng, const Die& die = fair_die()) : rng_(rng) {
    if (die.sides != Sides) throw std::invalid_argument("ThrowStream: the die has another number of sides");
    for (std::uint64_t digit = 0; digit < kBase; ++digit) {
      const int first = die.face_of[Dice == 1 ? digit : digit / Sides], second = die.face_of[digit % Sides];
      code_[digit] = static_cast<std::int8_t>(throw_points(Dice, first, second));
    }
  }

  // throw_points of the next throw.
  int next() {
    if (left_ == 0) refill();
    const auto digit = static_cast<unsigned>(pool_ % kBase);
    pool_ /= kBase;
    --left_;
    return code_[digit];
  }

 private:
  // One accepted draw in [0, 6^22) per refill: no digit is used twice and
  // none is skipped, and a rejected draw carries no digits.
  void refill() {
    while (!lemire_below<std::uint64_t, unsigned __int128>(rng_(), kRange, pool_)) {
    }
    left_ = kDigits;
  }

  Rng& rng_;
  std::uint64_t pool_ = 0;
  int left_ = 0;
  std::array<std::int8_t, kBase> code_{};
};

// One turn from banked score `score` following its policy row. Returns the
// new banked score, or the final score (>= goal) if the turn reached the goal.
template <class Stream>
inline int play_turn(const std::uint8_t* hold, int score, Stream& dice) {
  int total = 0;
  for (;;) {
    const int points = dice.next();
    if (points <= 0) return points == kBust ? score : 0;
    total += points;
    if (hold[total]) return score + total;
  }
}

// One game: the seats play turns in order, each policy seeing the highest
// score among the other seats (alone: 0). Writes each seat's final score
// and turns played; returns the winner.
template <class Stream>
inline int play_game(const Policy* const* policy, int seats, int goal, Stream& dice, int* score, int* turns) {
  for (int s = 0; s < seats; ++s) score[s] = turns[s] = 0;
  for (int s = 0;; s = s + 1 == seats ? 0 : s + 1) {
    int leader = 0;
    for (int other = 0; other < seats; ++other)
      if (other != s && score[other] > leader) leader = score[other];
    const Policy& p = *policy[s];
    const int phase = p.phases() == 1 ? 0 : turns[s] % p.phases();
    ++turns[s];
    score[s] = play_turn(p.row(phase, score[s], leader), score[s], dice);
    if (score[s] >= goal) return s;
  }
}

}  // namespace dicesim::pig
