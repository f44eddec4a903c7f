// Every CSV file dicesim writes (show --csv, solve tenk --policy-csv): one
// rule for its fields, so that no name from data breaks a row or reaches a
// spreadsheet as a formula.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dicesim {

// A text field (a name, a key, a path), its control characters and bytes
// that are not UTF-8 escaped as terminal_text does. Text starting with
// = + - @ gets a leading ' (OWASP's guard against spreadsheet formulas);
// then a field holding , or ", or starting or ending with a space, is
// quoted as RFC 4180 says ("" for "). Numbers are written as they are, never
// through this: -0.5 stays a number.
std::string csv_text(std::string_view text);

// One record: the fields, each already a number or csv_text, joined by commas, and a line feed.
std::string csv_row(const std::vector<std::string>& fields);

}  // namespace dicesim
