// strategies/: what every game's strategy families share: the family list, a config's "strategies" array read and its
// sweeps expanded. A game's own families live in its folder (sim/games/<game>/).
//
// may include: engine, config
//
// What every game's strategy families share: the table `dicesim list` prints
// and the one-line error for a family the game does not know.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "config/json_input.h"

namespace dicesim {

struct StrategyFamily {
  std::string_view name;
  std::string_view parameters;  // the spec's keys besides "name" and "family", "(none)" if none
  std::string_view description;
  std::string_view short_name = {};  // a command-line abbreviation such as "dv" in "dv(2,2)", if any
};

// Fails at `family_node` ("unknown strategy family ... (known: ...)") unless
// its string names one of `families`.
void require_known_family(const JsonNode& family_node, std::string_view game,
                          const std::vector<StrategyFamily>& families);

// The `dicesim list` lines of `families`, two per family: name (abbreviation)
// and parameters, then the description.
void describe_families(std::ostream& out, const std::vector<StrategyFamily>& families);

}  // namespace dicesim
