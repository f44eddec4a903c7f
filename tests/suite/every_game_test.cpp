// The guarantees every game gets for free: each shipped config (configs/*.json,
// found when the tests run) is played as a user would play it and must
//   - give the same results file for 1 and 2 threads, for 3 shards merged, and
//     for a run resumed from a checkpoint written halfway;
//   - have exact probabilities that add up to 1 (every distribution, every
//     table's win and tie odds);
//   - fail `check` with a loaded die.
// And every game in games() must have a shipped config, so a new game is held
// to all of this as soon as it ships one, and every other part that
// sim/games/README.md's "Adding a game" lists.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <numeric>

#include "engine/cluster.h"
#include "engine/engine.h"
#include "games/game.h"
#include "games/registry.h"
#include "plan/precision.h"
#include "plan/run_config.h"
#include "results/exact_checks.h"
#include "results/results_file.h"
#include "test_util.h"

namespace dicesim {
namespace {

using testing::dicesim;
using testing::same_results;
using testing::TempDir;

// Games per table: a full block and a short one, so that threads, shards and
// the checkpoint cut both within contests and between them, in seconds even
// for 10,000 (whose shipped configs have 40-odd tables).
constexpr std::uint64_t kGames = kBlockGames + 4464;
const std::string kRunOptions = " --games " + std::to_string(kGames) + " --quiet";

// Exact probabilities are sums of many terms: they add up to 1 within this.
constexpr double kTolerance = 1e-9;

std::string config_path(const std::string& stem) { return testing::source_path("configs/" + stem + ".json"); }

// The stems of configs/*.json, sorted.
std::vector<std::string> shipped_configs() {
  std::vector<std::string> stems;
  for (const auto& entry : std::filesystem::directory_iterator(testing::source_path("configs")))
    if (entry.path().extension() == ".json" && entry.path().stem() != "schema")  // the configs' JSON Schema
      stems.push_back(entry.path().stem().string());
  std::sort(stems.begin(), stems.end());
  return stems;
}

// A test name from a config's stem (GoogleTest allows letters, digits and '_').
std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

// What a checkpoint halfway through a plain run holds: the first half of the
// blocks played, every block planned, marked incomplete. With a precision
// target: the tables of the first half of the blocks played to it.
void write_halfway_checkpoint(const std::string& config_file, const std::string& path) {
  RunConfig config = load_run_config(config_file);
  config.games = kGames;
  const std::vector<TableRun> contests = make_table_runs(config);
  const std::uint64_t total = first_blocks(contests).back();
  EngineOptions options;
  options.seed = config.seed;
  options.threads = 2;
  options.range = {0, total / 2};
  int argc = 0;
  char** argv = nullptr;
  const Cluster alone(argc, argv);  // no MPI launcher: a cluster of one
  EngineOutput half =
      config.precision
          ? run_to_precision(contests, options, alone, options.range, nullptr, precise_enough(config)).output
          : run_tables(contests, options);
  half.games_done = games_in(contests, half.done);
  ASSERT_FALSE(run_complete(config, half));
  write_results(path, config, half, RunInfo{"run", options.threads, 1, {{0, total}}, ""}, nullptr, nullptr);
}

class EveryConfig : public ::testing::TestWithParam<std::string> {
 protected:
  // Runs `dicesim ARGS` and expects the exit code.
  void expect_dicesim(const std::string& args, int exit_code = 0) {
    const auto result = dicesim(args);
    // The end of the output: the verdict of a check, or the error.
    const std::size_t tail = result.out.size() > 2000 ? result.out.size() - 2000 : 0;
    EXPECT_EQ(result.exit_code, exit_code) << "dicesim " << args << "\n..." << result.out.substr(tail);
  }
  TempDir dir;
  const std::string config = config_path(GetParam());
};

TEST_P(EveryConfig, ThreadsShardsAndResumeGiveTheSameFile) {
  const std::string one = dir.file("one.h5");
  expect_dicesim("run " + config + " -o " + one + " --threads 1" + kRunOptions);

  const std::string two = dir.file("two.h5");
  expect_dicesim("run " + config + " -o " + two + " --threads 2" + kRunOptions);
  EXPECT_TRUE(same_results(two, one));

  for (const std::string k : {"1", "2", "3"})
    expect_dicesim("run " + config + " --shard " + k + "/3 -o " + dir.file("shard" + k + ".h5") + kRunOptions);
  const std::string merged = dir.file("merged.h5");
  expect_dicesim("merge " + dir.file("shard3.h5") + " " + dir.file("shard1.h5") + " " + dir.file("shard2.h5") + " -o " +
                 merged);
  EXPECT_TRUE(same_results(merged, one));

  const std::string resumed = dir.file("resumed.h5");
  write_halfway_checkpoint(config, resumed);
  expect_dicesim("run " + config + " --resume " + resumed + kRunOptions);
  EXPECT_TRUE(same_results(resumed, one));
}

TEST_P(EveryConfig, ExactProbabilitiesAddUpToOne) {
  const RunConfig run_config = load_run_config(config);
  const ExactTables exact = exact_tables(run_config, 2);
  const auto total = [](const std::vector<double>& p) { return std::accumulate(p.begin(), p.end(), 0.0); };
  const auto all_probabilities = [](const std::vector<double>& p) {
    return std::all_of(p.begin(), p.end(), [](double x) { return x >= -kTolerance && x <= 1 + kTolerance; });
  };
  int checked = 0;
  for (std::size_t t = 0; t < exact.size(); ++t) {
    if (!exact[t]) continue;
    const TableOdds& odds = *exact[t];
    const std::string& key = run_config.plan.tables[t].key;
    const int seats = static_cast<int>(run_config.plan.tables[t].table.seats.size());
    for (std::size_t m = 0; m < odds.probability.size(); ++m)
      for (int seat = 0; seat < seats; ++seat)
        if (const std::vector<double>* p = odds.distribution(static_cast<int>(m), seat)) {
          EXPECT_NEAR(total(*p), 1, kTolerance) << key << " measure " << m << " seat " << seat;
          EXPECT_TRUE(all_probabilities(*p)) << key << " measure " << m << " seat " << seat;
          ++checked;
        }
    if (!odds.win.empty()) {
      EXPECT_EQ(odds.win.size(), std::size_t(seats)) << key;
      EXPECT_NEAR(total(odds.win) + odds.tie, 1, kTolerance) << key << ": P(win) of every seat and P(tie)";
      EXPECT_TRUE(all_probabilities(odds.win) && odds.tie >= -kTolerance) << key;
      ++checked;
    }
  }
  EXPECT_GT(checked, 0) << "the solver gives no exact probabilities for " << GetParam();
}

TEST_P(EveryConfig, ALoadedDieMakesCheckFail) {
  expect_dicesim("check " + config + " -o " + dir.file("loaded.h5") + " --test-biased-die" + kRunOptions, 1);
}

INSTANTIATE_TEST_SUITE_P(Shipped, EveryConfig, ::testing::ValuesIn(shipped_configs()), test_name);

std::string file_text(const std::string& relative) {
  std::ifstream in(testing::source_path(relative));
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// What sim/games/README.md's "Adding a game" lists, checked for every game in
// games(), each missing part named with the step that adds it.
// A game is its folder, its line in games() and a shipped config: the folder
// holds its rules, solvers, families, solve command, tests and README.
TEST(EveryGame, HasEveryPartThatAddingAGameLists) {
  std::set<std::string> shipped;
  for (const std::string& stem : shipped_configs())
    shipped.insert(json::parse(std::ifstream(config_path(stem))).at("game").get<std::string>());
  const std::string schema = file_text("configs/schema.json");
  for (const GameEntry& g : games()) {
    const std::string name(g.name), folder = "sim/games/" + name + "/";
    for (const std::string& part :
         std::vector<std::string>{name + "_game.h", name + "_solve.cpp", name + "_test.cpp", "README.md"})
      EXPECT_TRUE(std::filesystem::is_regular_file(testing::source_path(folder + part)))
          << name << ": no " << folder << part << " (sim/games/README.md, Adding a game)";
    EXPECT_TRUE(shipped.count(name)) << name << ": no config in configs/ plays it (it is what the shared suite runs)";
    EXPECT_NE(schema.find("\"const\": \"" + name + "\""), std::string::npos)
        << name << ": configs/schema.json has no branch for it (build/dicesim schema > configs/schema.json)";
    const std::string readme = file_text(folder + "README.md");
    EXPECT_NE(readme.find("`\"game\": \"" + name + "\"`"), std::string::npos)
        << name << ": " << folder << "README.md does not say how a config names it (`\"game\": \"" << name << "\"`)";
    EXPECT_FALSE(g.families().empty()) << name << ": no strategy family";
    EXPECT_FALSE(g.rules_parameters().empty()) << name << ": no rules declared";
    EXPECT_NE(g.add_solve_command, nullptr) << name << ": no solve command in its entry";
    EXPECT_EQ(dicesim("solve " + name + " --help").exit_code, 0) << name << ": `dicesim solve " << name << "` fails";
  }
}

}  // namespace
}  // namespace dicesim
