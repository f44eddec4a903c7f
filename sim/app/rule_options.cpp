#include "app/rule_options.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdint>
#include <limits>

namespace dicesim {

struct RuleOptions::Rule {
  const Parameter* parameter = nullptr;
  CLI::Option* option = nullptr;
  std::int64_t integer = 0;
  bool boolean = false;
  std::string choice;
};

std::string option_name(std::string_view key) {
  std::string name = "--" + std::string(key);
  for (char& c : name)
    if (c == '_') c = '-';
  return name;
}

namespace {

std::string help_of(const Parameter& p) {
  std::string help = p.description;
  if (p.default_value) help += " (default " + default_text(p) + ")";
  return help;
}

// The declared static range, shown in --help as "[1 - 200]" (and ", a
// multiple of 50"); what relates several keys is the game's rules reader's,
// which reads the given rules as it reads a config's.
CLI::Validator integer_range(const Parameter& p) {
  using limits = std::numeric_limits<std::int64_t>;
  const std::int64_t min = p.min.is_null() ? limits::min() : p.min.get<std::int64_t>();
  const std::int64_t max = p.max.is_null() ? limits::max() : p.max.get<std::int64_t>();
  const std::int64_t step = p.multiple_of;
  std::string shown = "[" + (p.min.is_null() ? std::string("...") : p.min.dump()) + " - " +
                      (p.max.is_null() ? std::string("...") : p.max.dump()) + "]";
  if (step != 0) shown += ", a multiple of " + std::to_string(step);
  return CLI::Validator(
      [min, max, step, shown](std::string& text) -> std::string {
        std::int64_t value = 0;
        if (!CLI::detail::lexical_cast(text, value)) return "expected an integer, got " + text;
        if (value < min || value > max || (step != 0 && value % step != 0))
          return "expected an integer " + shown + ", got " + text;
        return "";
      },
      shown);
}

}  // namespace

RuleOptions::RuleOptions(CLI::App& command, const std::vector<Parameter>& rules, std::vector<std::string_view> except) {
  for (const Parameter& p : rules) {
    if (std::find(except.begin(), except.end(), p.name) != except.end()) continue;
    auto rule = std::make_unique<Rule>();
    rule->parameter = &p;
    const std::string name = option_name(p.name);
    switch (p.kind) {
      case ParameterKind::integer:
        rule->option = command.add_option(name, rule->integer, help_of(p))->type_name("N")->check(integer_range(p));
        break;
      case ParameterKind::boolean:
        rule->option = command.add_flag(name, rule->boolean, help_of(p) + "; " + name + "=false turns it off");
        break;
      case ParameterKind::one_of:
        rule->option =
            command.add_option(name, rule->choice, help_of(p))->type_name("NAME")->check(CLI::IsMember(p.choices));
        break;
      default:
        continue;  // tables and objects: through a config (--config)
    }
    rules_.push_back(std::move(rule));
  }
}

RuleOptions::~RuleOptions() = default;

json RuleOptions::given() const { return over(json::object()); }

json RuleOptions::over(json rules) const {
  if (!rules.is_object()) rules = json::object();
  for (const auto& rule : rules_) {
    if (rule->option->count() == 0) continue;
    const std::string& key = rule->parameter->name;
    switch (rule->parameter->kind) {
      case ParameterKind::integer:
        rules[key] = rule->integer;
        break;
      case ParameterKind::boolean:
        rules[key] = rule->boolean;
        break;
      default:
        rules[key] = rule->choice;
    }
  }
  return rules;
}

}  // namespace dicesim
