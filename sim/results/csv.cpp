#include "results/csv.h"

#include "config/terminal_text.h"

namespace dicesim {

std::string csv_text(std::string_view raw) {
  // Control characters and bytes that are not UTF-8 (only a forged file has
  // them: names refuse them) escaped as on a terminal: the file stays UTF-8
  // text, a record a line.
  const std::string text = terminal_text(raw);
  std::string field;
  if (!text.empty() && std::string_view("=+-@").find(text.front()) != std::string_view::npos) field = "'";
  field += text;
  const bool quote = field.find_first_of(",\"") != std::string::npos ||
                     (!field.empty() && (field.front() == ' ' || field.back() == ' '));
  if (!quote) return field;
  std::string out = "\"";
  for (char c : field) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string csv_row(const std::vector<std::string>& fields) {
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) line += (i ? "," : "") + fields[i];
  return line + "\n";
}

}  // namespace dicesim
