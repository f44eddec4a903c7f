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

#include "game.h"

namespace dicesim {

// Prints the title, a header of the column strategies' names (cut to the
// cell width), then one row per strategy with `cell(row, column)` in fixed
// notation at `precision` digits, or "-" where it has no value.
void print_strategy_matrix(std::ostream& out, const std::string& title, const std::vector<Strategy>& strategies,
                           int precision, const std::function<std::optional<double>(std::size_t, std::size_t)>& cell);

}  // namespace dicesim
