// Pig on the engine as the rest of dicesim sees it: a Game, and the numbers
// `dicesim solve pig --config` asks of it (sim/app/solve_pig.cpp).
#pragma once

#include <memory>

#include "config/json_input.h"
#include "games/game.h"

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

// The game as games() lists it (sim/games/registry.cpp).
GameEntry pig_entry();

}  // namespace dicesim::pig
