// Exact Pig: the seed's "reach the goal within N turns" tables and stop
// numbers, the policy that maximises the chance of winning a two-player game
// (Neller and Presser), and exact evaluation of any one or two compiled
// strategies: win probabilities, final scores and turns played.
#pragma once

#include <optional>
#include <vector>

#include "games/pig/pig.h"
#include "race.h"

namespace dicesim::pig {

// The seed's tables, for n = 0..turns turns left (this one included).
struct TurnsSolution {
  // reach[n][s]: P(bank the goal within n turns | banked s at the start of a
  // turn), s = 0..goal-1 (from the goal on it is 1).
  std::vector<std::vector<double>> reach;
  // hold[n][s][k], k = 0..goal-1: the best play at turn total k.
  std::vector<std::vector<std::vector<std::uint8_t>>> hold;
  // stop[n][s]: the seed's stop number, the least turn total k >= 1 from
  // which holding is best at every total below the goal; goal - s when
  // throwing on to the goal is best.
  std::vector<std::vector<int>> stop;
  // True when every row is a stop number: throw below it, hold from it on.
  bool thresholds = true;
};
TurnsSolution solve_turns(const Rules& rules, int turns);

// The two values the seed compares at one turn total (n >= 1, s + k < goal):
// holding, and throwing again and playing on as well as possible.
struct Choice {
  double hold = 0;
  double roll = 0;
};
Choice turns_choice(const Rules& rules, const TurnsSolution& solution, int n, int s, int k);

// The seed's "temporary dice total" table: P(the turn ends holding `total`)
// when throwing until the total is at least `stop` (no goal), and P(a single
// 1 ends it), P(two 1s end it).
struct TurnTotals {
  std::vector<double> total;  // by total, 0..stop + largest throw - 1
  double bust = 0;
  double reset = 0;
};
TurnTotals turn_totals(const Rules& rules, int stop);

// Maximises P(win) of a two-player game (value iteration over the turn-start
// states, each pair of states (i, j), (j, i) solved by policy iteration).
struct WinSolution {
  std::vector<double> value;  // value[i * goal + j]: P(win) starting a turn at i against j
  Policy policy;              // one phase; ties go to holding
  int passes = 0;             // sweeps over all states (two dice: resets reach lower sums)
  double win(int i, int j) const { return value[std::size_t(i) * policy.goal() + j]; }
};
WinSolution solve_optimal_win(const Rules& rules);

// Where one turn from banked score i ends, following a policy row.
struct TurnOutcome {
  std::vector<std::pair<int, double>> banked;  // new banked score (< goal), P
  std::vector<std::pair<int, double>> won;     // final score (>= goal), P
};
TurnOutcome turn_outcome(const Rules& rules, const ThrowOdds& odds, const std::uint8_t* hold, int i);

// Exact odds of one seat (alone: the opponent's score stays 0) or two seats
// playing in turn, seat 0 first. Iterates turn by turn until less than
// kUnfinished of the probability is left in unfinished games.
constexpr double kUnfinished = 1e-15;
struct Evaluation {
  std::vector<double> win;                 // per seat
  std::vector<std::vector<double>> score;  // per seat: P(final score), bins 0..score_bins-1
  std::vector<std::vector<double>> turns;  // per seat: P(turns played), the last bin holds that many or more
  double unfinished = 0;                   // probability left when the iteration stopped
};
// nullopt for three or more seats.
std::optional<Evaluation> evaluate(const Rules& rules, const std::vector<const Policy*>& seats, int turn_bins);

// A policy that never looks at the opponent's score (hold_at, optimal_turns)
// plays its own game whoever it meets: its turns are computed once, and a
// pair of such policies is put together from the two in O(turns x goal)
// instead of a walk over every pair of scores turn by turn.
bool ignores_opponent(const Policy& policy);
// Its own turns (sim/race.h), until less than kUnfinished * 1e-3 is left unfinished.
Race race_alone(const Rules& rules, const Policy& policy);
// Two of them playing in turn, seat 0 first; the same as evaluate() for them.
Evaluation evaluate_independent(const Rules& rules, const Race& first, const Race& second, int turn_bins);

}  // namespace dicesim::pig
