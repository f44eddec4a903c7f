// Zero-sum matrix games by linear programming (GLPK's simplex): the only
// file that talks to GLPK.
#pragma once

#include <vector>

namespace dicesim {

struct MatrixGameSolution {
  std::vector<double> row_strategy;     // the maximiser's optimal mixed strategy
  std::vector<double> column_strategy;  // the minimiser's, from the LP's duals
  double value = 0;                     // what the row player is guaranteed
  bool linear_program = false;          // false: a pure saddle point, found without the LP
  // The most the column strategy concedes minus the least the row strategy
  // guarantees: the value is known to within this (0 at a saddle point).
  double gap = 0;
};

// payoff[r * columns + c]: what the row player gains (the column player
// loses) when row r meets column c. Solves
//   max v  subject to  sum_r p_r payoff[r][c] >= v for every c,  sum_r p_r = 1,  p >= 0
// A pure saddle point, when there is one, is returned without an LP.
// Throws std::runtime_error if GLPK fails (it should not on a finite matrix).
MatrixGameSolution solve_matrix_game(const std::vector<double>& payoff, int rows, int columns);

}  // namespace dicesim
