// Every game dicesim knows, by name (sim/games/registry.cpp).
#pragma once

#include <string_view>
#include <vector>

#include "games/game.h"

namespace dicesim {

const std::vector<GameEntry>& games();
const GameEntry* find_game(std::string_view name);

}  // namespace dicesim
