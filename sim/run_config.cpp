#include "run_config.h"

#include <filesystem>

#include "dice.h"

namespace dicesim {

RunConfig load_run_config(const std::string& file) { return load_run_config(parse_json_file(file), file); }

RunConfig load_run_config(json document, const std::string& file) {
  RunConfig config;
  config.file = file;
  config.document = std::move(document);
  const JsonNode root(config.document, file);
  root.only_keys({"name", "description", "game", "rules", "seed", "games", "strategies", "contests"});

  config.name = std::filesystem::path(file).stem().string();
  if (const std::optional<JsonNode> name = root.find("name")) {
    config.name = name->string();
    if (config.name.empty() || config.name.find_first_of("/\\") != std::string::npos || config.name[0] == '.')
      name->fail("a name must be a plain file name (no slashes, not starting with a dot)");
  }
  if (const std::optional<JsonNode> description = root.find("description")) description->string();

  const JsonNode game = root.at("game");
  config.entry = find_game(game.string());
  if (!config.entry) {
    std::string known;
    for (const GameEntry& g : games()) known += (known.empty() ? "" : ", ") + std::string(g.name);
    game.fail("unknown game \"" + game.string() + "\" (known: " + known + ")");
  }
  if (const std::optional<JsonNode> seed = root.find("seed")) config.seed = seed->unsigned_integer(0, UINT64_MAX);
  config.games = root.at("games").unsigned_integer(1, kMaxGames);
  config.game = config.entry->load(root);
  config.plan = plan_contests(root, *config.entry, *config.game);
  config.biased_die = dice_biased_for_testing();  // the die the game's samplers were just built with
  return config;
}

RunConfig load_run_config_of_game(json document, const std::string& source, std::string_view game) {
  RunConfig config = load_run_config(std::move(document), source);
  if (config.entry->name != game)
    JsonNode(config.document, source)
        .at("game")
        .fail("solve " + std::string(game) + " needs a " + std::string(game) + " config, not \"" +
              std::string(config.entry->name) + "\"");
  return config;
}

std::vector<Contest> make_contests(const RunConfig& config) {
  std::vector<Contest> contests;
  const std::vector<int> bins = config.game->measure_bins();
  for (const PlannedTable& planned : config.plan.tables) {
    const int seats = static_cast<int>(planned.table.seats.size());
    contests.push_back({stable_hash(planned.key), config.games, TableCounts::size(seats, bins),
                        [game = config.game.get(), table = &planned.table, seats, bins](std::uint64_t n, Rng& rng,
                                                                                        std::int64_t* counters) {
                          game->play(*table, n, rng, TableCounts(counters, seats, bins));
                        }});
  }
  return contests;
}

}  // namespace dicesim
