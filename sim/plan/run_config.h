// plan/: a config loaded for its game, its contests planned into tables within the game's limits, and precision
// targets.
//
// may include: engine, math, config, strategies, games
//
// A run config: the game, its rules and strategies, the seed, the number of
// games and the contests. configs/README.md documents the keys every game shares, each game's README its own.
#pragma once

#include <cstdint>
#include <functional>
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

// The games of all tables together: the engine and its progress count them
// in 64 bits, signed where they are stored.
constexpr std::uint64_t kMaxTotalGames = std::uint64_t(INT64_MAX);
// Why `tables` tables of `games` games each are too many in all (nullopt if
// they are not), naming the total.
std::optional<std::string> too_many_games(std::uint64_t tables, std::uint64_t games);

struct RunConfig {
  std::string file;
  json document;
  std::string name;  // results/<name>.h5 by default
  std::uint64_t seed = 1;
  std::uint64_t games = 0;                   // per table; with a precision target, the most a table plays
  std::optional<PrecisionTarget> precision;  // play each table until it is met (plan/precision.h)
  const GameEntry* entry = nullptr;
  std::unique_ptr<Game> game;
  ContestPlan plan;
  bool biased_die = false;  // played with the loaded test die (--test-biased-die); never mixed with fair counts
};

// The top-level keys of a config, in the order errors list them.
const std::vector<Parameter>& config_parameters();

RunConfig load_run_config(const std::string& file);
// The same from a JSON document; source names it in error messages. With
// biased_die the game's samplers throw the loaded test die
// (--test-biased-die), which RunConfig::biased_die records.
RunConfig load_run_config(json document, const std::string& source, bool biased_die = false);

// Read access to planned table t's counters in an engine output.
TableCountsView table_counts(const RunConfig& config, const EngineOutput& output, int t);
// A config's game, read from the config's root.
using GameLoader = std::function<std::unique_ptr<Game>(const JsonNode& config, const Die& die)>;
// `dicesim solve <game> --config`: the same loading as `run` (so a solve
// refuses whatever run refuses, with the same message), and a config of
// another game is refused at /game. Solves throw the fair die. The game is read by load_game if given,
// else by its GameEntry::load.
RunConfig load_run_config_of_game(json document, const std::string& source, std::string_view game,
                                  const GameLoader& load_game = {});

// A config loaded as above, its game read by the game's own typed loader
// (sim/games/<game>/<game>_game.h): a solve command asks it for the game's
// numbers through that type, never by casting a Game down.
template <class G>
struct RunConfigOf {
  RunConfig config;         // owns the game
  const G* game = nullptr;  // config.game, as the loader typed it
};
template <class G>
RunConfigOf<G> load_run_config_of_game(json document, const std::string& source, std::string_view game,
                                       std::unique_ptr<G> (*load_game)(const JsonNode& config, const Die& die)) {
  RunConfigOf<G> loaded;
  loaded.config = load_run_config_of_game(std::move(document), source, game,
                                          [&](const JsonNode& config, const Die& die) -> std::unique_ptr<Game> {
                                            std::unique_ptr<G> typed = load_game(config, die);
                                            loaded.game = typed.get();
                                            return typed;
                                          });
  return loaded;
}

// The engine's view of a config: one contest per planned table.
std::vector<TableRun> make_table_runs(const RunConfig& config);
// The config's tables played on the GPU (Game::device_play; a contest's
// device_table is its planned table), their samplers copied there;
// InputError where the game has none. A GPU must be present.
DevicePlay device_play(const RunConfig& config);

// Whether table t's counters meet the config's precision target.
PreciseEnough precise_enough(const RunConfig& config);
// Whether every table played what the run asks: all its games, or with a
// precision target, its cap or a stage where it met the target.
bool run_complete(const RunConfig& config, const EngineOutput& output);

}  // namespace dicesim
