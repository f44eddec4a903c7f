// The list of games. Adding a game: its header and one line in games() here
// (see sim/README.md, "Adding a game").
#include "games/registry.h"

#include "games/battle/battle_game.h"
#include "games/game.h"
#include "games/pig/pig_game.h"
#include "games/sixers/sixers_game.h"
#include "games/tenk/tenk_game.h"

namespace dicesim {

const std::vector<GameEntry>& games() {
  static const std::vector<GameEntry> all = {
      sixers::sixers_entry(),
      tenk::tenk_entry(),
      pig::pig_entry(),
      battle::battle_entry(),
  };
  return all;
}

const GameEntry* find_game(std::string_view name) {
  for (const GameEntry& g : games())
    if (g.name == name) return &g;
  return nullptr;
}

}  // namespace dicesim
