// strategies/: what every game's strategy families share: the family list, a config's "strategies" array read and its
// sweeps expanded. A game's own families live in its folder (sim/games/<game>/).
//
// may include: engine, config
//
// What every game's strategy families share: their parameters as data (the
// keys a strategy may hold, read, listed and put in configs/schema.json from
// one declaration), the table `dicesim list` prints and the one-line error
// for a family the game does not know.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "config/json_input.h"
#include "config/parameters.h"

namespace dicesim {

struct StrategyFamily {
  std::string_view name;
  std::vector<Parameter> parameters;  // the spec's keys besides "name" and "family"
  std::string_view description;
  std::string_view short_name = {};  // a command-line abbreviation such as "dv" in "dv(2,2)", if any

  // The spec's keys: "name", "family", then the parameters', for only_keys.
  std::vector<std::string_view> keys() const { return keys_of(parameters, {"name", "family"}); }
  // `dicesim list`: "at: 2..200; ..." or "(none)".
  std::string parameters_text() const;
};

// The family `family_node`'s string names; fails there ("unknown strategy
// family ... (known: ...)") unless it is one of `families`.
const StrategyFamily& known_family(const JsonNode& family_node, std::string_view game,
                                   const std::vector<StrategyFamily>& families);

// The `dicesim list` lines of `families`, two per family: name (abbreviation)
// and parameters, then the description.
void describe_families(std::ostream& out, const std::vector<StrategyFamily>& families);
// A game's `dicesim list` section for its rules (each optional) and families.
void describe_rules_and_families(std::ostream& out, const std::vector<Parameter>& rules,
                                 const std::vector<StrategyFamily>& families);

// The JSON Schema of a "strategies" array of these families: per family its
// parameters, with "name" and "set" (strategies/sweep.h).
ordered_json strategies_schema(const std::vector<StrategyFamily>& families);

}  // namespace dicesim
