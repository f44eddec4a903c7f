// configs/schema.json, printed by `dicesim schema` from the declarations the
// readers use (config/parameters.h): the top level (run_config.cpp), the
// contests (contest_plan.cpp), the sweeps (strategies/sweep.cpp) and, from
// the registry, each game's rules, strategy families and measures.
#pragma once

#include "config/parameters.h"

namespace dicesim {

// The JSON Schema (draft 2020-12) of a config, one branch per game.
ordered_json config_schema();

}  // namespace dicesim
