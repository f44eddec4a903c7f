#include "plan/run_config.h"

#include <filesystem>

#include "config/suggest.h"
#include "config/terminal_text.h"
#include "engine/dice.h"
#include "games/registry.h"
#include "strategies/library.h"

namespace dicesim {

RunConfig load_run_config(const std::string& file) { return load_run_config(parse_json_file(file), file); }

namespace {

const GameEntry& read_game(const JsonNode& game) {
  if (const GameEntry* entry = find_game(game.string())) return *entry;
  std::string known;
  std::vector<std::string_view> names;
  for (const GameEntry& g : games()) {
    known += (known.empty() ? "" : ", ") + std::string(g.name);
    names.push_back(g.name);
  }
  game.fail("unknown game " + quoted_text(game.string()) + " (known: " + known + ")" +
            did_you_mean(game.string(), names));
}

}  // namespace

std::optional<std::string> too_many_games(std::uint64_t tables, std::uint64_t games) {
  unsigned __int128 total = static_cast<unsigned __int128>(tables) * games;
  if (total <= kMaxTotalGames) return std::nullopt;
  std::string digits;
  for (; total > 0; total /= 10) digits.insert(digits.begin(), char('0' + int(total % 10)));
  return std::to_string(tables) + " tables of " + std::to_string(games) + " games make " + digits +
         " games in all, more than 2^63 - 1 (the most a run counts)";
}

const std::vector<Parameter>& config_parameters() {
  static const std::vector<Parameter> all = [] {
    std::vector<std::string> names;
    for (const GameEntry& g : games()) names.emplace_back(g.name);
    return std::vector<Parameter>{
        // "$schema" points editors at configs/schema.json; the program ignores it.
        string_parameter("$schema", "the schema editors check this file against"),
        string_parameter("name", "results go to results/<name>.h5 (default: the file's stem)")
            .with_schema({{"minLength", 1}, {"pattern", "^[^./\\\\][^/\\\\]*$"}}),
        string_parameter("description", "free text, kept in the results file"),
        choice_parameter("game", names, "the game (dicesim list)").as_required(),
        shaped_parameter("rules", {{"type", "object"}}, "the game's rules; a missing key takes its default"),
        integer_parameter("seed", 0, UINT64_MAX, "the seed of every random stream").with_default(RunConfig{}.seed),
        integer_parameter("games", 1, kMaxGames,
                          "games per table (with precision: the most a table plays); 1e6 is accepted")
            .as_required(),
        precision_parameter(),
        shaped_parameter("strategies", {{"type", "array"}, {"minItems", 1}}, "").as_required(),
        object_parameter("contests", contest_parameters(), "what to play (default: distributions)"),
    };
  }();
  return all;
}

namespace {

// load_run_config, the game read by load_game if given, else by its entry.
RunConfig read_run_config(json document, const std::string& file, bool biased_die, const GameLoader& load_game) {
  RunConfig config;
  config.file = file;
  config.biased_die = biased_die;
  config.document = std::move(document);
  const JsonNode root(config.document, file);
  const std::vector<Parameter>& keys = config_parameters();
  root.only_keys(keys_of(keys));

  // The results file's name: the config's "name", else its file's stem;
  // either passes the one rule for file names made from data
  // (file_name_problem) where it names a file: run's default output.
  config.name = std::filesystem::path(file).stem().string();
  independently([&] {
    if (const std::optional<JsonNode> name = root.find("name")) {
      config.name = name->string();
      // The names files of format 3 hold stay readable; the full rule for
      // file names applies where the name makes one (run's default output).
      if (config.name.empty() || config.name.find_first_of("/\\") != std::string::npos || config.name[0] == '.' ||
          has_control_character(config.name))
        name->fail("a name must be a plain file name (no slashes or control characters, not starting with a dot)");
    }
  });
  independently([&] {
    if (const std::optional<JsonNode> schema = root.find("$schema")) schema->string();
  });
  independently([&] {
    if (const std::optional<JsonNode> description = root.find("description")) description->string();
  });
  independently([&] { config.entry = &read_game(root.at("game")); });
  independently([&] {
    if (const std::optional<JsonNode> seed = root.find("seed")) config.seed = named(keys, "seed").read_unsigned(*seed);
  });
  independently([&] { config.games = named(keys, "games").read_unsigned(root.at("games")); });

  // The rest depends on the game and its rules: an error there ends the reading.
  if (!config.entry) return config;  // only when validating: the error is recorded
  const std::size_t errors_before_strategies = errors_so_far();
  // Library strategies become their definitions before anything reads them.
  if (const std::optional<JsonNode> strategies = root.find("strategies"))
    resolve_library_strategies(*strategies, config.document["strategies"], config.entry->name);
  const Die& die = biased_die ? loaded_die() : fair_die();
  config.game = load_game ? load_game(root, die) : config.entry->load(root, die);
  independently([&] {
    if (const std::optional<JsonNode> precision = root.find("precision"))
      config.precision = read_precision_target(*precision, config.game->measures());
  });
  // Contests name strategies: with a strategy in error they are not checked.
  if (errors_since(errors_before_strategies)) return config;
  config.plan = plan_contests(root, *config.entry, *config.game);
  independently([&] {
    if (const std::optional<std::string> why = too_many_games(config.plan.tables.size(), config.games))
      root.at("games").fail(*why);
  });
  return config;
}

}  // namespace

RunConfig load_run_config(json document, const std::string& file, bool biased_die) {
  return read_run_config(std::move(document), file, biased_die, {});
}

RunConfig load_run_config_of_game(json document, const std::string& source, std::string_view game,
                                  const GameLoader& load_game) {
  // Another game's config is refused before it is loaded, with the command
  // that solves it.
  if (const std::optional<JsonNode> node = JsonNode(document, source).find("game");
      node && node->value().is_string() && node->string() != game) {
    const std::string other = node->string();
    node->fail(find_game(other) ? "this is a " + other + " config; use solve " + other
                                : "not a " + std::string(game) + " config");
  }
  return read_run_config(std::move(document), source, false, load_game);
}

TableCountsView table_counts(const RunConfig& config, const EngineOutput& output, int t) {
  return {output.counters[t].data(), static_cast<int>(config.plan.tables[t].table.seats.size()),
          config.game->measure_bins()};
}

std::vector<TableRun> make_table_runs(const RunConfig& config) {
  std::vector<TableRun> contests;
  const std::vector<int> bins = config.game->measure_bins();
  for (const PlannedTable& planned : config.plan.tables) {
    const int seats = static_cast<int>(planned.table.seats.size());
    contests.push_back({stable_hash(planned.key), config.games, TableCounts::size(seats, bins),
                        [game = config.game.get(), table = &planned.table, seats, bins](std::uint64_t n, Rng& rng,
                                                                                        std::int64_t* counters) {
                          game->play(*table, n, rng, TableCounts(counters, seats, bins));
                        }});
    contests.back().device_table = static_cast<std::uint32_t>(contests.size() - 1);
  }
  return contests;
}

DevicePlay device_play(const RunConfig& config) {
  std::vector<const Table*> tables;
  for (const PlannedTable& planned : config.plan.tables) tables.push_back(&planned.table);
  DevicePlay play = config.game->device_play(tables);
  if (!play)
    throw InputError("--device gpu: " + std::string(config.entry->title) +
                     " has no GPU play yet (Sixers has); play it on the CPU (--device cpu, the default)");
  return play;
}

PreciseEnough precise_enough(const RunConfig& config) {
  return [&config](std::size_t t, const std::vector<std::int64_t>& counters) {
    const TableCountsView counts(counters.data(), static_cast<int>(config.plan.tables[t].table.seats.size()),
                                 config.game->measure_bins());
    return meets(*config.precision, half_widths(counts, config.game->measures()));
  };
}

bool run_complete(const RunConfig& config, const EngineOutput& output) {
  if (!config.precision) return output.complete();
  const std::vector<TableRun> contests = make_table_runs(config);
  const std::vector<std::uint64_t> played = blocks_played(contests, output, config.file);
  const PreciseEnough precise = precise_enough(config);
  for (std::size_t t = 0; t < contests.size(); ++t) {
    const std::uint64_t cap = block_count(contests[t].games);
    if (played[t] != cap && !(at_stage_boundary(played[t], cap) && precise(t, output.counters[t]))) return false;
  }
  return true;
}

}  // namespace dicesim
