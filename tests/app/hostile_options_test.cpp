// Hostile options, config numbers and names, and how show prints tables
// without games (issue 27, round two): each refused with one line and exit 2,
// or printed as what it is.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/exit_codes.h"
#include "config/json_input.h"
#include "strategies/sweep.h"
#include "test_util.h"

namespace dicesim {
namespace {

using testing::dicesim;
using testing::TempDir;

const char* kSixers = R"J({
  "game": "sixers", "seed": 3, "games": 2000,
  "strategies": [{"name": "a", "family": "optimal_mean"}, {"name": "b", "family": "dice_value_threshold",
                  "per_roll": [2, 2]}],
  "contests": {"headtohead": true}
})J";

std::size_t line_count(const std::string& text) { return std::size_t(std::count(text.begin(), text.end(), '\n')); }

// Exit 2 and a single short line: no crash, no 300-digit bound.
void expect_refused(const std::string& args) {
  const auto result = dicesim(args);
  EXPECT_EQ(result.exit_code, kExitBadInput) << args << ": " << result.out;
  EXPECT_EQ(line_count(result.out), 1u) << args << ": " << result.out;
  EXPECT_LT(result.out.size(), 200u) << args << ": " << result.out;
}

TEST(HostileOptions, EveryThreadsOptionHasOneCheckedRange) {
  TempDir dir;
  const std::string config = dir.write("c.json", kSixers);
  for (const std::string threads : {"0", "100000", "-2", "nan", "1.5"}) {
    expect_refused("bench --games 1000 --skip-naive --threads " + threads);
    expect_refused("run " + config + " --dry-run --threads " + threads);
    expect_refused("check " + config + " --dry-run --threads " + threads);
  }
  EXPECT_EQ(dicesim("run " + config + " --dry-run --threads 1024").exit_code, kExitOk);
}

TEST(HostileOptions, SecondsAreFiniteAndBounded) {
  TempDir dir;
  const std::string config = dir.write("c.json", kSixers);
  for (const std::string option : {"--progress-every", "--checkpoint-every"})
    for (const std::string value : {"nan", "inf", "-inf", "-1", "1e300", "1e8", "5x"})
      expect_refused("run " + config + " --dry-run " + option + " " + value);
  expect_refused("run " + config + " --dry-run --checkpoint-every 0");
  EXPECT_EQ(dicesim("run " + config + " --dry-run --progress-every 0 --checkpoint-every 0.5").exit_code, kExitOk);
}

TEST(HostileOptions, ADryRunChecksWhatARunChecks) {
  TempDir dir;
  const std::string config = dir.write("c.json", kSixers);
  expect_refused("run " + config + " --dry-run --shard 9/3");
  expect_refused("run " + config + " --dry-run --resume " + dir.file("missing.h5"));
  expect_refused("run " + config + " --dry-run -o " + dir.file("no/such/dir/out.h5"));
  // Nothing created: no results/ directory, no file, no lock.
  EXPECT_EQ(dicesim("run " + config + " --dry-run", dir.file("")).exit_code, kExitOk);
  EXPECT_FALSE(std::filesystem::exists(dir.file("results")));
  EXPECT_EQ(dicesim("run " + config + " --dry-run -o " + dir.file("out.h5")).exit_code, kExitOk);
  EXPECT_FALSE(std::filesystem::exists(dir.file("out.h5")));
  EXPECT_FALSE(std::filesystem::exists(dir.file("out.h5.lock")));
}

TEST(HostileOptions, SolveOptionsAreCheckedBeforeSolving) {
  TempDir dir;
  expect_refused("solve sixers --z-games 0");
  expect_refused("solve sixers --z-games 18446744073709551616");
  expect_refused("solve tenk --policy-csv " + dir.file("p.csv"));
  const auto unwritable = dicesim("solve tenk --win --policy-csv " + dir.file("no/dir/p.csv"));
  EXPECT_EQ(unwritable.exit_code, kExitBadInput) << unwritable.out;
  EXPECT_EQ(unwritable.out.find("Win-optimal"), std::string::npos) << "solved first: " << unwritable.out;
}

TEST(HostileOptions, ShortStrategiesBlameWhatWasWritten) {
  // "2.5" is one value, not 2 then "2.5"; a stray parenthesis is no value.
  const auto fraction = dicesim("solve sixers 'dv(2.5)'");
  EXPECT_EQ(fraction.exit_code, kExitBadInput);
  EXPECT_EQ(fraction.out.find("/per_roll/1"), std::string::npos) << fraction.out;
  const auto parenthesis = dicesim("solve sixers 'dv(2,2))'");
  EXPECT_EQ(parenthesis.exit_code, kExitBadInput);
  EXPECT_EQ(parenthesis.out, "dv(2,2)): expected FAMILY(a,b,...)\n");
  const auto element = dicesim("solve sixers 'dv(2,x)'");
  EXPECT_NE(element.out.find("/per_roll/1: expected an integer from 0 to 6, got \"x\""), std::string::npos)
      << element.out;
}

TEST(HostileConfig, IntegersWrittenAsFloatingPointAreReadExactlyAndEchoedAsWritten) {
  const json document = parse_json_text(
      R"({"a": -1e15, "b": 1000000000000000.0, "c": 2.0, "d": 2.5, "e": 9007199254740993.0, "f": -1e1, "g": 1e16})",
      "n.json");
  const JsonNode root(document, "n.json");
  constexpr std::int64_t kBound = 1'000'000'000'000'000;
  EXPECT_EQ(root.at("a").integer(-kBound, kBound), -kBound);
  EXPECT_EQ(root.at("b").integer(-kBound, kBound), kBound);
  EXPECT_EQ(root.at("b").unsigned_integer(1, kBound), std::uint64_t(kBound));
  EXPECT_EQ(root.at("c").integer(0, 6), 2);
  EXPECT_EQ(root.at("e").integer(0, INT64_MAX), 9007199254740993);
  const auto error_of = [&](const std::string& key) {
    try {
      root.at(key).integer(0, 6);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(error_of("d"), "n.json: /d: expected an integer from 0 to 6, got 2.5");
  EXPECT_EQ(error_of("f"), "n.json: /f: expected an integer from 0 to 6, got -1e1");
  EXPECT_EQ(error_of("b"), "n.json: /b: expected an integer from 0 to 6, got 1000000000000000.0");
  EXPECT_EQ(error_of("g"), "n.json: /g: expected an integer from 0 to 6, got 1e16");
}

TEST(HostileConfig, ARangeAcceptsWhatItsStatedRangeAccepts) {
  const json document = parse_json_text(
      R"({"name": "t{total}", "family": "bank_at", "total": {"from": -1e15, "to": -999999999999998.0}})", "r.json");
  const std::vector<json> specs = expand_strategy_entry(JsonNode(document, "r.json"), kMaxStrategies);
  ASSERT_EQ(specs.size(), 3u);
  EXPECT_EQ(specs[0]["total"], -1'000'000'000'000'000);
}

TEST(HostileConfig, ASweepIsBoundedBeforeItCopiesItsEntry) {
  // 100 KB of entry, 10,000 times: refused before the first copy.
  json entry = {{"family", "bank_at"}, {"total", {{"from", 1}, {"to", 10000}}}, {"note", std::string(100000, 'x')}};
  try {
    expand_strategy_entry(JsonNode(entry, "big.json", "/strategies/0"), kMaxStrategies);
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("big.json: /strategies/0: the sweep copies this"), std::string::npos)
        << e.what();
  }
}

TEST(HostileConfig, ValidateReportsEachErrorOnceAndEveryErrorOfAnEntry) {
  TempDir dir;
  const std::string config = dir.write("v.json", R"J({
    "game": "tenk", "seed": 1, "games": 100,
    "strategies": [
      {"family": "optimal_win", "bogus": [1, 2]},
      {"name": "b{total}", "family": "bank_at", "total": {"from": 300, "to": 400, "step": 50, "bad": 1}},
      {"name": "a/b", "family": "bank_at", "total": "x", "zzz": 1}
    ]})J");
  const auto result = dicesim("validate " + config);
  EXPECT_EQ(result.exit_code, kExitBadInput);
  std::vector<std::string> lines;
  std::istringstream in(result.out);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::vector<std::string> unique = lines;
  std::sort(unique.begin(), unique.end());
  unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
  EXPECT_EQ(unique.size(), lines.size()) << result.out;
  for (const std::string path : {"/strategies/0/bogus", "/strategies/1/total/bad", "/strategies/2/name",
                                 "/strategies/2/total", "/strategies/2/zzz"})
    EXPECT_NE(result.out.find(config + ": " + path + ":"), std::string::npos) << path << "\n" << result.out;
}

TEST(HostileShow, ATableWithoutGamesHasNoEstimate) {
  TempDir dir;
  const std::string config = dir.write("c.json", kSixers);
  // Shard 3/3 of a one-block run plays nothing.
  ASSERT_EQ(dicesim("run " + config + " --shard 3/3 --quiet -o " + dir.file("empty.h5")).exit_code, kExitOk);
  const auto text = dicesim("show " + dir.file("empty.h5"));
  EXPECT_EQ(text.out.find("0.0000"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("a             0           -   -"), std::string::npos) << text.out;

  const json shown = json::parse(dicesim("show --json " + dir.file("empty.h5")).out);
  const json& row = shown.at("tables").at("strategies").at("rows").at(0);
  EXPECT_TRUE(row.at("mean").is_null()) << row;
  EXPECT_TRUE(row.at("sd").is_null()) << row;

  ASSERT_EQ(dicesim("show --csv " + dir.file("csv") + " " + dir.file("empty.h5")).exit_code, kExitOk);
  std::ifstream csv(dir.file("csv/strategies.csv"));
  std::string header, first;
  std::getline(csv, header);
  std::getline(csv, first);
  // sd is a plain number: one column, no half-width.
  EXPECT_EQ(header, "strategy,games,mean,mean_half_width,sd,p_min,p_min_half_width");
  EXPECT_EQ(first, "a,0,,,,,");
}

TEST(HostileShow, PlayedNumbersWithoutAnIntervalHaveNoHalfWidth) {
  TempDir dir;
  const std::string config = dir.write("c.json", kSixers);
  ASSERT_EQ(dicesim("run " + config + " --quiet --precision 0.00001 --games 4000 -o " + dir.file("p.h5")).exit_code,
            kExitOk);
  const auto text = dicesim("show " + dir.file("p.h5"));
  EXPECT_NE(text.out.find("(target 1e-05)"), std::string::npos) << text.out;
  const json shown = json::parse(dicesim("show --json " + dir.file("p.h5")).out);
  EXPECT_TRUE(shown.at("tables").at("strategies").at("rows").at(0).at("sd").is_number());
  // The pair's table reached a half-width (a number, no interval); a strategy's own table has no win rate.
  const json& rows = shown.at("tables").at("precision").at("rows");
  EXPECT_TRUE(rows.front().at("win_rate_half_width").is_null()) << rows;
  EXPECT_TRUE(rows.back().at("win_rate_half_width").is_number()) << rows;
  EXPECT_EQ(shown.at("tables").at("precision").at("targets").at("win_rate_half_width"), 1e-05);
  EXPECT_TRUE(rows.front().at("met").is_boolean()) << rows;
}

}  // namespace
}  // namespace dicesim
