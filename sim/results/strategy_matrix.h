// The strategy-by-strategy matrices that `run`, `check`, `merge` and the
// solve commands print (win rates, exact win probabilities, z-scores): one
// layout for all of them.
#pragma once

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "games/game.h"

namespace dicesim {

// A cell: a value and, for an estimate, the half-width of its 95% interval.
struct MatrixCell {
  double value = 0;
  double half_width = -1;  // < 0: an exact value, printed without an interval
};

// One cell of the matrix: row and column index strategies.
struct MatrixEntry {
  std::size_t row = 0, column = 0;
  MatrixCell cell;
};

// Prints the title, a header of the column strategies' names, then one row
// per strategy with `cell(row, column)` in fixed notation at `precision`
// digits ("0.5081 ±0.0010" for an estimate), or "-" where it has no value
// (a strategy is not played against itself). Columns are as wide as their
// widest name or cell. Rows and columns without any value are left out, and
// a matrix of more than 12 columns is printed as one line per cell
// (strategy, opponent, value).
// The cells as a list, in any order: it costs what the cells do, however
// many strategies there are.
void print_strategy_matrix(std::ostream& out, const std::string& title, const std::vector<Strategy>& strategies,
                           int precision, std::vector<MatrixEntry> entries);

// The same, asking `cell` for every (row, column): for matrices the caller
// holds whole anyway (the solvers').
void print_strategy_matrix(std::ostream& out, const std::string& title, const std::vector<Strategy>& strategies,
                           int precision,
                           const std::function<std::optional<MatrixCell>(std::size_t, std::size_t)>& cell);

}  // namespace dicesim
