// Two-player 10,000 solved for the chance of winning the whole game.
//
// A position at the start of a turn is (seat to move, the mover's banked
// score, the other's). A bank adds at least one scoring throw, so the sum of
// the banked scores never falls: positions are solved from high sums to low.
// At one pair of scores only the two turn starts are coupled (a bust hands
// the same pair to the other seat), and they are solved together by policy
// iteration with an exact 2x2 solve. The seats are kept apart: under seed
// 000's III the second seat may still answer in the round where the first
// reached the target, so the first seat may go on throwing ("pad") to raise
// the bar.
//
// Value = P(win) + P(tie) / 2, which is what the solver maximises; ties only
// arise with an exact target (IV.3), when both reach it in the same round.
// Under IV.5 a turn may start from the position the other seat banked.
// The game's max_rounds cap is ignored (it ends games of ~1e-100 probability
// under the shipped rules).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "games/tenk/tenk_rules.h"

namespace dicesim::tenk {

// One throw of some dice, its outcomes grouped: the probability of a bust,
// then groups of multisets that offer the same set of moves.
struct ThrowOption {
  int points = 0;  // in units of kPoint
  int dice = 0;    // dice for the next throw (a full hand after hot dice)
  int pending = kNoPending;
  bool hot = false;
};
struct ThrowGroup {
  double probability = 0;
  int first = 0, count = 0;  // its options: options[first .. first + count)
};
struct ThrowOutcomes {
  double bust = 0;
  std::vector<ThrowGroup> groups;
  std::vector<ThrowOption> options;
};
// [dice * 7 + pending], for every reachable (dice, pending).
std::vector<ThrowOutcomes> throw_outcomes(const Scoring& scoring);

// The chance of reaching at least `need` units in one turn from a fresh
// hand, stopping only where the rules allow (not on hot dice under IV.1),
// choosing moves to maximise it; need = 0 asks for one more allowed stop.
// exact: the chance of hitting exactly `need` (passing it busts).
class ReachTable {
 public:
  ReachTable(const Rules& rules, const std::vector<ThrowOutcomes>& throws, int most, bool exact);
  double fresh(int need) const { return at(need, rules_.dice, kNoPending); }
  // The same from `dice` in hand with a pending face (a taken-over position).
  double at(int need, int dice, int pending) const {
    return reach_[(std::size_t(std::clamp(need, 0, most_)) * 7 + dice) * 7 + pending];
  }
  int most() const { return most_; }

 private:
  Rules rules_;
  int most_;
  std::vector<double> reach_;
};

struct WinValue {
  double win = 0;  // P(the seat wins)
  double tie = 0;  // P(a tie)
  double utility() const { return win + tie / 2; }
};

struct WinSolveStats {
  std::uint64_t positions = 0;    // turn starts solved
  std::uint64_t turn_states = 0;  // (turn total, dice, pending) states visited, summed over iterations
  int most_iterations = 0;        // of policy iteration at one pair of scores
  double seconds = 0;
};

// The solution: the value of every turn start for the seat to move.
class WinSolution {
 public:
  WinSolution(const Rules& rules);
  int units() const { return units_; }  // the target in units of kPoint
  // Seat `seat` to move, its banked score `mine`, the other's `theirs` (units).
  const WinValue& at(int seat, int mine, int theirs) const { return values_[index(seat, mine, theirs)]; }
  WinValue& at(int seat, int mine, int theirs) { return values_[index(seat, mine, theirs)]; }
  // The game from the start: P(first seat wins), P(second wins), P(tie).
  double first_wins() const { return at(0, 0, 0).win; }
  double tie() const { return at(0, 0, 0).tie; }
  double second_wins() const { return 1 - first_wins() - tie(); }
  WinSolveStats stats;

 private:
  std::size_t index(int seat, int mine, int theirs) const {
    return (std::size_t(seat) * units_ + mine) * units_ + theirs;
  }
  int units_;
  std::vector<WinValue> values_;
};

// Solves two-player 10,000 for the rules (the target a multiple of kPoint).
// Throws std::invalid_argument for rules it cannot solve yet.
WinSolution solve_win(const Scoring& scoring);

}  // namespace dicesim::tenk
