// Dice Battle on the engine as the rest of dicesim sees it: its entry in the
// list of games. `dicesim solve battle` needs no config, so it asks the
// solver (battle_exact.h) directly.
#pragma once

#include "games/game.h"

namespace dicesim::battle {

// The game as games() lists it (sim/games/registry.cpp).
GameEntry battle_entry();

}  // namespace dicesim::battle
