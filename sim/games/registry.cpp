// The list of games. Adding a game: one line here and its declaration in
// games/game_entries.h (see sim/README.md).
#include "games/registry.h"

#include "games/game.h"
#include "games/game_entries.h"

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
