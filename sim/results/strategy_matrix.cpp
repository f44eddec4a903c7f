#include "results/strategy_matrix.h"

#include <algorithm>
#include <cmath>
#include <ostream>

#include "results/text_columns.h"

namespace dicesim {

namespace {

// Wider than this, a matrix is printed as one line per cell.
constexpr std::size_t kMostMatrixColumns = 12;

std::string cell_text(const MatrixCell& c, int precision) {
  if (std::isnan(c.value)) return "-";  // a table with no games: no estimate
  return c.half_width < 0 ? fixed_text(c.value, precision) : with_interval(c.value, c.half_width, precision);
}

}  // namespace

void print_strategy_matrix(std::ostream& out, const std::string& title, const std::vector<Strategy>& strategies,
                           int precision, std::vector<MatrixEntry> entries) {
  std::sort(entries.begin(), entries.end(), [](const MatrixEntry& a, const MatrixEntry& b) {
    return std::pair(a.row, a.column) < std::pair(b.row, b.column);
  });
  // Only the rows and columns with some value: a sweep against a few
  // opponents is not drawn as a square of dashes.
  std::vector<bool> row_used(strategies.size(), entries.empty()), column_used(strategies.size(), entries.empty());
  for (const MatrixEntry& e : entries) row_used[e.row] = column_used[e.column] = true;
  std::vector<std::size_t> rows, column_of(strategies.size(), 0);
  std::vector<std::string> header{""};
  for (std::size_t s = 0; s < strategies.size(); ++s) {
    if (row_used[s]) rows.push_back(s);
    if (column_used[s]) {
      column_of[s] = header.size();
      header.push_back(strategies[s].name);
    }
  }
  TextColumns table;
  out << title << "\n";
  if (header.size() - 1 > kMostMatrixColumns) {
    table.add_row({"strategy", "opponent", "value"});
    for (const MatrixEntry& e : entries)
      table.add_row({strategies[e.row].name, strategies[e.column].name, cell_text(e.cell, precision)});
    table.print(out);
    return;
  }
  table.add_row(header);
  auto next = entries.begin();
  for (std::size_t row : rows) {
    std::vector<std::string> line(header.size(), "-");
    line[0] = strategies[row].name;
    for (; next != entries.end() && next->row == row; ++next)
      line[column_of[next->column]] = cell_text(next->cell, precision);
    table.add_row(std::move(line));
  }
  table.print(out);
}

void print_strategy_matrix(std::ostream& out, const std::string& title, const std::vector<Strategy>& strategies,
                           int precision,
                           const std::function<std::optional<MatrixCell>(std::size_t, std::size_t)>& cell) {
  std::vector<MatrixEntry> entries;
  for (std::size_t row = 0; row < strategies.size(); ++row)
    for (std::size_t column = 0; column < strategies.size(); ++column)
      if (const std::optional<MatrixCell> c = cell(row, column)) entries.push_back({row, column, *c});
  print_strategy_matrix(out, title, strategies, precision, std::move(entries));
}

}  // namespace dicesim
