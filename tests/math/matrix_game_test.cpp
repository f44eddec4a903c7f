// The matrix game solver (math/matrix_game.h) on games with known answers.
#include "math/matrix_game.h"

#include <gtest/gtest.h>

#include <vector>

#include "engine/rng.h"
#include "matrix_game_check.h"

namespace dicesim {
namespace {

using testing::expect_equilibrium;

TEST(MatrixGame, MixedGamesMatchTheClosedFormOfTwoByTwo) {
  // Matching pennies and a skewed 2x2 game without a saddle point: p1 =
  // (d - c) / (a - b - c + d), value = (ad - bc) / (a - b - c + d).
  for (const std::vector<double>& m : {std::vector<double>{1, -1, -1, 1}, std::vector<double>{3, -1, -2, 4}}) {
    const MatrixGameSolution s = solve_matrix_game(m, 2, 2);
    const double denominator = m[0] - m[1] - m[2] + m[3];
    EXPECT_NEAR(s.row_strategy[0], (m[3] - m[2]) / denominator, 1e-12);
    EXPECT_NEAR(s.column_strategy[0], (m[3] - m[1]) / denominator, 1e-12);
    EXPECT_NEAR(s.value, (m[0] * m[3] - m[1] * m[2]) / denominator, 1e-12);
    expect_equilibrium(m, 2, 2, s);
  }
  const std::vector<double> saddle = {2, 5, 1, 0};  // row 0, column 0
  const MatrixGameSolution s = solve_matrix_game(saddle, 2, 2);
  EXPECT_EQ(s.value, 2);
  EXPECT_EQ(s.row_strategy, (std::vector<double>{1, 0}));
}

TEST(MatrixGame, RectangularGamesHaveEquilibria) {
  Rng rng = block_rng(5, 6, 7);
  for (int trial = 0; trial < 50; ++trial) {
    const int rows = 1 + static_cast<int>(uniform_below(rng, 7)), columns = 1 + static_cast<int>(uniform_below(rng, 7));
    std::vector<double> a(rows * columns);
    for (double& x : a) x = static_cast<int>(uniform_below(rng, 201)) / 100.0 - 1;
    expect_equilibrium(a, rows, columns, solve_matrix_game(a, rows, columns));
  }
}

}  // namespace
}  // namespace dicesim
