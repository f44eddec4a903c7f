// Number literals as a JSON text wrote them (used by parse_json_text and
// JsonNode): 1e6 and 2.5e6 become the integers they denote, and a literal
// that json::dump() prints otherwise ("-1e1", "2.0") is kept, by source name
// and JSON path, for error messages and for integer keys.
//
// Why a scan of the text beside the parser, which must stay in step with it:
// nlohmann/json's parse callback hands over each value parsed, never its text
// or where it stood, and its SAX interface gives an integer no text ("-0"
// reads as 0). So the literals are listed by scanning the text outside
// strings (json_scan_internal.h), in document order, and the parser's number
// values are matched to them one by one in the same order; in JSON that
// parses, a '-' or digit outside strings starts a number and nothing else.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/json_input.h"

namespace dicesim {

// The number literals of one JSON text, read as its parser reports their
// values.
class NumberLiterals {
 public:
  explicit NumberLiterals(std::string_view text);

  // The parser's next number value, at the JSON path that `path` makes (only
  // when needed): 1e6 or 2.5e6 becomes the integer it denotes; 2.0 stays a
  // double. A literal that dump() would print otherwise is kept.
  void read_number(json& parsed, const std::function<std::string()>& path);

  // Keeps the literals read for written_number_text, replacing any kept
  // before under the same source name.
  void keep(const std::string& source_name) &&;

 private:
  std::map<std::string, std::pair<json, std::string>> written_;
  std::vector<std::string_view> numbers_;
  std::size_t next_number_ = 0;
};

// The text a JSON text (by source name) wrote for `value` at JSON path
// `path`, if it was kept.
std::optional<std::string> written_number_text(const std::string& source, const std::string& path, const json& value);

}  // namespace dicesim
