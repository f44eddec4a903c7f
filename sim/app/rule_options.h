// A game's rules as options of its `dicesim solve` command, made from the
// rules it declares (GameEntry::rules_parameters): one option per integer,
// boolean or choice key, named --key-with-dashes, with the declared
// description, default and range. So a solve command never types a rule's
// range, default or help again, and a new rule is an option at once.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "config/json_input.h"
#include "config/parameters.h"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace dicesim {

class RuleOptions {
 public:
  // Adds the options to `command`, but none for the keys in `except` (those
  // the command reads its own way, such as 10,000's preset).
  RuleOptions(CLI::App& command, const std::vector<Parameter>& rules, std::vector<std::string_view> except = {});
  ~RuleOptions();

  // The rules given on the command line, as a config's "rules" object.
  json given() const;
  // `rules` with the given keys replaced.
  json over(json rules) const;

 private:
  struct Rule;
  std::vector<std::unique_ptr<Rule>> rules_;
};

// The option of a key: "zero_face" is --zero-face.
std::string option_name(std::string_view key);

}  // namespace dicesim
