#include "results/text_columns.h"

#include <algorithm>
#include <cstdio>
#include <ostream>

#include "config/terminal_text.h"

namespace dicesim {

std::size_t display_width(const std::string& text) {
  // Every UTF-8 continuation byte (10xxxxxx) belongs to the character before it.
  return std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; });
}

std::string fixed_text(double value, int precision) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", precision, value);
  return text;
}

std::string with_interval(double value, double half_width, int precision) {
  return fixed_text(value, precision) + " \u00b1" + fixed_text(half_width, precision);
}

void TextColumns::add_row(std::vector<std::string> cells) {
  for (std::string& cell : cells) cell = terminal_text(cell);
  rows_.push_back(std::move(cells));
}

void TextColumns::print(std::ostream& out) const {
  std::vector<std::size_t> width;
  for (const auto& row : rows_)
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (width.size() <= c) width.push_back(0);
      width[c] = std::max(width[c], display_width(row[c]));
    }
  for (const auto& row : rows_) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      const std::string pad(width[c] - display_width(row[c]), ' ');
      if (c == 0)
        line += row[c] + pad;
      else
        line += "  " + pad + row[c];
    }
    out << line << "\n";
  }
}

}  // namespace dicesim
