// The strategy library: named, documented strategy definitions in the
// top-level strategies/ folder, one file per game (strategies/<game>.json),
// that any config uses by name: {"library": "blog_ai"} in its "strategies".
// The library is read when a config is: the definitions replace the
// references in the config's document, so a results file holds the whole
// definition and a resume compares it, whatever the library holds later.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "config/json_input.h"

namespace dicesim {

// Where the library is: $DICESIM_STRATEGIES; else strategies/ beside the
// program's folder (a build tree: build/dicesim and strategies/); else the
// installed share/dicesim/strategies.
std::string strategy_library_folder();

// One game's library file: <folder>/<game>.json.
std::string strategy_library_file(std::string_view game);

// Replaces each entry of `strategies` (a config's array, `node` naming it)
// that is {"library": NAME, "name"?: ..., "set"?: ...} by NAME's definition
// in the game's library, named by the entry's "name", else NAME. An error
// names the config's entry, or the library file and the JSON path in it.
void resolve_library_strategies(const JsonNode& node, json& strategies, std::string_view game);

struct LibraryStrategy {
  std::string name, description, source;
  json definition;  // "family" and its parameters
};
// The game's library, as the file holds it; empty where the game has none.
std::vector<LibraryStrategy> library_strategies(std::string_view game);

}  // namespace dicesim
