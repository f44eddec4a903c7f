// Exact Dice Battle (seed 002): P(d,k), the blind number of dice, the
// sequential game's expected gain EG(i,j) and its optimal d*(i,j), the
// simultaneous one-turn game and the general simultaneous game (one matrix
// game per state, solved by LP backwards from the goal), and exact
// evaluation of any two compiled policies.
#pragma once

#include <vector>

#include "games/battle/battle.h"
#include "math/matrix_game.h"

namespace dicesim::battle {

// P(d, k) by the seed's recursion over Q(d, k), the distribution of the sum
// given that no die shows a 1: probability[d][k] for d = 1..D, k = 0..6d
// (row 0 unused).
std::vector<std::vector<double>> throw_probabilities(int max_dice);

// The seed's expected points of a throw of d dice: 4d (5/6)^d + 1 - (5/6)^d.
double expected_points(int dice);
// The blind d*: the d in 1..D with the most expected points (the fewest
// dice among equals).
int blind_dice(int max_dice);

// EG(i, j): the expected gain (P(win) - P(loss)) of the player about to
// throw with i points against j, both below the goal, under optimal play,
// and d*(i, j), the number of dice that achieves it (the fewest among
// equals).
struct SequentialSolution {
  int goal = 0;
  std::vector<double> gain;  // [i * goal + j]
  std::vector<int> dice;     // [i * goal + j]
  double expected_gain(int i, int j) const { return gain[std::size_t(i) * goal + j]; }
  int best_dice(int i, int j) const { return dice[std::size_t(i) * goal + j]; }
  double first_player_wins() const { return (1 + gain[0]) / 2; }  // no ties in the sequential game
};
SequentialSolution solve_sequential(const Rules& rules);

// The seed's one-turn game: EG1(d1, d2) = P(k > l) - P(k < l) when player 1
// throws d1 dice (scoring k) and player 2 throws d2 (scoring l).
std::vector<double> one_turn_matrix(int max_dice);  // [(d1 - 1) * D + d2 - 1]

// The general simultaneous game: V(i, j), player 1's expected gain at scores
// (i, j) under equilibrium play, and player 1's equilibrium mixed strategy
// there (player 2 at (i, j) plays player 1's strategy at (j, i): the game is
// symmetric).
struct SimultaneousSolution {
  int goal = 0;
  int max_dice = 0;
  std::vector<double> value;                  // [i * goal + j]
  std::vector<std::vector<double>> strategy;  // [i * goal + j][d - 1]
  int linear_programs = 0;                    // states without a pure saddle point, solved by LP
  double largest_gap = 0;                     // the largest duality gap of a state's LP
  double seconds = 0;                         // wall time of the solve
  double game_value(int i, int j) const { return value[std::size_t(i) * goal + j]; }
  const std::vector<double>& mixed(int i, int j) const { return strategy[std::size_t(i) * goal + j]; }
};
SimultaneousSolution solve_simultaneous(const Rules& rules);

// The payoff matrix of the state (i, j), [(d1 - 1) * D + d2 - 1], given the
// values of the states after it; exposed for tests and for `solve battle`.
std::vector<double> state_matrix(const Rules& rules, const std::vector<std::vector<double>>& probability,
                                 const SimultaneousSolution& solved, int i, int j);

// Exact odds of a game between two policies (seat 0 throws first in the
// sequential game), or of one policy alone (`second` null: the opponent
// stays at 0, as in play_alone). Distributions per seat: the final score
// (0 .. goal - 1 + 6D) and the turns the seat played (0 .. goal).
struct Evaluation {
  std::vector<double> win;  // per seat, outright
  double tie = 0;
  std::vector<std::vector<double>> score, turns;  // [seat][bin]
};
//
// The turns are followed (throw by throw, or turn by turn) only up to a goal
// of kTurnsFollowedUpToGoal when a policy looks at the scores: a state is met
// once per throw count that reaches it, a cost growing as the goal cubed
// (minutes at 1000). Above it the walk goes once through the states in
// increasing score sums and `turns` is empty.
constexpr int kTurnsFollowedUpToGoal = 300;
// Each seat's score at the start of the game: a head start.
struct Start {
  int first = 0, second = 0;
  std::size_t index(int goal) const { return std::size_t(first) * goal + second; }  // in a walk's (a, b) mass
};
Evaluation evaluate(const Rules& rules, const Policy& first, const Policy* second, Start start = {});
// The same, choosing whether to follow the turns (tests).
Evaluation evaluate(const Rules& rules, const Policy& first, const Policy* second, bool follow_turns, Start start = {});

}  // namespace dicesim::battle
