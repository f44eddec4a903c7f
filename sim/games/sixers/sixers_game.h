// Sixers on the engine as the rest of dicesim sees it: a Game, and what
// `dicesim solve sixers` asks of it (sixers_solve.cpp).
#pragma once

#include <memory>
#include <vector>

#include "config/json_input.h"
#include "config/parameters.h"
#include "games/game.h"
#include "games/sixers/sixers.h"
#include "games/sixers/sixers_strategies.h"

namespace dicesim::sixers {

class SixersGame : public Game {
 public:
  virtual const Hands& hands() const = 0;
  // The compiled policy of a config's strategy.
  virtual const Policy& policy(int strategy) const = 0;
  // optimal_win's policies per number of seats after it, solved on first use.
  virtual Solutions& solutions() const = 0;
};

// Reads "rules" and "strategies" of a config: GameEntry::load, and the game
// of `solve sixers`.
std::unique_ptr<SixersGame> load_game(const JsonNode& config, const Die& die);

// The rules a config's "rules" may hold, as data (`dicesim list`, `dicesim
// schema`, the options of `dicesim solve sixers`).
const std::vector<Parameter>& rules_parameters();
// A config's "rules", defaults filled in.
Rules read_rules(const JsonNode& config);

// Adds `dicesim solve sixers` to the solve command (games/sixers/sixers_solve.cpp).
void add_solve_command(CLI::App& solve);

// The game as games() lists it (sim/games/registry.cpp).
GameEntry sixers_entry();

}  // namespace dicesim::sixers
