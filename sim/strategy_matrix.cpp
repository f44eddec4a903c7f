#include "strategy_matrix.h"

#include <algorithm>
#include <iomanip>
#include <ostream>

namespace dicesim {

void print_strategy_matrix(std::ostream& out, const std::string& title, const std::vector<Strategy>& strategies,
                           int precision, const std::function<std::optional<double>(std::size_t, std::size_t)>& cell) {
  constexpr int kCellWidth = 12;
  std::size_t longest = 0;
  for (const Strategy& s : strategies) longest = std::max(longest, s.name.size());
  const int name_width = static_cast<int>(longest) + 4;
  out << title << "\n" << std::setw(name_width) << "";
  for (const Strategy& s : strategies) out << std::setw(kCellWidth) << s.name.substr(0, kCellWidth - 1);
  out << "\n" << std::fixed << std::setprecision(precision);
  for (std::size_t row = 0; row < strategies.size(); ++row) {
    out << std::left << std::setw(name_width) << strategies[row].name << std::right;
    for (std::size_t column = 0; column < strategies.size(); ++column) {
      const std::optional<double> value = cell(row, column);
      if (value)
        out << std::setw(kCellWidth) << *value;
      else
        out << std::setw(kCellWidth) << "-";
    }
    out << "\n";
  }
}

}  // namespace dicesim
