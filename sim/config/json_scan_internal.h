// Internal to config/: the one scanner of raw JSON text, shared by the
// nesting check (json_input.cpp) and the number literals
// (number_literals.cpp), so that both skip strings the same way.
#pragma once

#include <cstddef>
#include <string_view>

namespace dicesim {

// Calls code(i) for every character of a JSON text outside strings (the
// quotes included), so that brackets and digits inside strings never count.
// code returns how many characters to skip after this one.
template <class Code>
void scan_outside_strings(std::string_view text, Code code) {
  bool in_string = false, escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else {
      i += code(i);
    }
  }
}

}  // namespace dicesim
