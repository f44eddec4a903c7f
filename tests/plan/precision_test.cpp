// Precision targets (plan/precision.h): tables play in stages of 1, 2, 4, ...
// blocks until their 95% half-widths meet the target or the cap, and the
// results stay those of (config, seed, precision) whatever the threads,
// ranks, shards or interruptions.
#include "plan/precision.h"

#include <gtest/gtest.h>

#include <bit>
#include <filesystem>
#include <set>

#include "app/exit_codes.h"
#include "engine/cluster.h"
#include "math/stats.h"
#include "plan/run_config.h"
#include "results/h5.h"
#include "results/results_file.h"
#include "test_util.h"

namespace dicesim {
namespace {

using testing::dicesim;
using testing::same_results;
using testing::TempDir;

// Tables whose win rates need different numbers of games: a lopsided pair
// meets the rate target sooner than an even one, and the mean score's target
// makes the one-seat tables play on too. The cap (40 blocks) is not a power
// of two, so some table may stop there.
const char* kConfig = R"J({
  "game": "sixers", "seed": 11, "games": 400000,
  "precision": {"rate": 0.0035, "score": 0.016},
  "strategies": [
    {"name": "dv(2,2)", "family": "dice_value_threshold", "per_roll": [2, 2]},
    {"name": "dv(4,4)", "family": "dice_value_threshold", "per_roll": [4, 4]},
    {"name": "aware", "family": "target_aware"}
  ],
  "contests": {"distributions": true, "sequential": true}
})J";

TEST(Precision, StagesEndAtPowersOfTwoOfBlocksAndTheCap) {
  EXPECT_EQ(next_stage_blocks(0, 10), 1u);
  EXPECT_EQ(next_stage_blocks(1, 10), 2u);
  EXPECT_EQ(next_stage_blocks(2, 10), 4u);
  EXPECT_EQ(next_stage_blocks(3, 10), 4u);  // an interrupted stage goes on to its end
  EXPECT_EQ(next_stage_blocks(8, 10), 10u);
  EXPECT_TRUE(at_stage_boundary(4, 10));
  EXPECT_FALSE(at_stage_boundary(6, 10));
  EXPECT_TRUE(at_stage_boundary(10, 10));
  EXPECT_FALSE(at_stage_boundary(0, 10));
}

// A rate of 0 or 1 in a handful of games must not count as precise.
TEST(Precision, ARateSeenInFewGamesIsNeverPrecise) {
  EXPECT_GT(stats::adjusted_rate_half_width(0, 1), 0.3);
  EXPECT_GT(stats::adjusted_rate_half_width(5, 5), 0.1);
  EXPECT_NEAR(stats::adjusted_rate_half_width(500000, 1000000), stats::rate_half_width(500000, 1000000), 1e-6);
}

class PrecisionRun : public ::testing::Test {
 protected:
  void SetUp() override {
    config = dir.write("precision.json", kConfig);
    reference = dir.file("reference.h5");
    const auto run = dicesim("run " + config + " -o " + reference + " --threads 1 --quiet");
    ASSERT_EQ(run.exit_code, 0) << run.out;
  }
  TempDir dir;
  std::string config, reference;
};

TEST_F(PrecisionRun, EveryTableStopsWhereItMeetsTheTargetOrAtTheCap) {
  const h5::Reader file(reference);
  const std::vector<std::int64_t> games = file.int64s("/precision/games", h5::kAnyShape);
  const std::vector<std::int64_t> met = file.int64s("/precision/met", h5::kAnyShape);
  const std::int64_t cap = 400000;
  std::set<std::int64_t> stages;
  for (std::size_t t = 0; t < games.size(); ++t) {
    const bool whole_stage =
        games[t] % std::int64_t(kBlockGames) == 0 && std::has_single_bit(std::uint64_t(games[t]) / kBlockGames);
    EXPECT_TRUE(games[t] == cap || whole_stage) << t << ": " << games[t];
    EXPECT_TRUE(met[t] == 1 || games[t] == cap) << t;
    stages.insert(games[t]);
  }
  EXPECT_GE(stages.size(), 2u) << "the config should make tables stop at different stages";
  EXPECT_EQ(file.int_attribute("/", "complete"), 1);
}

// A table's blocks keep their streams: one that played 2^k blocks has the
// counts of a fixed run of that many games.
TEST_F(PrecisionRun, ATableHasTheCountsOfAFixedRunOfItsGames) {
  const h5::Reader staged(reference);
  const std::vector<std::int64_t> games = staged.int64s("/precision/games", h5::kAnyShape);
  const std::vector<std::int64_t> offsets = staged.int64s("/engine/offsets", h5::kAnyShape);
  const std::vector<std::int64_t> counters = staged.int64s("/engine/counters", h5::kAnyShape);
  const std::size_t t = std::max_element(games.begin(), games.end() - 1) - games.begin();
  const std::string fixed = dir.file("fixed.h5");
  std::string plain = kConfig;
  plain.replace(plain.find("\"precision\""), plain.find("\"strategies\"") - plain.find("\"precision\""), "");
  const auto run = dicesim("run " + dir.write("plain.json", plain) + " --games " + std::to_string(games[t]) + " -o " +
                           fixed + " --quiet");
  ASSERT_EQ(run.exit_code, 0) << run.out;
  const std::vector<std::int64_t> fixed_counters = h5::Reader(fixed).int64s("/engine/counters", h5::kAnyShape);
  EXPECT_TRUE(
      std::equal(counters.begin() + offsets[t], counters.begin() + offsets[t + 1], fixed_counters.begin() + offsets[t]))
      << "table " << t << " at " << games[t] << " games";
}

TEST_F(PrecisionRun, ThreadsShardsRanksAndResumeGiveTheSameFile) {
  const std::string two = dir.file("two.h5");
  ASSERT_EQ(dicesim("run " + config + " -o " + two + " --threads 2 --quiet").exit_code, 0);
  EXPECT_TRUE(same_results(two, reference));

  for (const std::string k : {"1", "2", "3"})
    ASSERT_EQ(dicesim("run " + config + " --shard " + k + "/3 -o " + dir.file("s" + k + ".h5") + " --quiet").exit_code,
              0);
  const auto merged = dicesim("merge " + dir.file("s2.h5") + " " + dir.file("s3.h5") + " " + dir.file("s1.h5") +
                              " -o " + dir.file("merged.h5"));
  ASSERT_EQ(merged.exit_code, 0) << merged.out;
  EXPECT_NE(merged.out.find(", complete"), std::string::npos) << merged.out;
  EXPECT_TRUE(same_results(dir.file("merged.h5"), reference));

  const auto ranks =
      testing::run_shell("mpirun -n 2 --oversubscribe --allow-run-as-root " + std::string(DICESIM_BINARY) + " run " +
                         config + " -o " + dir.file("mpi.h5") + " --quiet --threads 1");
  ASSERT_EQ(ranks.exit_code, 0) << ranks.out;
  EXPECT_TRUE(same_results(dir.file("mpi.h5"), reference));

  // Interrupted with the first half of the tables played to the target (and
  // the rest not begun), then resumed.
  const RunConfig loaded = load_run_config(config);
  const std::vector<TableRun> contests = make_table_runs(loaded);
  const std::uint64_t total = first_blocks(contests).back();
  EngineOptions options;
  options.seed = loaded.seed;
  int argc = 0;
  char** argv = nullptr;
  const Cluster alone(argc, argv);
  EngineOutput half =
      run_to_precision(contests, options, alone, {0, total / 2}, nullptr, precise_enough(loaded)).output;
  ASSERT_FALSE(run_complete(loaded, half));
  const std::string resumed = dir.file("resumed.h5");
  write_results(resumed, loaded, half, RunInfo{"run", 1, 1, {{0, total}}, ""}, nullptr, nullptr);
  EXPECT_EQ(h5::Reader(resumed).int_attribute("/", "complete"), 0);
  const auto resume = dicesim("run " + config + " --resume " + resumed + " --quiet");
  ASSERT_EQ(resume.exit_code, 0) << resume.out;
  EXPECT_TRUE(same_results(resumed, reference));
}

TEST_F(PrecisionRun, TheSummaryShowsEachTablesGamesAndHalfWidths) {
  const auto show = dicesim("show " + reference);
  ASSERT_EQ(show.exit_code, 0) << show.out;
  EXPECT_NE(show.out.find("precision target: each table's games"), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("win rate ± (target 0.0035)"), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("mean score ± (target 0.016)"), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("sequential[\"dv(2,2)\",\"aware\"]"), std::string::npos) << show.out;
}

TEST_F(PrecisionRun, TheCommandLineTargetOverridesTheConfigs) {
  const std::string loose = dir.file("loose.h5");
  ASSERT_EQ(dicesim("run " + config + " --precision 0.3 -o " + loose + " --quiet").exit_code, 0);
  const h5::Reader file(loose);
  EXPECT_DOUBLE_EQ(file.double_attribute("/precision", "rate"), 0.3);
  const auto bad = dicesim("run " + config + " --precision 0.5 -o " + dir.file("bad.h5"));
  EXPECT_EQ(bad.exit_code, kExitBadInput);
  EXPECT_NE(bad.out.find("--precision: expected a 95% half-width"), std::string::npos) << bad.out;
  EXPECT_FALSE(std::filesystem::exists(dir.file("bad.h5")));
}

}  // namespace
}  // namespace dicesim
