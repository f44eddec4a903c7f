// 10,000 on the engine as the rest of dicesim sees it: a Game, and what
// `dicesim solve tenk` asks of it (tenk_solve.cpp).
#pragma once

#include <memory>

#include "config/json_input.h"
#include "games/game.h"
#include "games/tenk/tenk.h"
#include "games/tenk/tenk_rules.h"

namespace dicesim::tenk {

class TenkGame : public Game {
 public:
  virtual const Scoring& scoring() const = 0;
  // The compiled policy of a config's strategy.
  virtual const Policy& policy(int strategy) const = 0;
};

// Reads "rules" and "strategies" of a config: GameEntry::load, and the game
// of `solve tenk`.
std::unique_ptr<TenkGame> load_game(const JsonNode& config, const Die& die);

// Adds `dicesim solve tenk` to the solve command (games/tenk/tenk_solve.cpp).
void add_solve_command(CLI::App& solve);

// The game as games() lists it (sim/games/registry.cpp).
GameEntry tenk_entry();

}  // namespace dicesim::tenk
