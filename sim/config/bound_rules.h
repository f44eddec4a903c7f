// A game's rules declared with the members they set: one line per key holds
// its name, range and description (a Parameter) and the member of the game's
// Rules it sets, whose own initial value is the default. The reader, `dicesim
// list`, the schema and `dicesim solve`'s options all take the key from that
// one line, so no reader spells a key again beside its declaration.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/json_input.h"
#include "config/parameters.h"

namespace dicesim {

template <class Rules>
struct BoundRule {
  Parameter parameter;
  std::function<void(const Parameter&, const JsonNode&, Rules&)> read;  // the value at the node into Rules
  std::function<json(const Parameter&, const Rules&)> value;            // Rules' value, as a config writes it
};

// An integer rule: the value, within the parameter's range, is the member's.
template <class Rules>
BoundRule<Rules> integer_rule(Parameter parameter, int Rules::*member) {
  parameter.with_default(Rules{}.*member);
  return {std::move(parameter),
          [member](const Parameter& p, const JsonNode& value, Rules& rules) {
            rules.*member = static_cast<int>(p.read_integer(value));
          },
          [member](const Parameter&, const Rules& rules) { return json(rules.*member); }};
}

// A boolean rule: true or false, the member's.
template <class Rules>
BoundRule<Rules> boolean_rule(Parameter parameter, bool Rules::*member) {
  parameter.with_default(Rules{}.*member);
  return {std::move(parameter),
          [member](const Parameter&, const JsonNode& value, Rules& rules) { rules.*member = value.boolean(); },
          [member](const Parameter&, const Rules& rules) { return json(rules.*member); }};
}

// A choice rule whose choices are an enum's values, in the enum's order.
template <class Rules, class Enum>
BoundRule<Rules> choice_rule(Parameter parameter, Enum Rules::*member) {
  parameter.with_default(parameter.choices.at(static_cast<std::size_t>(Rules{}.*member)));
  return {std::move(parameter),
          [member](const Parameter& p, const JsonNode& value, Rules& rules) {
            const std::string choice = p.read_choice(value);
            rules.*member =
                static_cast<Enum>(std::find(p.choices.begin(), p.choices.end(), choice) - p.choices.begin());
          },
          [member](const Parameter& p, const Rules& rules) {
            return json(p.choices.at(static_cast<std::size_t>(rules.*member)));
          }};
}

// The declarations alone: GameEntry::rules_parameters.
template <class Rules>
std::vector<Parameter> parameters_of(const std::vector<BoundRule<Rules>>& rules) {
  std::vector<Parameter> parameters;
  for (const BoundRule<Rules>& rule : rules) parameters.push_back(rule.parameter);
  return parameters;
}

// A config's "rules": its keys among the declared, each read into its member;
// a key not given keeps its default.
template <class Rules>
Rules read_bound_rules(const JsonNode& config, const std::vector<BoundRule<Rules>>& declared) {
  Rules rules;
  const std::optional<JsonNode> node = config.find("rules");
  if (!node) return rules;
  std::vector<std::string_view> keys;
  for (const BoundRule<Rules>& rule : declared) keys.push_back(rule.parameter.name);
  node->only_keys(keys);
  for (const BoundRule<Rules>& rule : declared)
    if (const std::optional<JsonNode> value = node->find(rule.parameter.name)) rule.read(rule.parameter, *value, rules);
  return rules;
}

// The rules in force as a config's "rules" object, every key given
// (Game::rules()).
template <class Rules>
json bound_rules_json(const Rules& rules, const std::vector<BoundRule<Rules>>& declared) {
  json out = json::object();
  for (const BoundRule<Rules>& rule : declared) out[rule.parameter.name] = rule.value(rule.parameter, rules);
  return out;
}

}  // namespace dicesim
