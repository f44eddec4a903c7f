// Dice Battle on the engine as the rest of dicesim sees it: its rules and its
// entry in the list of games. `dicesim solve battle` needs no config, so it
// asks the solver (battle_exact.h) directly.
#pragma once

#include <vector>

#include "config/json_input.h"
#include "config/parameters.h"
#include "games/battle/battle.h"
#include "games/game.h"

namespace dicesim::battle {

// The rules a config's "rules" may hold, as data (`dicesim list`, `dicesim
// schema`, the options of `dicesim solve battle`).
const std::vector<Parameter>& rules_parameters();
// A config's "rules", defaults filled in.
Rules read_rules(const JsonNode& config);

// Adds `dicesim solve battle` to the solve command (games/battle/battle_solve.cpp).
void add_solve_command(CLI::App& solve);

// The game as games() lists it (sim/games/registry.cpp).
GameEntry battle_entry();

}  // namespace dicesim::battle
