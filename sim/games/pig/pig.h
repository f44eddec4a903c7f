// Pig: players take turns; a turn is a run of throws of one or two dice whose
// points add up to a turn total, until the player holds (banks the turn
// total) or throws a 1. One die: a 1 loses the turn total. Two dice: a single
// 1 loses the turn total, two 1s also reset the banked score to 0. The first
// to bank the goal wins; a player whose banked score plus turn total reaches
// the goal wins at once (holding there is always right, so no strategy loses
// anything by it).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/dice.h"
#include "engine/rng.h"
#include "engine/side_by_side.h"
#include "engine/table.h"

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

// A throw as one base-sides (two dice: base-sides^2) digit: the sides each
// die shows, first die most significant. Returns throw_points of the faces.
inline int throw_of_digit(int dice, const Die& die, unsigned digit) {
  const unsigned sides = static_cast<unsigned>(die.sides);
  return throw_points(dice, die.face_of[dice == 1 ? digit : digit / sides], die.face_of[digit % sides]);
}

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
    for (std::uint64_t digit = 0; digit < kBase; ++digit)
      code_[digit] = static_cast<std::int8_t>(throw_of_digit(Dice, die, static_cast<unsigned>(digit)));
  }

  // throw_points of the next throw.
  int next() {
    if (left_ == 0) refill();
    const auto digit = static_cast<unsigned>(pool_ % kBase);
    pool_ /= kBase;
    --left_;
    return code_[digit];
  }

  // A uniform draw in [0, 1) from the same generator (53 bits), for a
  // strategy that randomises a decision; the digits in hand are kept.
  double chance() { return double(rng_() >> 11) * 0x1.0p-53; }

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

// One turn from banked score `score` following its policy row, throw by
// throw (from turn total `total`, 0 at the turn's start). Returns the new
// banked score, or the final score (>= goal) if the turn reached the goal.
template <class Stream>
inline int play_turn(const std::uint8_t* hold, int score, Stream& dice, int total = 0) {
  for (;;) {
    const int points = dice.next();
    if (points <= 0) return points == kBust ? score : 0;
    total += points;
    if (hold[total]) return score + total;
  }
}

// Plays `games` games, each seat playing turns in order and its policy
// seeing the highest score among the other seats (alone: 0), Lanes side by
// side (see play_side_by_side). play_turn(seat, phase, score, leader,
// scores) plays one turn (`scores`: every seat's, for a seat that watches
// them all) and returns the seat's new score; finished(score, turns, winner)
// receives each game's final scores and turns played per seat. `start`
// (null: every seat at 0): each seat's banked score at the start, a head start.
template <int Lanes, class PlayTurn, class Finished>
void play_games(const Policy* const* policy, int seats, int goal, std::uint64_t games, PlayTurn&& play_turn,
                Finished&& finished, const int* start = nullptr) {
  struct Game {
    int score[kMaxSeats] = {}, turns[kMaxSeats] = {};
    int seat = 0;
  };
  Game first;
  for (int s = 0; start && s < seats; ++s) first.score[s] = start[s];
  const auto turn = [&](Game& g) {
    const int s = g.seat;
    int leader = 0;
    for (int other = 0; other < seats; ++other) leader = std::max(leader, other == s ? 0 : g.score[other]);
    const int phases = policy[s]->phases();
    const int phase = phases == 1 ? 0 : g.turns[s] % phases;
    ++g.turns[s];
    g.score[s] = play_turn(s, phase, g.score[s], leader, static_cast<const int*>(g.score));
    g.seat = s + 1 == seats ? 0 : s + 1;
    return g.score[s] >= goal;
  };
  play_side_by_side<Lanes>(games, first, turn,
                           [&](const Game& g) { finished(g.score, g.turns, g.seat == 0 ? seats - 1 : g.seat - 1); });
}

// Games throw by throw: the reference the turn samplers are tested against.
template <class Stream, class Finished>
void play_games(const Policy* const* policy, int seats, int goal, std::uint64_t games, Stream& dice,
                Finished&& finished) {
  play_games<1>(
      policy, seats, goal, games,
      [&](int s, int phase, int i, int j, const int*) { return play_turn(policy[s]->row(phase, i, j), i, dice); },
      finished);
}

// Whether a policy's decisions never depend on the opponent's score
// (hold_at, optimal_turns).
bool ignores_opponent(const Policy& policy);

// A policy compiled for play: at every state (phase, own score, leader's
// score) one draw gives where the turn's next throws_per_draw_ throws lead
// (10 / dice: sides^10 outcomes, so exact integer weights fit the 32 bits of
// a payload table's level): a hold with the turn total, a single 1, two 1s,
// or a total still in play, from which the turn goes on throw by throw. A
// hold_at 20 turn always ends within one draw. Identical policy rows share
// one table. It reads the policy's rows for turns still in play: the policy
// must outlive it.
class TurnSampler {
 public:
  TurnSampler(const Rules& rules, const Policy& policy, const Die& die);
  bool ignores_opponent() const { return ignores_opponent_; }

  // The turn from state (phase, i, j); `dice` throws the rest of a turn
  // still in play after the draw. Returns the new score, as play_turn does.
  template <class Stream>
  int play_turn(int phase, int i, int j, Rng& rng, Stream& dice) const {
    const std::uint32_t payload = draw_payload(columns_.data(), table_of_state_[state(phase, i, j)], rng);
    const int kind = static_cast<int>(payload & kKindMask), total = static_cast<int>(payload >> kKindBits);
    if (kind == kInPlay) [[unlikely]]
      return pig::play_turn(policy_->row(phase, i, j), i, dice, total);
    // A hold adds its total, a 1 adds nothing (its total is 0), two 1s clear
    // the score: a mask, not a branch to mispredict.
    return (i + total) & -static_cast<int>(kind != kTwoOnes);
  }

  // Where a draw at the start of a turn following policy row `hold` leads:
  // each outcome's weight out of (sides^dice)^throws digit strings. For
  // tests, which check it against every digit string.
  enum Kind : std::uint32_t { kHold, kOne, kTwoOnes, kInPlay };
  static constexpr std::uint32_t kKindBits = 2, kKindMask = 3;
  static std::uint32_t payload(Kind kind, int total = 0) { return std::uint32_t(total) << kKindBits | kind; }
  static PayloadWeights draw_weights(int dice, const Die& die, const std::uint8_t* hold, int row_size, int throws);

 private:
  // A policy that ignores the opponent has one state per (phase, i), so
  // that its tables' headers stay in L1.
  std::size_t state(int phase, int i, int j) const {
    return std::size_t(phase) * phase_stride_ + std::size_t(i) * score_stride_ + (ignores_opponent_ ? 0 : j);
  }

  bool ignores_opponent_;
  int throws_per_draw_;
  int phase_stride_ = 0, score_stride_ = 0;
  const Policy* policy_;
  std::vector<PayloadTable> table_of_state_;  // by state(phase, i, j); identical rows share their columns
  std::vector<PayloadColumn> columns_;
};

}  // namespace dicesim::pig
