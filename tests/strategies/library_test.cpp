// The strategy library (strategies/<game>.json, sim/strategies/library.h):
// every strategy in it plays under its game's default rules, a config uses
// one by name, the results file holds its definition, and a broken library
// or reference is one line naming the file and the JSON path.
#include "strategies/library.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include "app/exit_codes.h"
#include "games/registry.h"
#include "results/h5.h"
#include "test_util.h"

namespace dicesim {
namespace {

using testing::dicesim;
using testing::TempDir;

// `dicesim validate CONFIG` with the library in `folder`.
testing::CommandResult validate_with_library(const std::string& config, const std::string& folder) {
  return testing::run_shell("DICESIM_STRATEGIES=" + folder + " " + DICESIM_BINARY + " validate " + config);
}

std::string library_folder() { return testing::source_path("strategies"); }

// A config of `game` whose strategies `entries` play every ordered pair.
std::string config_of(const std::string& game, const json& entries) {
  return json{{"game", game},
              {"games", 2000},
              {"strategies", entries},
              {"contests", {{"distributions", false}, {"sequential", true}}}}
      .dump();
}

TEST(Library, EveryGameHasOneAndEveryStrategyInItIsValidUnderTheDefaultRules) {
  TempDir dir;  // the library: this checkout's (test_util.h)
  std::ifstream readme_file(library_folder() + "/README.md");
  const std::string readme((std::istreambuf_iterator<char>(readme_file)), std::istreambuf_iterator<char>());
  for (const GameEntry& g : games()) {
    const std::string game(g.name);
    const std::vector<LibraryStrategy> library = library_strategies(game);
    EXPECT_FALSE(library.empty()) << game << ": no strategies/" << game << ".json";
    json entries = json::array();
    for (const LibraryStrategy& s : library) {
      EXPECT_NE(readme.find("| `" + s.name + "` |"), std::string::npos) << s.name << ": not in strategies/README.md";
      EXPECT_FALSE(s.description.empty()) << game << " " << s.name;
      EXPECT_FALSE(s.source.empty()) << game << " " << s.name;
      entries.push_back({{"library", s.name}});
    }
    const std::string config = dir.write(game + ".json", config_of(game, entries));
    const auto result = dicesim("validate " + config);
    EXPECT_EQ(result.exit_code, 0) << game << ": " << result.out;
  }
}

TEST(Library, AConfigUsesAStrategyByNameAndTheResultsHoldItsDefinition) {
  TempDir dir;
  std::filesystem::create_directories(dir.file("written"));
  const std::string config = dir.write(
      "pig.json", config_of("pig", json::array({{{"library", "hold_at_20"}},
                                                {{"library", "hold_at_25"}, {"name", "cautious"}, {"set", "s"}}})));
  const auto run = dicesim("run " + config + " --quiet -o " + dir.file("out.h5"));
  ASSERT_EQ(run.exit_code, 0) << run.out;
  const json stored = json::parse(h5::Reader(dir.file("out.h5")).string_attribute("/", "config"));
  EXPECT_EQ(stored.at("strategies").at(0), (json{{"name", "hold_at_20"}, {"family", "hold_at"}, {"at", 20}}));
  EXPECT_EQ(stored.at("strategies").at(1),
            (json{{"name", "cautious"}, {"family", "hold_at"}, {"at", 25}, {"set", "s"}}));

  // The same run written out in full gives the same results.
  const std::string written = dir.write("written/pig.json", config_of("pig", stored.at("strategies")));
  ASSERT_EQ(dicesim("run " + written + " --quiet -o " + dir.file("written.h5")).exit_code, 0);
  // Everything but the config's path: the stored config, the counts, the provenance.
  testing::ResultsContents referenced = testing::results_contents(dir.file("out.h5"));
  testing::ResultsContents spelled = testing::results_contents(dir.file("written.h5"));
  referenced.erase("/@config_file");
  spelled.erase("/@config_file");
  EXPECT_TRUE(referenced == spelled);
}

TEST(Library, AnUnknownNameOrAnUnknownKeyIsOneLineNamingTheEntry) {
  TempDir dir;
  const std::string typo = dir.write("typo.json", config_of("tenk", json::array({{{"library", "blog_aj"}}})));
  const auto unknown = dicesim("validate " + typo);
  EXPECT_EQ(unknown.exit_code, kExitBadInput);
  EXPECT_EQ(unknown.out.rfind(typo + ": /strategies/0/library: no library strategy \"blog_aj\" for tenk in ", 0), 0u)
      << unknown.out;
  EXPECT_NE(unknown.out.find("did you mean \"blog_ai\""), std::string::npos) << unknown.out;

  const std::string extra =
      dir.write("extra.json", config_of("tenk", json::array({{{"library", "blog_ai"}, {"family", "bank_at"}}})));
  const auto mixed = dicesim("validate " + extra);
  EXPECT_EQ(mixed.exit_code, kExitBadInput);
  EXPECT_NE(mixed.out.find(extra + ": /strategies/0/family: unknown key"), std::string::npos) << mixed.out;

  const std::string path = dir.write("path.json", config_of("tenk", json::array({{{"library", "../tenk"}}})));
  EXPECT_EQ(dicesim("validate " + path).exit_code, kExitBadInput);
}

TEST(Library, ABrokenLibraryIsOneLineNamingItsFileAndPath) {
  TempDir dir;
  std::filesystem::create_directories(dir.file("library"));
  const std::string library = dir.write("library/pig.json", R"({"game": "pig", "description": "d",
    "strategies": {"bold": {"description": "d", "family": "hold_at", "at": 30}}})");
  const std::string config = dir.write("pig.json", config_of("pig", json::array({{{"library", "bold"}}})));
  const auto result = validate_with_library(config, dir.file("library"));
  EXPECT_EQ(result.exit_code, kExitBadInput);
  EXPECT_EQ(result.out, library + ": /strategies/bold: missing key \"source\"\n");

  dir.write("library/pig.json", "{\"game\": \"pig\", ");
  const auto truncated = validate_with_library(config, dir.file("library"));
  EXPECT_EQ(truncated.exit_code, kExitBadInput);
  EXPECT_EQ(truncated.out.rfind(library + ":1:", 0), 0u) << truncated.out;  // line and column
  EXPECT_EQ(std::count(truncated.out.begin(), truncated.out.end(), '\n'), 1) << truncated.out;

  const auto none = validate_with_library(config, dir.file("nowhere"));
  EXPECT_EQ(none.exit_code, kExitBadInput);
  EXPECT_NE(none.out.find(config + ": /strategies/0/library: no strategy library for pig"), std::string::npos)
      << none.out;
}

}  // namespace
}  // namespace dicesim
