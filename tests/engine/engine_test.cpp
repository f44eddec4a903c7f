#include "engine/engine.h"

#include <gtest/gtest.h>

#include <chrono>
#include <numeric>
#include <thread>

#include "games/registry.h"
#include "plan/run_config.h"
#include "results/exact_checks.h"

namespace dicesim {
namespace {

const char* kConfig = R"J({"game":"sixers","seed":42,"games":200000,
  "strategies":[{"name":"dv(2,2)","family":"dice_value_threshold","per_roll":[2,2]},
                {"name":"ts(5,5)","family":"turn_score_threshold","per_roll":[5,5]},
                {"name":"aware","family":"target_aware"}],
  "contests":{"headtohead":true,"sequential":true,"nway":[["dv(2,2)","ts(5,5)","aware"]]}})J";

EngineOutput play(const RunConfig& config, int threads, const std::atomic<bool>* stop = nullptr) {
  EngineOptions options;
  options.seed = config.seed;
  options.threads = threads;
  options.stop = stop;
  return run_tables(make_table_runs(config), options);
}

TEST(Engine, ResultsAreBitIdenticalWhateverTheThreadCount) {
  const RunConfig config = load_run_config(json::parse(kConfig), "test");
  const EngineOutput one = play(config, 1);
  for (int threads : {2, 3, 5}) {
    const EngineOutput many = play(config, threads);
    EXPECT_EQ(one.counters, many.counters) << threads << " threads";
    EXPECT_EQ(one.games_done, many.games_done);
  }
}

TEST(Engine, EveryGameIsPlayedOnceIncludingTheShortLastBlock) {
  RunConfig config = load_run_config(json::parse(kConfig), "test");
  config.games = 3 * kBlockGames + 17;
  const EngineOutput out = play(config, 2);
  EXPECT_TRUE(out.complete());
  for (std::size_t t = 0; t < config.plan.tables.size(); ++t) {
    EXPECT_EQ(out.games_done[t], config.games);
    const int seats = static_cast<int>(config.plan.tables[t].table.seats.size());
    const TableCountsView counts(out.counters[t].data(), seats, config.game->measure_bins());
    std::int64_t scored = 0, decided = counts.tie_games();
    for (int bin = 0; bin < counts.bins(0); ++bin) scored += counts.score(0, bin);
    for (int s = 0; s < seats; ++s) decided += counts.wins(s);
    EXPECT_EQ(scored, std::int64_t(config.games));
    EXPECT_EQ(decided, std::int64_t(config.games));
  }
}

TEST(TableCounts, MeasuresLieSideBySideBeforeTheWinCounters) {
  const std::vector<int> bins{3, 2};
  const int seats = 2;
  std::vector<std::int64_t> data(TableCounts::size(seats, bins), 0);
  ASSERT_EQ(data.size(), std::size_t(2 * 3 + 2 * 2 + 2 * 2 + 1));
  const TableCounts counts(data.data(), seats, bins);
  // Write a distinct number through every accessor: each cell is hit once.
  std::int64_t next = 1;
  for (int m = 0; m < 2; ++m)
    for (int s = 0; s < seats; ++s)
      for (int b = 0; b < bins[m]; ++b) counts.histogram(m, s)[b] = next++;
  for (int s = 0; s < seats; ++s) counts.wins(s) = next++;
  for (int s = 0; s < seats; ++s) counts.tied(s) = next++;
  counts.tie_games() = next++;
  std::vector<std::int64_t> expected(data.size());
  std::iota(expected.begin(), expected.end(), 1);
  EXPECT_EQ(data, expected);
  EXPECT_EQ(counts.score(1, 2), counts.histogram(0, 1)[2]);
  EXPECT_EQ(TableCountsView(data.data(), seats, bins).histogram_of(1, 1), (std::vector<std::int64_t>{9, 10}));
}

TEST(Engine, OtherContestsKeepTheirNumbersWhenOneIsAdded) {
  const RunConfig base = load_run_config(json::parse(kConfig), "test");
  json bigger = json::parse(kConfig);
  bigger["strategies"].push_back({{"name", "best"}, {"family", "optimal_mean"}});
  const RunConfig more = load_run_config(bigger, "test");
  const EngineOutput a = play(base, 2), b = play(more, 2);
  const int dv = base.plan.distribution[0];
  EXPECT_EQ(base.plan.tables[dv].key, more.plan.tables[more.plan.distribution[0]].key);
  EXPECT_EQ(a.counters[dv], b.counters[more.plan.distribution[0]]);
}

TEST(Engine, ASeedChangesTheResults) {
  RunConfig config = load_run_config(json::parse(kConfig), "test");
  const EngineOutput a = play(config, 2);
  config.seed = 43;
  EXPECT_NE(a.counters, play(config, 2).counters);
}

TEST(Engine, AStopRequestEndsEarlyWithConsistentPartialCounts) {
  RunConfig config = load_run_config(json::parse(kConfig), "test");
  config.games = kMaxGames;
  std::atomic<bool> stop{false};
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    stop = true;
  });
  const EngineOutput out = play(config, 2, &stop);
  stopper.join();
  EXPECT_FALSE(out.complete());
  std::uint64_t played = 0;
  for (std::size_t t = 0; t < config.plan.tables.size(); ++t) {
    played += out.games_done[t];
    EXPECT_EQ(out.games_done[t] % kBlockGames, 0u);  // whole blocks only
    const TableCountsView counts(out.counters[t].data(), static_cast<int>(config.plan.tables[t].table.seats.size()),
                                 config.game->measure_bins());
    const std::vector<std::int64_t> scores = counts.scores_of(0);
    EXPECT_EQ(std::accumulate(scores.begin(), scores.end(), std::int64_t(0)), std::int64_t(out.games_done[t]));
  }
  EXPECT_GT(played, 0u);
}

TEST(Check, PassesAtTinyGameCountsAndSkipsTablesNotPlayed) {
  RunConfig config = load_run_config(json::parse(kConfig), "test");
  for (std::uint64_t games : {1, 2, 3, 7}) {
    config.games = games;
    for (const Check& c : compare(config, play(config, 2), exact_tables(config, 2)))
      EXPECT_TRUE(c.passed()) << games << " games: " << c.name << " z " << c.z;
  }
  EngineOutput none = play(config, 1);
  std::fill(none.games_done.begin(), none.games_done.end(), 0);
  EXPECT_TRUE(compare(config, none, exact_tables(config, 2)).empty());
}

TEST(Engine, AvailableCpusFollowsTheAffinityMask) {
  cpu_set_t saved, one;
  ASSERT_EQ(sched_getaffinity(0, sizeof(saved), &saved), 0);
  CPU_ZERO(&one);
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &saved)) {
      CPU_SET(cpu, &one);
      break;
    }
  ASSERT_EQ(sched_setaffinity(0, sizeof(one), &one), 0);
  EXPECT_EQ(available_cpus(), 1);
  sched_setaffinity(0, sizeof(saved), &saved);
  EXPECT_EQ(available_cpus(), CPU_COUNT(&saved));
}

TEST(Check, MonteCarloAgreesWithTheExactSolver) {
  const RunConfig config = load_run_config(json::parse(kConfig), "test");
  const EngineOutput out = play(config, 2);
  const std::vector<Check> checks = compare(config, out, exact_tables(config, 2));
  EXPECT_GT(checks.size(), 20u);
  for (const Check& c : checks) EXPECT_TRUE(c.passed()) << c.name << " z " << c.z;
}

TEST(Check, AWrongExactValueIsCaught) {
  const RunConfig config = load_run_config(json::parse(kConfig), "test");
  const EngineOutput out = play(config, 2);
  ExactTables exact = exact_tables(config, 2);
  // Move 1% of one distribution from score 20 to 0 (its mean drops by 0.2,
  // about 20 standard errors here), and 1% from one seat's win to the tie.
  auto& p = exact[config.plan.distribution[0]]->probability[0][0];
  p[0] += 0.01;
  p[20] -= 0.01;
  TableOdds& pair = *exact[pair_table(config.plan.headtohead, 0, 1)];
  pair.win[0] -= 0.01;
  pair.tie += 0.01;
  std::vector<std::string> failed;
  for (const Check& c : compare(config, out, exact))
    if (!c.passed()) failed.push_back(c.kind);
  EXPECT_NE(std::find(failed.begin(), failed.end(), "chi_square"), failed.end());
  EXPECT_NE(std::find(failed.begin(), failed.end(), "mean"), failed.end());
  EXPECT_NE(std::find(failed.begin(), failed.end(), "win_rate"), failed.end());
  EXPECT_NE(std::find(failed.begin(), failed.end(), "tie_rate"), failed.end());
}

}  // namespace
}  // namespace dicesim
