#include "math/matrix_game.h"

#include <glpk.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>

namespace dicesim {
namespace {

// The LP's small negative round-off (-1e-17) is not a probability.
std::vector<double> normalised(std::vector<double> p) {
  for (double& x : p) x = std::max(x, 0.0);
  const double total = std::accumulate(p.begin(), p.end(), 0.0);
  for (double& x : p) x /= total;
  return p;
}

// A pure saddle point: the best row's worst case equals the best column's.
bool pure_saddle(const std::vector<double>& payoff, int rows, int columns, MatrixGameSolution& out) {
  int best_row = 0, best_column = 0;
  double maximin = -std::numeric_limits<double>::infinity(), minimax = std::numeric_limits<double>::infinity();
  for (int r = 0; r < rows; ++r) {
    double worst = std::numeric_limits<double>::infinity();
    for (int c = 0; c < columns; ++c) worst = std::min(worst, payoff[r * columns + c]);
    if (worst > maximin) maximin = worst, best_row = r;
  }
  for (int c = 0; c < columns; ++c) {
    double worst = -std::numeric_limits<double>::infinity();
    for (int r = 0; r < rows; ++r) worst = std::max(worst, payoff[r * columns + c]);
    if (worst < minimax) minimax = worst, best_column = c;
  }
  if (maximin < minimax) return false;
  out.row_strategy.assign(rows, 0.0);
  out.column_strategy.assign(columns, 0.0);
  out.row_strategy[best_row] = 1;
  out.column_strategy[best_column] = 1;
  out.value = payoff[best_row * columns + best_column];
  return true;
}

constexpr double kTolerance = 1e-9;

// What the column strategy q concedes at most (its worst row) minus what the
// row strategy p guarantees (its worst column): the value lies between the
// two, so this bounds the error of both.
double duality_gap(const std::vector<double>& payoff, int rows, int columns, const MatrixGameSolution& s) {
  double guaranteed = std::numeric_limits<double>::infinity(), conceded = -guaranteed;
  for (int c = 0; c < columns; ++c) {
    double against = 0;
    for (int r = 0; r < rows; ++r) against += s.row_strategy[r] * payoff[r * columns + c];
    guaranteed = std::min(guaranteed, against);
  }
  for (int r = 0; r < rows; ++r) {
    double against = 0;
    for (int c = 0; c < columns; ++c) against += s.column_strategy[c] * payoff[r * columns + c];
    conceded = std::max(conceded, against);
  }
  return conceded - guaranteed;
}

struct ProblemDeleter {
  void operator()(glp_prob* p) const { glp_delete_prob(p); }
};

}  // namespace

MatrixGameSolution solve_matrix_game(const std::vector<double>& payoff, int rows, int columns) {
  MatrixGameSolution out;
  if (pure_saddle(payoff, rows, columns, out)) return out;

  glp_term_out(GLP_OFF);  // GLPK prints to stdout by default
  const std::unique_ptr<glp_prob, ProblemDeleter> lp(glp_create_prob());
  glp_set_obj_dir(lp.get(), GLP_MAX);
  // Columns 1..rows: the row player's p_r >= 0; column rows + 1: the value v, free.
  glp_add_cols(lp.get(), rows + 1);
  for (int r = 1; r <= rows; ++r) glp_set_col_bnds(lp.get(), r, GLP_LO, 0.0, 0.0);
  glp_set_col_bnds(lp.get(), rows + 1, GLP_FR, 0.0, 0.0);
  glp_set_obj_coef(lp.get(), rows + 1, 1.0);
  // Rows 1..columns: sum_r p_r payoff[r][c] - v >= 0; row columns + 1: sum_r p_r = 1.
  glp_add_rows(lp.get(), columns + 1);
  for (int c = 1; c <= columns; ++c) glp_set_row_bnds(lp.get(), c, GLP_LO, 0.0, 0.0);
  glp_set_row_bnds(lp.get(), columns + 1, GLP_FX, 1.0, 1.0);
  // glp_load_matrix reads its arrays from index 1: element 0 is unused.
  std::vector<int> ia(1), ja(1);
  std::vector<double> ar(1);
  const auto put = [&](int row, int column, double value) {
    ia.push_back(row), ja.push_back(column), ar.push_back(value);
  };
  for (int c = 0; c < columns; ++c) {
    for (int r = 0; r < rows; ++r)
      if (payoff[r * columns + c] != 0) put(c + 1, r + 1, payoff[r * columns + c]);
    put(c + 1, rows + 1, -1.0);
  }
  for (int r = 0; r < rows; ++r) put(columns + 1, r + 1, 1.0);
  glp_load_matrix(lp.get(), static_cast<int>(ia.size()) - 1, ia.data(), ja.data(), ar.data());

  glp_smcp parameters;
  glp_init_smcp(&parameters);
  parameters.msg_lev = GLP_MSG_OFF;
  // GLPK's default 1e-7 feasibility tolerances stop the simplex one pivot
  // short in a few states of the larger games (D = 20, N = 200: strategies
  // 5e-8 from an equilibrium, V(i, j) + V(j, i) = 1.8e-8). At 1e-9 every
  // state's duality gap is round-off (1e-14).
  parameters.tol_bnd = kTolerance;
  parameters.tol_dj = kTolerance;
  const int code = glp_simplex(lp.get(), &parameters);
  if (code != 0 || glp_get_status(lp.get()) != GLP_OPT)
    throw std::runtime_error("GLPK simplex failed on a " + std::to_string(rows) + "x" + std::to_string(columns) +
                             " matrix game (glp_simplex returned " + std::to_string(code) + ", status " +
                             std::to_string(glp_get_status(lp.get())) + ")");
  out.linear_program = true;
  out.value = glp_get_obj_val(lp.get());
  out.row_strategy.resize(rows);
  for (int r = 0; r < rows; ++r) out.row_strategy[r] = glp_get_col_prim(lp.get(), r + 1);
  // The dual of "row player gets at least v against column c" is the weight
  // the minimiser puts on c (LP duality is the minimax theorem).
  out.column_strategy.resize(columns);
  for (int c = 0; c < columns; ++c) out.column_strategy[c] = std::abs(glp_get_row_dual(lp.get(), c + 1));
  out.row_strategy = normalised(std::move(out.row_strategy));
  out.column_strategy = normalised(std::move(out.column_strategy));
  out.gap = duality_gap(payoff, rows, columns, out);
  return out;
}

}  // namespace dicesim
