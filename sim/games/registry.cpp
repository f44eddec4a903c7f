// The list of games. Adding a game: its folder and one line in
// DICESIM_EVERY_GAME below (see sim/games/README.md, "Adding a game").
#include "games/registry.h"

#include "games/game.h"

// One line per game, in the order `dicesim list` and `dicesim solve --help`
// show them. GAME(g) stands for g::g_entry(), declared in games/<g>/<g>_game.h
// and declared again here, so that the registry needs no include per game.
#define DICESIM_EVERY_GAME(GAME) \
  GAME(sixers)                   \
  GAME(tenk)                     \
  GAME(pig)                      \
  GAME(battle)                   \
  GAME(yahtzee)

#define DICESIM_DECLARE_ENTRY(g) \
  namespace g {                  \
  GameEntry g##_entry();         \
  }
#define DICESIM_LIST_ENTRY(g) g::g##_entry(),

namespace dicesim {

DICESIM_EVERY_GAME(DICESIM_DECLARE_ENTRY)

const std::vector<GameEntry>& games() {
  static const std::vector<GameEntry> all = {DICESIM_EVERY_GAME(DICESIM_LIST_ENTRY)};
  return all;
}

const GameEntry* find_game(std::string_view name) {
  for (const GameEntry& g : games())
    if (g.name == name) return &g;
  return nullptr;
}

}  // namespace dicesim
