#include "strategies/family.h"

#include <algorithm>
#include <iomanip>
#include <ostream>

#include "config/suggest.h"
#include "config/terminal_text.h"
#include "strategies/sweep.h"

namespace dicesim {

std::string StrategyFamily::parameters_text() const {
  std::string text;
  for (const Parameter& p : parameters) {
    text += (text.empty() ? "" : "; ") + p.name + ": " + p.range_text();
    if (p.default_value) text += ", default " + default_text(p);
  }
  return text.empty() ? "(none)" : text;
}

const StrategyFamily& known_family(const JsonNode& family_node, std::string_view game,
                                   const std::vector<StrategyFamily>& families) {
  const std::string family = family_node.string();
  const auto found =
      std::find_if(families.begin(), families.end(), [&](const StrategyFamily& f) { return f.name == family; });
  if (found != families.end()) return *found;
  std::string known;
  std::vector<std::string_view> names;
  for (const StrategyFamily& f : families) {
    known += (known.empty() ? "" : ", ") + std::string(f.name);
    names.push_back(f.name);
    if (!f.short_name.empty()) names.push_back(f.short_name);
  }
  family_node.fail("unknown strategy family " + quoted_text(family) + " for " + std::string(game) +
                   " (known: " + known + ")" + did_you_mean(family, names));
}

void describe_families(std::ostream& out, const std::vector<StrategyFamily>& families) {
  for (const StrategyFamily& f : families) {
    std::string heading(f.name);
    if (!f.short_name.empty()) heading += " (" + std::string(f.short_name) + ")";
    out << "    " << std::left << std::setw(28) << heading << f.parameters_text() << "\n"
        << "    " << std::setw(28) << "" << f.description << "\n";
  }
}

void describe_rules_and_families(std::ostream& out, const std::vector<Parameter>& rules,
                                 const std::vector<StrategyFamily>& families) {
  out << "  rules (all optional):\n";
  describe_parameters(out, rules);
  out << "  strategy families:\n";
  describe_families(out, families);
}

ordered_json strategies_schema(const std::vector<StrategyFamily>& families) {
  ordered_json names = ordered_json::array();
  ordered_json branches = ordered_json::array();
  for (const StrategyFamily& f : families) {
    names.push_back(f.name);
    std::vector<Parameter> keys = {
        named(strategy_entry_parameters(), "name"),
        shaped_parameter("family", {{"const", f.name}}, std::string(f.description)).as_required()};
    for (Parameter p : f.parameters) {
      // Every integer of a strategy may be swept, and so may each element of a per_ array.
      if (p.kind == ParameterKind::integer || p.kind == ParameterKind::integer_array) p.swept();
      keys.push_back(std::move(p));
    }
    keys.push_back(named(strategy_entry_parameters(), "set"));
    branches.push_back({{"if", {{"properties", {{"family", {{"const", f.name}}}}}, {"required", {"family"}}}},
                        {"then", object_schema(keys)}});
  }
  const std::vector<Parameter> reference = {
      shaped_parameter("library", {{"type", "string"}, {"pattern", "^[a-z0-9_]{1,64}$"}},
                       "a strategy of the library (strategies/<game>.json, dicesim list)")
          .as_required(),
      named(strategy_entry_parameters(), "name"), named(strategy_entry_parameters(), "set")};
  return {{"type", "array"},
          {"minItems", 1},
          {"description",
           "the strategies; each an object with a name, a family and the family's parameters, or a library strategy"},
          {"items",
           {{"anyOf",
             {object_schema(reference),
              {{"type", "object"},
               {"required", {"family"}},
               {"properties", {{"family", {{"enum", names}, {"description", "the strategy family (dicesim list)"}}}}},
               {"allOf", branches}}}}}}};
}

}  // namespace dicesim
