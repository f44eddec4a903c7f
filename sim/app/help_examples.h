// The examples that end every command's --help. A test runs each of them,
// from a directory where configs/ is the repository's, so they stay true.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>

namespace dicesim {

inline std::string help_examples(std::initializer_list<std::string_view> commands) {
  std::string text = "\nExamples (from the repository's root; the binary is build/dicesim):\n";
  for (std::string_view c : commands) text.append("  ").append(c).append("\n");
  return text;
}

}  // namespace dicesim
