// Exact Pig: the seed's "reach the goal within N turns" tables and stop
// numbers, the policy that maximises the chance of winning a two-player game
// (Neller and Presser), and exact evaluation of any one or two compiled
// strategies: win probabilities, final scores and turns played.
#pragma once

#include <optional>
#include <vector>

#include "games/pig/pig.h"
#include "math/race.h"

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

// Where every turn of one policy ends, from every (phase, own score,
// opponent's score): computed once per policy and shared by every pair it
// plays in (identical rows at the same score share one outcome).
class TurnOutcomes {
 public:
  TurnOutcomes(const Rules& rules, const Policy& policy);
  int phases() const { return phases_; }
  const TurnOutcome& get(int phase, int i, int j) const { return outcomes_[slot(phase, i, j)]; }
  // P(the turn reaches the goal).
  double won(int phase, int i, int j) const { return won_[slot(phase, i, j)]; }

 private:
  std::size_t slot(int phase, int i, int j) const {
    return static_cast<std::size_t>(index_[(std::size_t(phase) * goal_ + i) * goal_ + j]);
  }
  int goal_, phases_;
  std::vector<int> index_;
  std::vector<TurnOutcome> outcomes_;
  std::vector<double> won_;  // per outcome
};

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
// Once the unfinished games keep their shape from one round to the next
// (within kUnfinished / 10 over the rest of the game), the rest is added as a
// geometric series (geometric_tail, for policies of one phase; a third of the
// walk at two dice, goal 200); without it, the walk goes on to the end.
// `start`: each seat's banked score at the start (empty: 0, else one per seat).
std::optional<Evaluation> evaluate_outcomes(const Rules& rules, const std::vector<const TurnOutcomes*>& seats,
                                            int turn_bins, bool geometric_tail = true,
                                            const std::vector<int>& start = {});

// P(seat 0 wins) alone, without the turn by turn walk of evaluate(): the
// value of every turn-start state, solved once per pair of scores from high
// score sums to low (a bank only raises the sum; a single 1 hands the same
// pair to the other seat, so the two seats' values there, in every phase,
// are solved together exactly). Two 1s lead to a lower sum: those values
// come from the previous pass, repeated until nothing changes (one pass with
// one die). For policies of more than kMostPhasesSolved phases together
// (the least common multiple), nullopt: use evaluate().
constexpr int kMostPhasesSolved = 64;
std::optional<double> win_probability(const Rules& rules, const TurnOutcomes& first, const TurnOutcomes& second);

// A policy that ignores_opponent (pig.h) plays its own game whoever it
// meets: its turns are computed once, and a table of such policies is put
// together from them in O(turns x seats x (seats + goal)) instead of a walk
// over every tuple of scores turn by turn: any number of seats.
// Its own turns (math/race.h), until less than kUnfinished * 1e-3 is left unfinished.
// From banked score `start` (a head start).
Race race_alone(const Rules& rules, const Policy& policy, int start = 0);
// Them playing in turn, seat 0 first; for one or two seats the same as evaluate().
Evaluation evaluate_independent(const Rules& rules, const std::vector<const Race*>& seats, int turn_bins);

}  // namespace dicesim::pig
