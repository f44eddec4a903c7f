// Rows of text in aligned columns, for everything dicesim prints in columns
// (the run summary, the strategy matrices): each column as wide as its
// widest cell, so no name or interval is ever cut.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace dicesim {

class TextColumns {
 public:
  // Each cell as terminal text (config/terminal_text.h): names come from
  // configs and results files.
  void add_row(std::vector<std::string> cells);
  // The first column left-aligned (names), the others right-aligned, two
  // spaces apart.
  void print(std::ostream& out) const;

 private:
  std::vector<std::vector<std::string>> rows_;
};

// The characters a terminal shows for UTF-8 text ("±" is one, not two bytes).
std::size_t display_width(const std::string& text);

// `value` in fixed notation at `precision` digits.
std::string fixed_text(double value, int precision);
// An estimate with the half-width of its 95% interval: "0.5081 ±0.0010".
std::string with_interval(double value, double half_width, int precision);

}  // namespace dicesim
