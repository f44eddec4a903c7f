// Yahtzee on the engine as the rest of dicesim sees it: a Game, the numbers
// `dicesim solve yahtzee --config` asks of it (yahtzee_solve.cpp), its rules
// and its entry in the list of games.
#pragma once

#include <memory>
#include <vector>

#include "config/json_input.h"
#include "config/parameters.h"
#include "games/game.h"
#include "games/yahtzee/yahtzee_rules.h"
#include "games/yahtzee/yahtzee_strategy_turns.h"

namespace dicesim::yahtzee {

class YahtzeeGame : public Game {
 public:
  virtual const Rules& yahtzee_rules() const = 0;
  // The exact final-score distribution of a strategy (worked out once).
  virtual const std::vector<double>& distribution(int strategy) const = 0;
};

// Reads "rules" and "strategies" of a config: GameEntry::load, and the game
// of `solve yahtzee --config`.
std::unique_ptr<YahtzeeGame> load_game(const JsonNode& config, const Die& die);

// The rules a config's "rules" may hold, as data (`dicesim list`, `dicesim
// schema`, the options of `dicesim solve yahtzee`).
const std::vector<Parameter>& rules_parameters();
// A config's "rules", defaults filled in.
Rules read_rules(const JsonNode& config);

// Adds `dicesim solve yahtzee` to the solve command (games/yahtzee/yahtzee_solve.cpp).
void add_solve_command(CLI::App& solve);

// The game as games() lists it (sim/games/registry.cpp).
GameEntry yahtzee_entry();

}  // namespace dicesim::yahtzee
