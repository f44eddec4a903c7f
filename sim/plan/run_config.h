// A run config: the game, its rules and strategies, the seed, the number of
// games and the contests. configs/README.md documents every key.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "config/json_input.h"
#include "config/parameters.h"
#include "engine/engine.h"
#include "games/game.h"
#include "plan/contest_plan.h"
#include "plan/precision.h"

namespace dicesim {

// Counters are int64: 10^15 games leave a wide margin below 2^63 even for
// counters that grow by several per game.
constexpr std::uint64_t kMaxGames = 1'000'000'000'000'000ULL;

struct RunConfig {
  std::string file;
  json document;
  std::string name;  // results/<name>.h5 by default
  std::uint64_t seed = 1;
  std::uint64_t games = 0;                   // per table; with a precision target, the most a table plays
  std::optional<PrecisionTarget> precision;  // play each table until it is met (sim/precision.h)
  const GameEntry* entry = nullptr;
  std::unique_ptr<Game> game;
  ContestPlan plan;
  bool biased_die = false;  // played with the loaded test die (--test-biased-die); never mixed with fair counts
};

// The top-level keys of a config, in the order errors list them.
const std::vector<Parameter>& config_parameters();

RunConfig load_run_config(const std::string& file);
// The same from a JSON document; source names it in error messages.
RunConfig load_run_config(json document, const std::string& source);

// Read access to planned table t's counters in an engine output.
TableCountsView table_counts(const RunConfig& config, const EngineOutput& output, int t);
// `dicesim solve <game> --config`: the same loading as `run` (so a solve
// refuses whatever run refuses, with the same message), and a config of
// another game is refused at /game.
RunConfig load_run_config_of_game(json document, const std::string& source, std::string_view game);

// The engine's view of a config: one contest per planned table.
std::vector<Contest> make_contests(const RunConfig& config);

// Whether table t's counters meet the config's precision target.
PreciseEnough precise_enough(const RunConfig& config);
// Whether every table played what the run asks: all its games, or with a
// precision target, its cap or a stage where it met the target.
bool run_complete(const RunConfig& config, const EngineOutput& output);

}  // namespace dicesim
