// Pig on the engine as the rest of dicesim sees it: a Game, and the numbers
// `dicesim solve pig --config` asks of it (pig_solve.cpp).
#pragma once

#include <memory>
#include <vector>

#include "config/json_input.h"
#include "config/parameters.h"
#include "games/game.h"
#include "games/pig/pig.h"

namespace dicesim::pig {

class PigGame : public Game {
 public:
  // P(first wins, playing first against second), without the turns played;
  // NaN where either plays only at a larger table (optimal_win with "seats").
  virtual double win_probability(int first, int second) const = 0;
};

// Reads "rules" and "strategies" of a config: GameEntry::load, and the game
// of `solve pig --config`.
std::unique_ptr<PigGame> load_game(const JsonNode& config, const Die& die);

// The rules a config's "rules" may hold, as data (`dicesim list`, `dicesim
// schema`, the options of `dicesim solve pig`).
const std::vector<Parameter>& rules_parameters();
// A config's "rules", defaults filled in.
Rules read_rules(const JsonNode& config);

// Adds `dicesim solve pig` to the solve command (games/pig/pig_solve.cpp).
void add_solve_command(CLI::App& solve);

// The game as games() lists it (sim/games/registry.cpp).
GameEntry pig_entry();

}  // namespace dicesim::pig
