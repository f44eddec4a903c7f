// Dice Battle (seed 002): two players race to the goal N. Each turn a player
// chooses how many dice d (1..D) to throw; the throw scores 1 if any die
// shows a 1, otherwise the sum of the dice.
//   sequential turns:   players alternate; the first to reach N wins at once.
//   simultaneous turns: both choose d at once, then both throw. One player at
//     or past N wins; both at or past N in the same turn: the higher total
//     wins, equal totals tie.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/dice.h"
#include "engine/rng.h"
#include "engine/side_by_side.h"

namespace dicesim::battle {

constexpr int kMaxDiceLimit = 20;  // 6^20 < 2^52: exact integer weights fit a uint64
constexpr int kMaxGoal = 1000;

enum class Turns { sequential, simultaneous };

struct Rules {
  int max_dice = 10;  // D
  int goal = 100;     // N
  Turns turns = Turns::sequential;

  int max_throw() const { return 6 * max_dice; }
  // Final scores lie in 0 .. goal - 1 + max_throw.
  int score_bins() const { return goal + max_throw(); }
};

// Ordered outcomes of d dice giving each score: ways(d, 1) = 6^d - 5^d (at
// least one 1), ways(d, k) for 2d <= k <= 6d the sequences of faces 2..6
// summing to k; out of 6^d. Exact integers, for sampling and for tests.
// On another die (the loaded test die), the same counts weighted by each
// face's sides, out of die.outcomes(d).
std::uint64_t outcomes(int dice);                                              // 6^d
std::vector<std::uint64_t> throw_ways(int dice, const Die& die = fair_die());  // index k = 0..6d

class Policy;

// Samples the score of a throw of d dice with its exact probability
// ways(d, k) / 6^d on the die it is built with (the loaded test die's weights
// on that one):
// one draw from a payload table where 6^d fits its 32-bit level with few
// rejections (up to 10 dice), else Vose's alias method in 64-bit integers,
// one 32-bit Lemire draw for the column and one 64-bit Lemire draw for the
// level. A whole turn (the policy's choice of dice and their throw) takes one
// draw where the choice is pure or uniform and its table fits as well.
class ThrowSampler {
 public:
  explicit ThrowSampler(int max_dice, const Die& die = fair_die());

  int throw_dice(int dice, Rng& rng) const {
    if (const TurnTable& turn = turn_tables_[dice]; turn.one_draw) return draw(turn, rng);
    const Table& t = tables_[dice];
    const Entry& e = entries_[t.begin + uniform_below(rng, t.columns)];
    return uniform_below64(rng, t.capacity) < e.threshold ? e.score : e.alias_score;
  }

  // The points a turn from (mine, theirs) adds, following the policy.
  inline int play_turn(const Policy& policy, int mine, int theirs, Rng& rng) const;

 private:
  struct Entry {
    std::uint64_t threshold;  // level < threshold: this column's own score
    std::uint16_t score, alias_score;
  };
  struct Table {
    std::uint32_t begin, columns;
    std::uint64_t capacity;  // 6^d
  };
  // A whole turn's points in one draw: by the cell's turn_table() (pure d: d,
  // uniform: 0, mixed: max_dice + 1), where one_draw.
  struct TurnTable {
    PayloadTable table;
    bool one_draw = false;
  };
  int draw(const TurnTable& turn, Rng& rng) const {
    return static_cast<int>(draw_payload(turn_columns_.data(), turn.table, rng));
  }
  void add_turn_table(int index, const std::vector<std::uint64_t>& weights);
  void add_alias_table(int dice, const std::vector<std::uint64_t>& ways, std::uint64_t capacity);

  std::vector<Table> tables_;  // by d, where turn_tables_[d] is not one_draw
  std::vector<Entry> entries_;
  std::vector<TurnTable> turn_tables_;
  std::vector<PayloadColumn> turn_columns_;
};

// A strategy compiled to a table over (my score, the opponent's score), both
// below the goal: a number of dice, uniform over 1..D, or a mixed choice
// whose integer weights add up to 2^32 (sampled from one 32-bit draw, so the
// exact evaluator can use the very same probabilities).
class Policy {
 public:
  Policy() = default;
  Policy(int goal, int max_dice) : goal_(goal), max_dice_(max_dice), cells_(std::size_t(goal) * goal) {}

  int goal() const { return goal_; }
  int max_dice() const { return max_dice_; }

  void set_pure(int mine, int theirs, int dice) { cell(mine, theirs) = {0, 0, static_cast<std::uint16_t>(dice)}; }
  void set_uniform(int mine, int theirs) { cell(mine, theirs) = {0, kUniform, 0}; }
  // probability[d - 1]: rounded to multiples of 2^-32; zeros are dropped.
  void set_mixed(int mine, int theirs, const std::vector<double>& probability);

  // P(choose d) for d = 1..D (index d - 1): exactly what choose() samples.
  std::vector<double> distribution(int mine, int theirs) const;

  // The cell's index among ThrowSampler's turn tables: d for a pure choice
  // of d dice, 0 for a uniform one, max_dice + 1 for a mixed one.
  int turn_table(int mine, int theirs) const {
    const Cell& c = cells_[std::size_t(mine) * goal_ + theirs];
    return c.count == 0 ? c.dice : c.count == kUniform ? 0 : max_dice_ + 1;
  }

  int choose(int mine, int theirs, Rng& rng) const {
    const Cell& c = cells_[std::size_t(mine) * goal_ + theirs];
    if (c.count == 0) return c.dice;
    if (c.count == kUniform) return 1 + static_cast<int>(uniform_below(rng, max_dice_));
    const std::uint64_t r = static_cast<std::uint32_t>(rng());
    const Weight* w = &weights_[c.begin];
    while (r >= w->cumulative) ++w;  // the last cumulative is 2^32
    return w->dice;
  }

 private:
  static constexpr std::uint16_t kUniform = 0xffff;
  struct Cell {
    std::uint32_t begin;
    std::uint16_t count;  // 0: pure `dice`; kUniform: uniform 1..D; else weights_[begin, begin + count)
    std::uint16_t dice;
  };
  struct Weight {
    std::uint64_t cumulative;  // sum of the weights up to and including this one
    std::uint32_t dice;
  };
  Cell& cell(int mine, int theirs) { return cells_[std::size_t(mine) * goal_ + theirs]; }

  int goal_ = 0;
  int max_dice_ = 0;
  std::vector<Cell> cells_;
  std::vector<Weight> weights_;
};

int ThrowSampler::play_turn(const Policy& policy, int mine, int theirs, Rng& rng) const {
  const TurnTable& turn = turn_tables_[policy.turn_table(mine, theirs)];
  if (turn.one_draw) [[likely]]
    return draw(turn, rng);
  return throw_dice(policy.choose(mine, theirs, rng), rng);
}

// A game in play, and at its end its record.
struct GameRecord {
  int score[2] = {0, 0};
  int turns[2] = {0, 0};
  int winner = 0;  // 0, 1, or -1 for a tie
  int mover = 0;   // sequential turns: the seat to throw next
};

// One turn of sequential turns; seat 0 throws first. True when it wins.
inline bool play_sequential_turn(const ThrowSampler& dice, const Policy* const* policy, int goal, Rng& rng,
                                 GameRecord& g) {
  const int mover = g.mover, other = mover ^ 1;
  g.score[mover] += dice.play_turn(*policy[mover], g.score[mover], g.score[other], rng);
  ++g.turns[mover];
  g.winner = mover, g.mover = other;
  return g.score[mover] >= goal;
}

// One round of simultaneous turns: both choose, then both throw. True when
// the game ends.
inline bool play_simultaneous_round(const ThrowSampler& dice, const Policy* const* policy, int goal, Rng& rng,
                                    GameRecord& g) {
  // Each turn sees the scores before either throw.
  const int points0 = dice.play_turn(*policy[0], g.score[0], g.score[1], rng);
  g.score[1] += dice.play_turn(*policy[1], g.score[1], g.score[0], rng);
  g.score[0] += points0;
  ++g.turns[0], ++g.turns[1];
  g.winner = g.score[0] == g.score[1] ? -1 : g.score[0] > g.score[1] ? 0 : 1;
  return g.score[0] >= goal || g.score[1] >= goal;
}

// One turn of a player alone (a one-seat table), who sees an opponent who
// stays at 0 and "wins" on reaching the goal.
inline bool play_alone_turn(const ThrowSampler& dice, const Policy* const* policy, int goal, Rng& rng, GameRecord& g) {
  g.score[0] += dice.play_turn(*policy[0], g.score[0], 0, rng);
  ++g.turns[0];
  return g.score[0] >= goal;
}

// Plays `games` games of the rules' turns (alone when `second` is null),
// Lanes side by side (see play_side_by_side); finished(record) receives
// each game's record.
// `start`: each seat's score at the start (a head start).
template <int Lanes, class Finished>
void play_games(const ThrowSampler& dice, const Rules& rules, const Policy& first, const Policy* second,
                std::uint64_t games, Rng& rng, Finished&& finished, const int (&start)[2] = {0, 0}) {
  const Policy* policy[2] = {&first, second};
  const GameRecord at_start{{start[0], start[1]}};
  const auto play = [&](auto step) {
    play_side_by_side<Lanes>(
        games, at_start, [&](GameRecord& g) { return step(dice, policy, rules.goal, rng, g); }, finished);
  };
  if (!second) {
    play(play_alone_turn);
  } else if (rules.turns == Turns::sequential) {
    play(play_sequential_turn);
  } else {
    play(play_simultaneous_round);
  }
}

}  // namespace dicesim::battle
