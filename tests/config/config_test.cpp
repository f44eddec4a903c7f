// Bad input: every error is one line naming the file and the JSON path.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "games/registry.h"
#include "plan/run_config.h"
#include "test_util.h"

namespace dicesim {
namespace {

const char* kBase = R"J({
  "game": "sixers",
  "rules": {"dice": 6, "rolls": 3, "zero_face": 3},
  "seed": 1,
  "games": 1000,
  "strategies": [
    {"name": "dv(2,2)", "family": "dice_value_threshold", "per_roll": [2, 2]},
    {"name": "dn(3,2)", "family": "dice_number_kept", "per_roll": [3, 2]},
    {"name": "ts(5,5)", "family": "turn_score_threshold", "per_roll": [5, 5]},
    {"name": "best", "family": "optimal_mean"}
  ],
  "contests": {"distributions": true, "headtohead": true, "nway": [["dv(2,2)", "ts(5,5)", "best"]]}
})J";

struct BadCase {
  const char* pointer;  // where to change the base config
  const char* value;    // the new value, as JSON; "DELETE" removes the key
  const char* message;  // the whole expected error
};

const BadCase kCases[] = {
    {"/strategies/2/per_roll/0", R"J("two")J",
     R"J(bad.json: /strategies/2/per_roll/0: expected an integer from 0 to 36, got "two")J"},
    {"/strategies/0/per_roll/1", "7", "bad.json: /strategies/0/per_roll/1: expected an integer from 0 to 6, got 7"},
    {"/strategies/1/per_roll/0", "0", "bad.json: /strategies/1/per_roll/0: expected an integer from 1 to 6, got 0"},
    {"/strategies/0/per_roll", "[2]",
     "bad.json: /strategies/0/per_roll: expected 2 values (one per roll but the last), got 1"},
    {"/strategies/0/per_roll", "DELETE", R"J(bad.json: /strategies/0: missing key "per_roll")J"},
    {"/strategies/3/family", R"J("optimal_maen")J",
     R"J(bad.json: /strategies/3/family: unknown strategy family "optimal_maen" for sixers (known: dice_value_threshold, dice_number_kept, turn_score_threshold, optimal_mean, target_aware, optimal_win); did you mean "optimal_mean"?)J"},
    {"/strategies/3/per_roll", "[1, 1]",
     "bad.json: /strategies/3/per_roll: unknown key (expected one of: name, family)"},
    {"/strategies/1/name", R"J("dv(2,2)")J", R"J(bad.json: /strategies/1/name: duplicate strategy name "dv(2,2)")J"},
    {"/strategies/1/name", R"J("a/b")J",
     R"J(bad.json: /strategies/1/name: a strategy name must be non-empty, not ".", and contain no "/" or control characters)J"},
    {"/strategies/1/name", R"J("a\u0000b")J",
     R"J(bad.json: /strategies/1/name: a strategy name must be non-empty, not ".", and contain no "/" or control characters)J"},
    {"/strategies", "[]", "bad.json: /strategies: expected at least 1 element"},
    {"/game", "DELETE", R"J(bad.json: /: missing key "game")J"},
    {"/games", "0", "bad.json: /games: expected an integer from 1 to 1000000000000000, got 0"},
    {"/games", "-5", "bad.json: /games: expected an integer from 1 to 1000000000000000, got -5"},
    {"/games", "1e16", "bad.json: /games: expected an integer from 1 to 1000000000000000, got 1e+16"},
    {"/seed", "-1", "bad.json: /seed: expected an integer from 0 to 18446744073709551615, got -1"},
    {"/gmaes", "5",
     "bad.json: /gmaes: unknown key (expected one of: $schema, name, description, game, rules, seed, games, "
     "precision, strategies, contests); did you mean \"games\"?"},
    {"/rules/dice", "13", "bad.json: /rules/dice: expected an integer from 1 to 12, got 13"},
    {"/rules/rolls", "21", "bad.json: /rules/rolls: expected an integer from 1 to 20, got 21"},
    {"/rules/zero_face", "7", "bad.json: /rules/zero_face: expected an integer from 0 to 6, got 7"},
    {"/rules/face", "3", "bad.json: /rules/face: unknown key (expected one of: dice, rolls, zero_face)"},
    {"/contests/headtohed", "true",
     "bad.json: /contests/headtohed: unknown key (expected one of: distributions, headtohead, sequential, against, "
     "nway, "
     "sequential_tables); did you mean \"headtohead\"?"},
    {"/contests/headtohead", "1", "bad.json: /contests/headtohead: expected true or false, got 1"},
    {"/contests/nway/0/2", R"J("worst")J",
     R"J(bad.json: /contests/nway/0/2: unknown strategy or set "worst" (not in /strategies))J"},
    {"/contests/nway/0", R"J(["best"])J", "bad.json: /contests/nway/0: expected at least 2 elements"},
    {"/contests", R"J({"distributions": false})J",
     "bad.json: /contests: no contest to play (enable distributions, headtohead, ... )"},
    {"/name", R"J("../x")J",
     "bad.json: /name: a name must be a plain file name (no slashes or control characters, not starting with a dot)"},
};

TEST(ConfigErrors, EachNamesTheFileAndTheJsonPath) {
  for (const BadCase& c : kCases) {
    json config = json::parse(kBase);
    const json::json_pointer pointer(c.pointer);
    if (std::string(c.value) == "DELETE")
      config.at(pointer.parent_pointer()).erase(pointer.back());
    else
      config[pointer] = json::parse(c.value);
    try {
      load_run_config(config, "bad.json");
      ADD_FAILURE() << c.pointer << " = " << c.value << ": accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), c.message) << c.pointer << " = " << c.value;
    }
  }
}

// The known games are listed from the registry: a new game changes no test.
TEST(ConfigErrors, AnUnknownGameListsTheKnownOnes) {
  json config = json::parse(kBase);
  config["game"] = "monopoly";
  std::string known;
  for (const GameEntry& g : games()) known += (known.empty() ? "" : ", ") + std::string(g.name);
  try {
    load_run_config(config, "bad.json");
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "bad.json: /game: unknown game \"monopoly\" (known: " + known + ")");
  }
}

TEST(ConfigErrors, TheBaseConfigIsValid) { EXPECT_NO_THROW(load_run_config(json::parse(kBase), "good.json")); }

TEST(ConfigErrors, MalformedJsonGivesLineAndColumn) {
  try {
    parse_json_text("{\n  \"game\": \"sixers\",\n  \"seed\": ,\n}", "broken.json");
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("broken.json:3:11: malformed JSON: syntax error", 0), 0u) << e.what();
  }
}

TEST(ConfigErrors, DeepNestingIsRefusedButBracketsInStringsAreNot) {
  const std::string deep = std::string(300, '[') + std::string(300, ']');
  EXPECT_THROW(parse_json_text(deep, "deep.json"), InputError);
  // An escaped quote does not end a string: the brackets after it are text.
  const std::string in_string = R"J({"x": "\")J" + std::string(1000, '[') + R"J("})J";
  EXPECT_NO_THROW(parse_json_text(in_string, "strings.json"));
}

// tests/bad_configs: each NAME.json with NAME.expected beside it, the whole
// one-line error, FILE standing for the config's path.
TEST(ConfigErrors, TheBadConfigCorpus) {
  int cases = 0;
  for (const auto& entry : std::filesystem::directory_iterator(testing::source_path("tests/bad_configs"))) {
    if (entry.path().extension() != ".json") continue;
    ++cases;
    std::filesystem::path expected_path = entry.path();
    expected_path.replace_extension(".expected");
    std::ifstream in(expected_path);
    std::string expected;
    ASSERT_TRUE(std::getline(in, expected)) << expected_path;
    expected.replace(expected.find("FILE"), 4, entry.path().string());
    try {
      load_run_config(entry.path().string());
      ADD_FAILURE() << entry.path() << ": accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), expected) << entry.path();
    }
  }
  EXPECT_GE(cases, 20);
}

TEST(ConfigErrors, AMissingFileIsReported) { EXPECT_THROW(load_run_config("/nonexistent/dicesim.json"), InputError); }

TEST(Config, GamesAcceptsScientificNotationAndNameDefaultsToTheFileStem) {
  json config = json::parse(kBase);
  config["games"] = "@@";
  std::string text = config.dump();
  text.replace(text.find("\"@@\""), 4, "1e9");  // as written in a file
  const RunConfig loaded = load_run_config(parse_json_text(text, "configs/my_run.json"), "configs/my_run.json");
  EXPECT_EQ(loaded.games, 1'000'000'000u);
  EXPECT_EQ(loaded.name, "my_run");
}

TEST(Config, ContestsBecomeTablesOncePerKey) {
  const RunConfig config = load_run_config(json::parse(kBase), "good.json");
  // 4 distributions, 6 pairs, 1 three-way table.
  EXPECT_EQ(config.plan.tables.size(), 4u + 6u + 1u);
  EXPECT_EQ(config.plan.tables[pair_table(config.plan.headtohead, 0, 2)].key, R"J(independent["dv(2,2)","ts(5,5)"])J");
  EXPECT_EQ(pair_table(config.plan.headtohead, 2, 0), -1);  // pairs are unordered: first < second
  ASSERT_EQ(config.plan.headtohead.size(), 6u);
  EXPECT_TRUE(std::is_sorted(config.plan.headtohead.begin(), config.plan.headtohead.end()));
}

TEST(Config, NamesThatLookLikeKeysNeverShareATable) {
  json config = json::parse(kBase);
  config["strategies"] = json::parse(R"J([{"name": "a", "family": "optimal_mean"},
    {"name": "b", "family": "optimal_mean"}, {"name": "a|b", "family": "optimal_mean"},
    {"name": "a\",\"b", "family": "optimal_mean"}])J");
  config["contests"] = {{"headtohead", true}};
  const RunConfig loaded = load_run_config(config, "names.json");
  std::set<std::string> keys;
  for (const PlannedTable& t : loaded.plan.tables) keys.insert(t.key);
  EXPECT_EQ(keys.size(), 4u + 6u);
  EXPECT_EQ(loaded.plan.tables.size(), 4u + 6u);
}

// Thousands of strategies with distributions only: the plan holds no
// strategy x strategy matrix, and the results file no dataset of that size
// (it used to grow as S^2 in memory and time).
TEST(Config, ThousandsOfStrategiesWithoutPairsStayLinear) {
  constexpr std::size_t kStrategies = 3000;
  json config = json::parse(kBase);
  config["strategies"] = json::array();
  for (std::size_t i = 0; i < kStrategies; ++i)
    config["strategies"].push_back({{"name", std::string("s").append(std::to_string(i))},
                                    {"family", "turn_score_threshold"},
                                    {"per_roll", {i % 37, i / 37 % 37}}});
  config["contests"] = {{"distributions", true}};
  config["games"] = 20u;
  const RunConfig loaded = load_run_config(config, "many.json");
  EXPECT_EQ(loaded.plan.tables.size(), kStrategies);
  EXPECT_TRUE(loaded.plan.headtohead.empty());
  EXPECT_TRUE(loaded.plan.sequential.empty());

  testing::TempDir dir;
  const std::string path = dir.write("many.json", config.dump());
  const auto run = testing::dicesim("run " + path + " --quiet -o " + dir.file("many.h5"));
  ASSERT_EQ(run.exit_code, 0) << run.out;
  hsize_t largest = 0;
  const hid_t file = H5Fopen(dir.file("many.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  H5Ovisit(
      file, H5_INDEX_NAME, H5_ITER_NATIVE,
      [](hid_t object, const char* name, const H5O_info_t* info, void* data) -> herr_t {
        if (info->type != H5O_TYPE_DATASET) return 0;
        const hid_t set = H5Dopen(object, name, H5P_DEFAULT);
        const hid_t space = H5Dget_space(set);
        auto& most = *static_cast<hsize_t*>(data);
        most = std::max<hsize_t>(most, H5Sget_simple_extent_npoints(space));
        H5Sclose(space);
        H5Dclose(set);
        return 0;
      },
      &largest);
  H5Fclose(file);
  EXPECT_GT(largest, 0u);
  EXPECT_LT(largest, kStrategies * kStrategies);
}

TEST(Config, MoreRollsThanDiceAreAllowed) {
  json config = json::parse(kBase);
  config["rules"] = {{"dice", 1}};
  config["strategies"] = json::parse(R"J([{"name": "dv", "family": "dice_value_threshold", "per_roll": [2, 2]}])J");
  config["contests"] = {{"distributions", true}};
  EXPECT_NO_THROW(load_run_config(config, "one_die.json"));
}

}  // namespace
}  // namespace dicesim
