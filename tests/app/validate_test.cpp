// `dicesim validate`: every error of a config, each as run's one line, and
// run still stopping at the first.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "app/exit_codes.h"
#include "test_util.h"

namespace dicesim {
namespace {

using testing::dicesim;
using testing::TempDir;

// Four independent faults: a top-level key, the seed and two strategies.
const char* kFaulty = R"J({
  "game": "sixers", "games": 1000, "seed": -1, "colour": "red",
  "strategies": [
    {"name": "a", "family": "dice_value_threshold", "per_roll": [2, 9]},
    {"name": "b", "family": "optimal_mean"},
    {"name": "c", "family": "dice_value_treshold", "per_roll": [2, 2]}
  ],
  "contests": {"distributions": true}
})J";

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool has_line_with(const std::vector<std::string>& lines, const std::string& part) {
  return std::any_of(lines.begin(), lines.end(),
                     [&](const std::string& l) { return l.find(part) != std::string::npos; });
}

TEST(Validate, ListsEveryIndependentErrorWithItsPath) {
  TempDir dir;
  const std::string config = dir.write("faulty.json", kFaulty);
  const auto result = dicesim("validate " + config);
  EXPECT_EQ(result.exit_code, kExitBadInput);
  const std::vector<std::string> lines = lines_of(result.out);
  ASSERT_EQ(lines.size(), 4u) << result.out;
  for (const std::string& line : lines) EXPECT_EQ(line.rfind(config + ": /", 0), 0u) << line;
  EXPECT_TRUE(has_line_with(lines, ": /colour: unknown key")) << result.out;
  EXPECT_TRUE(has_line_with(lines, ": /seed: expected an integer")) << result.out;
  EXPECT_TRUE(has_line_with(lines, ": /strategies/0/per_roll/1: expected an integer")) << result.out;
  EXPECT_TRUE(has_line_with(lines, ": /strategies/2/family: unknown strategy family")) << result.out;

  // run reports the first of them only, and writes nothing.
  const auto run = dicesim("run " + config + " -o " + dir.file("out.h5"));
  EXPECT_EQ(run.exit_code, kExitBadInput);
  EXPECT_EQ(lines_of(run.out).size(), 1u) << run.out;
  EXPECT_FALSE(std::filesystem::exists(dir.file("out.h5")));
}

TEST(Validate, ContestErrorsAreReportedWhenTheStrategiesAreSound) {
  TempDir dir;
  const std::string config = dir.write("contests.json", R"J({
    "game": "sixers", "games": 1000,
    "strategies": [{"name": "a", "family": "optimal_mean"}, {"name": "b", "family": "target_aware"}],
    "contests": {"distributions": true, "nway": [["a", "x"], ["a"]], "sequential_tables": [["b", "y"]]}
  })J");
  const auto result = dicesim("validate " + config);
  EXPECT_EQ(result.exit_code, kExitBadInput);
  const std::vector<std::string> lines = lines_of(result.out);
  ASSERT_EQ(lines.size(), 3u) << result.out;
  EXPECT_TRUE(has_line_with(lines, "/contests/nway/0/1: unknown strategy or set \"x\"")) << result.out;
  EXPECT_TRUE(has_line_with(lines, "/contests/nway/1: expected at least 2 elements")) << result.out;
  EXPECT_TRUE(has_line_with(lines, "/contests/sequential_tables/0/1: unknown strategy or set \"y\"")) << result.out;
}

TEST(Validate, AValidConfigSaysWhatItWouldPlay) {
  const auto result = dicesim("validate " + testing::source_path("configs/sixers.json") + " " +
                              testing::source_path("configs/pig_precision.json"));
  EXPECT_EQ(result.exit_code, kExitOk) << result.out;
  EXPECT_NE(result.out.find("sixers.json: valid: sixers, 6 strategies, 52 tables, 52,000,000 games"), std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("pig_precision.json: valid: pig, 5 strategies, 20 tables, at most 200,000,000 games"),
            std::string::npos)
      << result.out;
}

TEST(Validate, OneBadConfigAmongGoodOnesFailsTheCommand) {
  TempDir dir;
  const auto result = dicesim("validate " + testing::source_path("configs/sixers.json") + " " +
                              dir.write("broken.json", "{\"game\": \"sixers\",}"));
  EXPECT_EQ(result.exit_code, kExitBadInput);
  EXPECT_NE(result.out.find("broken.json:1:"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("1 of 2 configs have errors"), std::string::npos) << result.out;
}

}  // namespace
}  // namespace dicesim
