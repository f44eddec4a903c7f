// games/: what a game provides (this header) and the list of games (registry.h); each game in its own folder
// games/<game>/ (rules, exact solver, strategy families, the Game it gives the engine), which includes no other game.
//
// may include: engine, math, config, strategies
//
// What the engine needs from a game, and nothing more: how to play a block
// of games at a table, and (where the game allows) the exact odds.
// Adding a game: see sim/games/README.md.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "config/json_input.h"
#include "config/parameters.h"
#include "engine/dice.h"
#include "engine/gpu.h"
#include "engine/rng.h"
#include "engine/table.h"
#include "strategies/family.h"
#include "strategies/read_strategies.h"

namespace CLI {
class App;
}

namespace dicesim {

// A quantity the game records as a histogram per seat: bin i counts the
// value min + i * step. measures()[0] is the score that decides games
// (named "score"); others might be the game's length or single-turn scores.
struct Measure {
  std::string name;         // HDF5 name: lower-case letters and '_'
  std::string description;  // e.g. "final score of the turn (lowest wins)"
  std::string units;        // e.g. "points", "turns"
  int min = 0;
  int step = 1;
  int bins = 1;  // a game clamps values beyond the last bin into it, and says so in the description

  int value(int bin) const { return min + bin * step; }
};

class Game {
 public:
  virtual ~Game() = default;
  virtual json rules() const = 0;                     // the rules in force, defaults filled in
  virtual std::vector<Measure> measures() const = 0;  // 1..kMaxMeasures of them
  // Plays `games` games at the table, adding to counts. Called once per block
  // of games, so a game keeps its inner loop free of virtual calls.
  virtual void play(const Table& table, std::uint64_t games, Rng& rng, TableCounts counts) const = 0;
  // Exact odds of a table, as far as the game has a solver for them.
  virtual std::optional<TableOdds> exact(const Table& table) const = 0;
  // How the GPU engine plays a run's tables (engine/gpu.h; a batch's table
  // is its index in `tables`): the same blocks as play(), from the same
  // code, on a GPU. Empty where the game has no GPU play (or the build no
  // GPU engine); a call copies the tables' samplers to the GPU, so make it
  // only where a GPU is present.
  virtual DevicePlay device_play(const std::vector<const Table*>& /*tables*/) const { return {}; }
  // The most seats at a table where this strategy can play (10,000's
  // optimal_win is solved for two); plan_contests refuses larger tables.
  virtual int most_seats(int /*strategy*/) const { return kMaxSeats; }
  // The fewest seats at a table where this strategy can play (Pig's
  // optimal_win with "seats" plays only at a table of that many).
  virtual int fewest_seats(int /*strategy*/) const { return 1; }
  // Head starts (Table::head_start) a seat may get, in points: a multiple
  // of head_start_step() up to most_head_start(). 0: the game has none
  // (plan_contests refuses them); a race to a goal allows up to goal - 1.
  virtual int most_head_start() const { return 0; }
  virtual int head_start_step() const { return 1; }

  const std::vector<Strategy>& strategies() const { return strategies_; }
  // The bins of each measure: the shape of a table's counters.
  std::vector<int> measure_bins() const {
    std::vector<int> bins;
    for (const Measure& m : measures()) bins.push_back(m.bins);
    return bins;
  }

 protected:
  std::vector<Strategy> strategies_;
};

// The tables a game can seat, as data: plan_contests (plan/contest_plan.cpp)
// refuses any other with a one-line error, and `dicesim list` describes them.
struct TableLimits {
  int min_seats = 1;  // 1: a strategy may play alone (distributions)
  int max_seats = kMaxSeats;
  // Blind tables (headtohead, nway: no seat sees another's play). With
  // blind_rule set they are allowed only while that rule is in force at
  // blind_rule_value (the rules as Game::rules() gives them).
  bool blind = true;
  std::string_view blind_rule, blind_rule_value;
  std::string_view why_not_blind;  // e.g. "Pig is played in turns"; the error goes on to name the alternative

  // Whether blind tables are allowed under these rules.
  bool blind_allowed(const json& rules) const {
    if (!blind) return false;
    if (blind_rule.empty()) return true;
    const auto rule = rules.find(std::string(blind_rule));
    return rule != rules.end() && rule->is_string() && rule->get<std::string>() == blind_rule_value;
  }
};

// A reference config that `dicesim bench` times (app/bench.cpp); its
// counters go into the bench signature, so changing one changes every
// published figure. `games_divisor`: the case plays --games / games_divisor
// games (a throw-by-throw case would otherwise take minutes).
struct BenchCase {
  std::string_view label;
  std::string_view config;
  std::uint64_t games_divisor = 1;
};

struct GameEntry {
  std::string_view name;         // in configs and on the command line: "tenk"
  std::string_view title;        // in messages: "10,000"
  std::string_view description;  // `dicesim list`
  TableLimits tables;
  // Whether the lowest score wins (Sixers): then P(the least score) is a
  // figure of the summary; in a race to a goal it means nothing.
  bool lowest_score_wins = false;
  // Reads "rules" and "strategies" of a config (the rest is the engine's).
  // The game's samplers throw `die` (the fair die, or the loaded test die of
  // --test-biased-die); its exact odds stay the fair die's.
  std::unique_ptr<Game> (*load)(const JsonNode& config, const Die& die);
  // The format of what load reads, as data (`dicesim list`, `dicesim schema`):
  const std::vector<Parameter>& (*rules_parameters)();  // the keys of "rules"
  const std::vector<StrategyFamily>& (*families)();     // the strategy families
  // The names of Game::measures(), the same under any rules: the keys of
  // "precision" besides "rate".
  std::vector<std::string_view> measures;
  // `dicesim list`: rules with their defaults, strategy families.
  void (*describe)(std::ostream& out);
  // Adds `dicesim solve <name>` (games/<name>/<name>_solve.cpp), whose rule
  // options come from rules_parameters (app/rule_options.h).
  void (*add_solve_command)(CLI::App& solve);
  // `dicesim bench`'s cases of this game, in the order it times them.
  std::vector<BenchCase> bench_cases;
};

}  // namespace dicesim
