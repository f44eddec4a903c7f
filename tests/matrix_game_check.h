// A matrix game's solution checked as a game theorist would (math/matrix_game.h):
// the battle tests and the matrix game's own use it.
#pragma once

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "math/matrix_game.h"

namespace dicesim::testing {

// The equilibrium of a matrix game checked as a game theorist would: no pure
// deviation of either player gains more than 1e-9.
inline void expect_equilibrium(const std::vector<double>& a, int rows, int columns, const MatrixGameSolution& s) {
  ASSERT_EQ(static_cast<int>(s.row_strategy.size()), rows);
  ASSERT_EQ(static_cast<int>(s.column_strategy.size()), columns);
  EXPECT_NEAR(std::accumulate(s.row_strategy.begin(), s.row_strategy.end(), 0.0), 1, 1e-12);
  EXPECT_NEAR(std::accumulate(s.column_strategy.begin(), s.column_strategy.end(), 0.0), 1, 1e-12);
  for (double p : s.row_strategy) EXPECT_GE(p, 0);
  for (double q : s.column_strategy) EXPECT_GE(q, 0);
  for (int c = 0; c < columns; ++c) {
    double against = 0;  // the row strategy against pure column c
    for (int r = 0; r < rows; ++r) against += s.row_strategy[r] * a[r * columns + c];
    EXPECT_GE(against, s.value - 1e-9) << "column " << c;
  }
  for (int r = 0; r < rows; ++r) {
    double against = 0;
    for (int c = 0; c < columns; ++c) against += s.column_strategy[c] * a[r * columns + c];
    EXPECT_LE(against, s.value + 1e-9) << "row " << r;
  }
}

}  // namespace dicesim::testing
