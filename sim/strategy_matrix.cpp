#include "strategy_matrix.h"

#include <algorithm>
#include <ostream>

#include "text_table.h"

namespace dicesim {

namespace {

// Wider than this, a matrix is printed as one line per cell.
constexpr std::size_t kMostMatrixColumns = 12;

std::string cell_text(const MatrixCell& c, int precision) {
  return c.half_width < 0 ? fixed_text(c.value, precision) : with_interval(c.value, c.half_width, precision);
}

}  // namespace

void print_strategy_matrix(std::ostream& out, const std::string& title, const std::vector<Strategy>& strategies,
                           int precision,
                           const std::function<std::optional<MatrixCell>(std::size_t, std::size_t)>& cell) {
  // Only the rows and columns with some value: a sweep against a few
  // opponents is not drawn as a square of dashes.
  std::vector<std::vector<std::optional<MatrixCell>>> cells(strategies.size());
  std::vector<bool> row_used(strategies.size(), false), column_used(strategies.size(), false);
  for (std::size_t row = 0; row < strategies.size(); ++row)
    for (std::size_t column = 0; column < strategies.size(); ++column) {
      cells[row].push_back(cell(row, column));
      if (cells[row].back()) row_used[row] = column_used[column] = true;
    }
  const bool any = std::find(row_used.begin(), row_used.end(), true) != row_used.end();
  std::vector<std::size_t> rows, columns;
  for (std::size_t s = 0; s < strategies.size(); ++s) {
    if (row_used[s] || !any) rows.push_back(s);
    if (column_used[s] || !any) columns.push_back(s);
  }
  TextTable table;
  out << title << "\n";
  if (columns.size() > kMostMatrixColumns) {
    table.add_row({"strategy", "opponent", "value"});
    for (std::size_t row : rows)
      for (std::size_t column : columns)
        if (const std::optional<MatrixCell>& c = cells[row][column])
          table.add_row({strategies[row].name, strategies[column].name, cell_text(*c, precision)});
    table.print(out);
    return;
  }
  std::vector<std::string> header{""};
  for (std::size_t column : columns) header.push_back(strategies[column].name);
  table.add_row(std::move(header));
  for (std::size_t row : rows) {
    std::vector<std::string> line{strategies[row].name};
    for (std::size_t column : columns)
      line.push_back(cells[row][column] ? cell_text(*cells[row][column], precision) : "-");
    table.add_row(std::move(line));
  }
  table.print(out);
}

}  // namespace dicesim
