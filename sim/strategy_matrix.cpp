#include "strategy_matrix.h"

#include <ostream>

#include "text_table.h"

namespace dicesim {

void print_strategy_matrix(std::ostream& out, const std::string& title, const std::vector<Strategy>& strategies,
                           int precision,
                           const std::function<std::optional<MatrixCell>(std::size_t, std::size_t)>& cell) {
  TextTable table;
  std::vector<std::string> header{""};
  for (const Strategy& s : strategies) header.push_back(s.name);
  table.add_row(std::move(header));
  for (std::size_t row = 0; row < strategies.size(); ++row) {
    std::vector<std::string> cells{strategies[row].name};
    for (std::size_t column = 0; column < strategies.size(); ++column) {
      const std::optional<MatrixCell> c = cell(row, column);
      cells.push_back(!c                  ? "-"
                      : c->half_width < 0 ? fixed_text(c->value, precision)
                                          : with_interval(c->value, c->half_width, precision));
    }
    table.add_row(std::move(cells));
  }
  out << title << "\n";
  table.print(out);
}

}  // namespace dicesim
