// Sweeps (strategies/sweep.h): an entry with lists or ranges of parameter values
// expands into one strategy per combination, named from its template, and
// every expansion error is a one-line error at the entry's JSON path.
#include "strategies/sweep.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "app/exit_codes.h"
#include "plan/run_config.h"
#include "results/h5.h"
#include "test_util.h"

namespace dicesim {
namespace {

std::vector<json> expand(const std::string& entry_text, std::size_t most = kMaxStrategies) {
  const json entry = json::parse(entry_text);
  return expand_strategy_entry(JsonNode(entry, "c.json", "/strategies/3"), most);
}

std::string error_of(const std::string& entry_text, std::size_t most = kMaxStrategies) {
  try {
    expand(entry_text, most);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::vector<std::string> names_of(const std::vector<json>& specs) {
  std::vector<std::string> names;
  for (const json& s : specs) names.push_back(s.at("name").get<std::string>());
  return names;
}

TEST(Sweep, AnEntryWithoutASweepIsLeftAsItIs) {
  const std::vector<json> specs = expand(R"({"name": "dv", "family": "dice_value_threshold", "per_roll": [2, 2]})");
  ASSERT_EQ(specs.size(), 1u);
  EXPECT_EQ(specs[0], json::parse(R"({"name": "dv", "family": "dice_value_threshold", "per_roll": [2, 2]})"));
}

TEST(Sweep, AListAndARangeExpandIntoEveryCombinationNamedFromTheTemplate) {
  const std::vector<json> specs = expand(R"({"name": "bank{total}", "family": "bank_at", "total": [300, 500]})");
  EXPECT_EQ(names_of(specs), (std::vector<std::string>{"bank300", "bank500"}));
  EXPECT_EQ(specs[1].at("total"), 500);

  const std::vector<json> grid = expand(
      R"({"name": "dv{per_roll[0]}_{per_roll[1]}", "family": "dice_value_threshold",
          "per_roll": [{"from": 1, "to": 3}, [2, 4]]})");
  EXPECT_EQ(names_of(grid), (std::vector<std::string>{"dv1_2", "dv1_4", "dv2_2", "dv2_4", "dv3_2", "dv3_4"}));
  EXPECT_EQ(grid[3].at("per_roll"), json::parse("[2, 4]"));
}

TEST(Sweep, ARangeStopsAtItsEndAndMayStepDown) {
  EXPECT_EQ(names_of(expand(R"({"name": "h{at}", "family": "hold_at", "at": {"from": 10, "to": 25, "step": 5}})")),
            (std::vector<std::string>{"h10", "h15", "h20", "h25"}));
  EXPECT_EQ(names_of(expand(R"({"name": "h{at}", "family": "hold_at", "at": {"from": 10, "to": 21, "step": 5}})")),
            (std::vector<std::string>{"h10", "h15", "h20"}));
  EXPECT_EQ(names_of(expand(R"({"name": "h{at}", "family": "hold_at", "at": {"from": 9, "to": 5, "step": -2}})")),
            (std::vector<std::string>{"h9", "h7", "h5"}));
}

TEST(Sweep, WithoutANameTheFamilyAndValuesNameEachStrategy) {
  EXPECT_EQ(names_of(expand(R"({"family": "dice_number_kept", "per_roll": [[3, 4], 2]})")),
            (std::vector<std::string>{"dice_number_kept(per_roll=[3,2])", "dice_number_kept(per_roll=[4,2])"}));
}

TEST(Sweep, ExpansionErrorsNameTheJsonPath) {
  EXPECT_EQ(error_of(R"({"name": "h{at}", "family": "hold_at", "at": []})"),
            "c.json: /strategies/3/at: an empty list of values: a sweep needs at least one");
  EXPECT_EQ(error_of(R"({"name": "h{at}", "family": "hold_at", "at": {"from": 5, "to": 4}})"),
            "c.json: /strategies/3/at: an empty range: from 5 to 4 in steps of 1");
  EXPECT_EQ(error_of(R"({"name": "h{at}", "family": "hold_at", "at": {"from": 5, "to": 9, "step": 0}})"),
            "c.json: /strategies/3/at/step: a step of 0 never reaches \"to\"");
  EXPECT_EQ(error_of(R"({"name": "h{at}", "family": "hold_at", "at": {"from": 5, "to": 9, "by": 2}})"),
            "c.json: /strategies/3/at/by: unknown key (expected one of: from, to, step)");
  EXPECT_EQ(error_of(R"({"name": "h{at}", "family": "hold_at", "at": [10, "x"]})"),
            "c.json: /strategies/3/at/1: expected a number (a list sweeps its values), got \"x\"");
  EXPECT_EQ(error_of(R"({"name": "hold", "family": "hold_at", "at": [10, 20]})"),
            "c.json: /strategies/3/name: a sweep's name needs {at} (each swept parameter), or no name at all");
  EXPECT_EQ(error_of(R"({"name": "h{a}", "family": "hold_at", "at": [10, 20]})"),
            "c.json: /strategies/3/name: unknown placeholder {a} (the swept parameters: at); did you mean \"at\"?");
  EXPECT_EQ(error_of(R"({"name": "d{per_roll[0]}{per_roll[1]}", "family": "dice_value_threshold",
                         "per_roll": [{"from": 0, "to": 6}, {"from": 0, "to": 6}]})",
                     40),
            "c.json: /strategies/3: the sweep makes more than 40 strategies (a config holds at most 10000)");
}

// Through a whole run: each swept value is checked by the family like a
// written one (at the swept key's path), and the file has the parameters as
// columns.
TEST(Sweep, ARunChecksEveryCombinationAndRecordsTheParameters) {
  testing::TempDir dir;
  const std::string bad = dir.write("bad.json", R"({"game": "pig", "games": 100, "strategies": [
      {"name": "h{at}", "family": "hold_at", "at": {"from": 80, "to": 120, "step": 20}}],
      "contests": {"distributions": true}})");
  const auto refused = testing::dicesim("run " + bad + " -o " + dir.file("bad.h5"));
  EXPECT_EQ(refused.exit_code, kExitBadInput);
  EXPECT_NE(refused.out.find("bad.json: /strategies/0/at: hold_at 120 is never reached"), std::string::npos)
      << refused.out;
  EXPECT_FALSE(std::filesystem::exists(dir.file("bad.h5")));

  const std::string good = dir.write("good.json", R"({"game": "sixers", "games": 100, "strategies": [
      {"name": "dv{per_roll[0]}", "family": "dice_value_threshold", "per_roll": [[1, 2, 3], 2]},
      {"name": "best", "family": "optimal_mean"}],
      "contests": {"distributions": true}})");
  const std::string out = dir.file("good.h5");
  const auto run = testing::dicesim("run " + good + " -o " + out + " --quiet");
  ASSERT_EQ(run.exit_code, 0) << run.out;
  const h5::Reader file(out);
  EXPECT_EQ(file.strings("/strategies/names", h5::kAnyShape), (std::vector<std::string>{"dv1", "dv2", "dv3", "best"}));
  EXPECT_EQ(file.strings("/strategies/family", h5::kAnyShape),
            (std::vector<std::string>{"dice_value_threshold", "dice_value_threshold", "dice_value_threshold",
                                      "optimal_mean"}));
  const std::vector<double> first = file.doubles("/strategies/parameters/per_roll_0", h5::kAnyShape);
  ASSERT_EQ(first.size(), 4u);
  EXPECT_EQ(first[0], 1);
  EXPECT_EQ(first[2], 3);
  EXPECT_TRUE(std::isnan(first[3]));
}

TEST(Sweep, ADryRunListsTheExpandedStrategiesAndTablesAndPlaysNothing) {
  testing::TempDir dir;
  const std::string config = dir.write("sweep.json", R"({"game": "pig", "games": 1000, "strategies": [
      {"name": "hold{at}", "family": "hold_at", "at": {"from": 16, "to": 28, "step": 4}},
      {"name": "optimal", "family": "optimal_win"}], "contests": {"distributions": false, "sequential": true}})");
  const auto result = testing::dicesim("run " + config + " --dry-run -o " + dir.file("out.h5"));
  ASSERT_EQ(result.exit_code, 0) << result.out;
  EXPECT_NE(result.out.find("5 strategies:"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("hold28"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("{\"at\":24}"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("20 tables:"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("sequential[\"hold16\",\"optimal\"]"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("20,000 games in all"), std::string::npos) << result.out;
  EXPECT_FALSE(std::filesystem::exists(dir.file("out.h5")));
}

// Contests over sets: a sweep's name template (or "set") names its strategies.
RunConfig load(const std::string& contests, const std::string& game = "pig") {
  const std::string strategies =
      game == "pig" ? R"([{"name": "h{at}", "family": "hold_at", "at": [15, 20, 25]},
                         {"name": "twenty", "family": "hold_at", "at": 20},
                         {"name": "best", "family": "optimal_win", "set": "exact"}])"
                    : R"([{"name": "dv{per_roll[0]}", "family": "dice_value_threshold", "per_roll": [[1, 2, 3], 2]},
                         {"name": "best", "family": "optimal_mean"},
                         {"name": "aware", "family": "target_aware"}])";
  return load_run_config(json::parse(R"({"game": ")" + game + R"(", "games": 100, "strategies": )" + strategies +
                                     R"(, "contests": )" + contests + "}"),
                         "c.json");
}

std::set<std::string> keys_of(const RunConfig& config) {
  std::set<std::string> keys;
  for (const PlannedTable& t : config.plan.tables) keys.insert(t.key);
  return keys;
}

TEST(Sets, ARectangleOfATurnGamePlaysEveryPlayerAgainstEveryOpponentInBothSeats) {
  const RunConfig config =
      load(R"({"distributions": false, "against": {"players": ["h{at}"], "opponents": ["twenty", "exact"]}})");
  const std::set<std::string> keys = keys_of(config);
  EXPECT_EQ(keys.size(), 12u);  // 3 players x 2 opponents x 2 seatings
  EXPECT_TRUE(keys.count(R"(sequential["h15","best"])") && keys.count(R"(sequential["best","h15"])"));
  EXPECT_FALSE(keys.count(R"(sequential["h15","h20"])"));  // players do not meet each other
  EXPECT_TRUE(config.plan.headtohead.empty());
}

TEST(Sets, ABlindRectanglePlaysEachPairOnceAndASequentialOneBothSeatings) {
  const RunConfig config = load(R"({"distributions": false, "against": [
      {"players": ["dv{per_roll[0]}"], "opponents": ["best"], "sequential": false},
      {"players": ["dv{per_roll[0]}"], "opponents": ["aware"]}]})",
                                "sixers");
  const std::set<std::string> keys = keys_of(config);
  EXPECT_EQ(keys.size(), 3u + 6u);
  EXPECT_TRUE(keys.count(R"(independent["dv1","best"])"));
  EXPECT_TRUE(keys.count(R"(sequential["aware","dv3"])"));
}

TEST(Sets, RoundRobinsAndGroupsAcceptSets) {
  const RunConfig pairs = load(R"({"distributions": false, "sequential": ["h{at}", "exact"]})");
  EXPECT_EQ(keys_of(pairs).size(), 4u * 3u);
  const RunConfig groups = load(R"({"distributions": false, "sequential_tables": [["h{at}", "twenty"]]})");
  EXPECT_EQ(keys_of(groups), (std::set<std::string>{R"(sequential["h15","twenty"])", R"(sequential["h20","twenty"])",
                                                    R"(sequential["h25","twenty"])"}));
  // h{at} in both seats: the 3 x 3 seatings but the 3 that repeat a strategy.
  const RunConfig twice = load(R"({"distributions": false, "sequential_tables": [["h{at}", "h{at}"]]})");
  EXPECT_EQ(keys_of(twice).size(), 6u);
}

TEST(Sets, AnUnknownNameSuggestsASetOrStrategy) {
  try {
    load(R"({"distributions": false, "against": {"players": ["h{a}"], "opponents": ["twenty"]}})");
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "c.json: /contests/against/players/0: unknown strategy or set \"h{a}\" (not in /strategies); did you "
              "mean \"h{at}\"?");
  }
}

// A few pairs among many strategies, or a rectangle, cost a matrix over the
// strategies that play in them only.
TEST(Sets, APairSectionHoldsThePairsPlayedAndNothingElse) {
  testing::TempDir dir;
  const std::string config = dir.write("rect.json", R"({"game": "pig", "games": 200, "strategies": [
      {"name": "h{at}", "family": "hold_at", "at": {"from": 10, "to": 30}},
      {"name": "twenty", "family": "hold_at", "at": 20}, {"name": "best", "family": "optimal_win"}],
      "contests": {"distributions": false, "against": {"players": ["h{at}"], "opponents": ["twenty", "best"]}}})");
  const std::string out = dir.file("rect.h5");
  ASSERT_EQ(testing::dicesim("check " + config + " -o " + out + " --quiet").exit_code, 0);
  const h5::Reader file(out);
  h5::Dims dims;
  const std::vector<std::int64_t> games = file.int64s("/sequential/games", h5::kAnyShape, &dims);
  EXPECT_EQ(dims, (h5::Dims{21 * 2 * 2}));  // 21 players against 2 opponents, in both seats
  EXPECT_EQ(std::count(games.begin(), games.end(), 200), 21 * 2 * 2);
  file.doubles("/exact/sequential/win", h5::kAnyShape, &dims);
  EXPECT_EQ(dims, (h5::Dims{21 * 2 * 2}));
  file.int64s("/sequential/score/counts", h5::kAnyShape, &dims);
  EXPECT_EQ(dims.size(), 3u);
  EXPECT_EQ(dims[0], 21u * 2 * 2);
  const std::vector<std::string> first = file.strings("/sequential/strategy", h5::kAnyShape),
                                 second = file.strings("/sequential/opponent", h5::kAnyShape);
  std::set<std::pair<std::string, std::string>> pairs;
  for (std::size_t k = 0; k < first.size(); ++k) pairs.insert({first[k], second[k]});
  EXPECT_EQ(pairs.size(), first.size());  // each once
  EXPECT_TRUE(pairs.count({"h10", "twenty"}) && pairs.count({"twenty", "h10"}) && pairs.count({"best", "h30"}));
  EXPECT_FALSE(pairs.count({"h10", "h11"}));  // players do not meet each other
  EXPECT_EQ(std::make_pair(first.front(), second.front()), std::make_pair(std::string("h10"), std::string("twenty")));

  const std::string few = dir.write("few.json", R"({"game": "sixers", "games": 100, "strategies": [
      {"name": "dv{per_roll[0]}_{per_roll[1]}", "family": "dice_value_threshold",
       "per_roll": [{"from": 0, "to": 6}, {"from": 0, "to": 6}]}],
      "contests": {"distributions": true, "headtohead": ["dv1_2", "dv2_2"]}})");
  ASSERT_EQ(testing::dicesim("run " + few + " -o " + dir.file("few.h5") + " --quiet").exit_code, 0);
  h5::Reader(dir.file("few.h5")).int64s("/headtohead/score/counts", h5::kAnyShape, &dims);
  EXPECT_EQ(dims, (h5::Dims{1, 2, 37}));  // one pair of 49 strategies
}

TEST(Sets, APairThatTwoContestsAskForIsPlayedOnce) {
  const RunConfig config = load_run_config(json::parse(R"({"game": "pig", "games": 100, "strategies": [
      {"name": "h{at}", "family": "hold_at", "at": [15, 20, 25]}, {"name": "best", "family": "optimal_win"}],
      "contests": {"distributions": false, "sequential": true,
                   "against": {"players": ["h{at}"], "opponents": ["best"]}}})"),
                                           "both.json");
  EXPECT_EQ(config.plan.sequential.size(), 4u * 3);  // the round robin's, the rectangle's within it
  EXPECT_EQ(config.plan.tables.size(), 4u * 3);
  EXPECT_TRUE(std::is_sorted(config.plan.sequential.begin(), config.plan.sequential.end()));
  EXPECT_GE(pair_table(config.plan.sequential, 3, 0), 0);
  EXPECT_EQ(pair_table(config.plan.sequential, 0, 0), -1);
}

}  // namespace
}  // namespace dicesim
