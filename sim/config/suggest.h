// "Did you mean ...": the known word closest to a mistyped one, for the
// errors of every input (keys, games, families, commands, options).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dicesim {

// `; did you mean "x"?` for the known word nearest to `word` (edit
// distance, at most a third of the word's length, at least 1), or "" when
// none is that close.
std::string did_you_mean(std::string_view word, const std::vector<std::string_view>& known);

}  // namespace dicesim
