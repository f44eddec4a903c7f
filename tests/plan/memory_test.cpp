// The memory model (engine/memory_budget.h): every plan is costed before it
// is allocated, the estimate that validate and --dry-run print is within a
// factor of 2 of what the run really holds at its peak, for every game and
// every solver a config can start, and a plan past --memory-limit is refused
// with one line naming the JSON path that asks for it.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "app/exit_codes.h"
#include "engine/memory_budget.h"
#include "plan/contest_plan.h"
#include "plan/run_config.h"
#include "test_util.h"

namespace dicesim {
namespace {

using testing::dicesim;
using testing::TempDir;

// "memory: about 41.3 MiB at most" (or GiB) of a dry run, in bytes.
double printed_estimate(const std::string& out) {
  static const std::regex pattern("about ([0-9.]+) (MiB|GiB) at most");
  std::smatch m;
  if (!std::regex_search(out, m, pattern)) return -1;
  return std::stod(m[1]) * (m[2] == "GiB" ? 1024.0 * 1024 * 1024 : 1024.0 * 1024);
}

// The run's peak resident memory (GNU time's %M, in KiB), in bytes.
double measured_peak(const std::string& out) {
  static const std::regex pattern("peak-kib ([0-9]+)");
  std::smatch m;
  if (!std::regex_search(out, m, pattern)) return -1;
  return std::stod(m[1]) * 1024;
}

struct Case {
  const char* config;
  const char* games;
  const char* what;  // the game and the solver it starts, for the failure message
};

const Case kCases[] = {
    {"configs/sixers.json", "2e5", "Sixers: thresholds, optimal_mean, target_aware, 52 tables"},
    {"configs/sixers_optimal_win.json", "2e4", "Sixers: the win-optimal solver"},
    {"configs/pig_one_die.json", "2e4", "Pig: hold values and the two-player optimal_win solve"},
    {"configs/pig_three_players.json", "2e4", "Pig: the three-seat table solve"},
    {"configs/battle_simultaneous.json", "2e4", "Dice Battle: the LP equilibrium"},
    {"configs/tenk_seed000.json", "2e4", "10,000: fixed totals, the AI, the one-turn optimum"},
    {"configs/tenk_optimal_win.json", "2e3", "10,000: the two-player win solve"},
    {"configs/tenk_three_players.json", "2e3", "10,000: the three-seat table solve"},
    {"configs/tenk_bank_sweep.json", "1e3", "10,000: a sweep of bank totals, round robin"},
};

TEST(Memory, TheEstimateIsWithinAFactorOfTwoOfThePeakForEveryGameAndSolver) {
  TempDir dir;
  const std::string env = "DICESIM_CACHE_DIR=" + dir.file("cache") + " ";
  for (const Case& c : kCases) {
    const std::string config = testing::source_path(c.config);
    const std::string options = std::string(" --games ") + c.games + " --threads 2 -o " + dir.file("out.h5");
    const auto planned = testing::run_shell(env + DICESIM_BINARY + " run " + config + options + " --dry-run");
    ASSERT_EQ(planned.exit_code, kExitOk) << c.config << ": " << planned.out;
    const auto played = testing::run_shell(env + "/usr/bin/time -f 'peak-kib %M' " + DICESIM_BINARY + " run " + config +
                                           options + " --quiet");
    ASSERT_EQ(played.exit_code, kExitOk) << c.config << ": " << played.out;
    const double estimate = printed_estimate(planned.out), peak = measured_peak(played.out);
    ASSERT_GT(estimate, 0) << planned.out;
    ASSERT_GT(peak, 0) << played.out;
    EXPECT_LE(estimate, 2 * peak) << c.what << " (" << c.config << "): estimate " << estimate / (1 << 20)
                                  << " MiB, peak " << peak / (1 << 20) << " MiB";
    EXPECT_GE(estimate, peak / 2) << c.what << " (" << c.config << "): estimate " << estimate / (1 << 20)
                                  << " MiB, peak " << peak / (1 << 20) << " MiB";
    std::filesystem::remove(dir.file("out.h5"));
  }
}

// One line, exit 2, naming the file and the JSON path of what asks too much.
void expect_refused_at(const testing::CommandResult& result, const std::string& where) {
  EXPECT_EQ(result.exit_code, kExitBadInput) << result.out;
  EXPECT_NE(result.out.find(where), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("--memory-limit"), std::string::npos) << result.out;
  EXPECT_EQ(std::count(result.out.begin(), result.out.end(), '\n'), 1) << result.out;
}

TEST(Memory, EightSeatTablesOfTenThousandAreRefusedBeforeTheirCounters) {
  TempDir dir;
  const std::string config = dir.write("eight.json", R"J({"game": "tenk", "games": 1000,
    "strategies": [{"family": "bank_at", "total": {"from": 300, "to": 700, "step": 50}, "set": "b"}],
    "contests": {"distributions": false, "nway": [["b", "b", "b", "b", "b", "b", "b", "b"]]}})J");
  // 9 strategies in 8 seats: 362,880 tables, whose counters alone would need tens of GiB.
  for (const std::string& command : std::vector<std::string>{"validate " + config, "run --dry-run " + config})
    expect_refused_at(dicesim(command + " --memory-limit 2G"), "/contests/nway/0");
}

TEST(Memory, RoundRobinPairsAreCountedAndCappedBeforeAnyIsPlanned) {
  TempDir dir;
  // Six sweeps of 201 bank totals: 1,206 strategies, 1,453,230 ordered pairs.
  std::string strategies;
  for (const char* name : {"a", "b", "c", "d", "e", "f"})
    strategies += std::string(strategies.empty() ? "" : ", ") + R"J({"name": ")J" + name +
                  R"J({total}", "family": "bank_at", "total": {"from": 0, "to": 10000, "step": 50}})J";
  const std::string config =
      dir.write("pairs.json", R"J({"game": "tenk", "games": 1000, "strategies": [)J" + strategies +
                                  R"J(], "contests": {"distributions": false, "sequential": true}})J");
  const auto result = dicesim("validate " + config);
  EXPECT_EQ(result.exit_code, kExitBadInput) << result.out;
  EXPECT_NE(result.out.find("/contests/sequential: makes 1453230 tables, past the 1000000"), std::string::npos)
      << result.out;
}

TEST(Memory, AStrategySweepIsChargedBeforeItIsCompiled) {
  TempDir dir;
  // 201 bank totals of some 150 KiB each: past a limit of 30 MiB once the first two are measured, and
  // their 20,100 pairs (counters of 2 GiB) within 3 GiB.
  const std::string config = dir.write("sweep.json", R"J({"game": "tenk", "games": 1000,
    "strategies": [{"family": "bank_at", "total": {"from": 0, "to": 10000, "step": 50}}],
    "contests": {"distributions": false, "headtohead": true}})J");
  const auto refused = dicesim("validate " + config + " --memory-limit 30M");
  expect_refused_at(refused, "/strategies/0 (199 more strategies of the sweep)");
  EXPECT_EQ(dicesim("validate " + config + " --memory-limit 3G").exit_code, kExitOk);
}

TEST(Memory, ValidateAndDryRunPrintTheEstimateAndTheLimit) {
  const std::string config = testing::source_path("configs/pig_one_die.json");
  const auto validated = dicesim("validate " + config + " --memory-limit 4G");
  EXPECT_EQ(validated.exit_code, kExitOk) << validated.out;
  EXPECT_NE(validated.out.find("(limit 4.00 GiB, --memory-limit)"), std::string::npos) << validated.out;
  const auto planned = dicesim("run --dry-run " + config);
  EXPECT_GT(printed_estimate(planned.out), 0) << planned.out;
  for (const char* bad : {"0", "-1G", "lots", "1X"})
    EXPECT_EQ(dicesim("validate " + config + " --memory-limit " + bad).exit_code, kExitBadInput) << bad;
}

// Every kind of contest charges its tables before planning them: for each
// key of "contests" a config that plays it, and the charge its JSON path
// made. A new kind of contest without a case here fails, and so does one
// that skips the charge.
TEST(Memory, EveryKindOfContestIsCosted) {
  const json pig = json::parse(R"J({"game": "pig", "games": 1000, "strategies": [
      {"name": "h{at}", "family": "hold_at", "at": {"from": 2, "to": 30}, "set": "holds"},
      {"name": "l{at}", "family": "hold_at", "at": {"from": 2, "to": 6}, "set": "low"}]})J");
  const json sixers = json::parse(R"J({"game": "sixers", "games": 1000, "strategies": [
      {"name": "d{per_roll[0]}-{per_roll[1]}", "family": "dice_value_threshold",
       "per_roll": [{"from": 0, "to": 2}, {"from": 0, "to": 2}], "set": "dv"}]})J");
  const std::map<std::string, std::pair<json, json>> cases = {
      {"distributions", {pig, {{"distributions", true}}}},
      {"headtohead", {sixers, {{"distributions", false}, {"headtohead", true}}}},
      {"sequential", {pig, {{"distributions", false}, {"sequential", true}}}},
      {"against", {pig, {{"distributions", false}, {"against", {{"players", {"holds"}}, {"opponents", {"low"}}}}}}},
      {"nway", {sixers, {{"distributions", false}, {"nway", {{"dv", "dv", "dv"}}}}}},
      {"sequential_tables", {pig, {{"distributions", false}, {"sequential_tables", {{"low", "low", "low"}}}}}},
  };
  for (const Parameter& contest : contest_parameters()) {
    const auto found = cases.find(contest.name);
    ASSERT_NE(found, cases.end()) << "no case for the contest \"" << contest.name << "\": add one here";
    json config = found->second.first;
    config["contests"] = found->second.second;
    memory_budget().start(UINT64_MAX);
    const RunConfig loaded = load_run_config(config, "c.json", false);
    ASSERT_FALSE(loaded.plan.tables.empty());
    const std::string path = "c.json: /contests/" + contest.name;
    bool charged = false;
    for (const auto& [what, bytes] : memory_budget().charges()) charged |= what.rfind(path, 0) == 0 && bytes > 0;
    EXPECT_TRUE(charged) << contest.name << ": no charge at " << path;
  }
  memory_budget().start(UINT64_MAX);
}

// A table that several contests ask for is one table, charged once.
TEST(Memory, ATableSeveralContestsShareIsChargedOnce) {
  const json base = json::parse(R"J({"game": "pig", "games": 1000, "strategies": [
      {"name": "h{at}", "family": "hold_at", "at": {"from": 2, "to": 40}, "set": "holds"}]})J");
  const auto counters_charged = [&](const json& contests) {
    json config = base;
    config["contests"] = contests;
    memory_budget().start(UINT64_MAX);
    load_run_config(config, "c.json", false);
    std::uint64_t bytes = 0;
    for (const auto& [what, charged] : memory_budget().charges())
      if (what.find("/contests/") != std::string::npos && what.find("(the plan of") == std::string::npos)
        bytes += charged;
    return bytes;
  };
  const std::uint64_t alone = counters_charged({{"distributions", false}, {"sequential", true}});
  const json rectangle = {{"players", {"holds"}}, {"opponents", {"holds"}}};
  EXPECT_EQ(counters_charged({{"distributions", false}, {"sequential", true}, {"against", {rectangle, rectangle}}}),
            alone);
  memory_budget().start(UINT64_MAX);
}

// validate costs each config on its own, from the process as it started,
// and one over the limit is that config's error: the others are still read.
TEST(Memory, ValidateCostsEachConfigOnItsOwn) {
  TempDir dir;
  const std::string small = testing::source_path("configs/pig_one_die.json");
  const std::string big = dir.write("big.json", R"J({"game": "tenk", "games": 1000,
    "strategies": [{"family": "bank_at", "total": {"from": 0, "to": 10000, "step": 50}}],
    "contests": {"distributions": false, "headtohead": true}})J");
  const auto alone = dicesim("validate " + small);
  const auto after = dicesim("validate " + big + " " + small + " --memory-limit 1G");
  EXPECT_EQ(after.exit_code, kExitBadInput) << after.out;
  EXPECT_NE(after.out.find(big + ": /contests/headtohead"), std::string::npos) << after.out;
  EXPECT_NE(after.out.find("1 of 2 configs have errors"), std::string::npos) << after.out;
  const double first = printed_estimate(alone.out), second = printed_estimate(after.out);
  EXPECT_GT(second, 0) << after.out;
  EXPECT_LT(second, 1.2 * first) << alone.out << after.out;
}

// merge keeps one plan: shards read one after another do not add theirs up.
TEST(Memory, MergeCostsOnePlanWhateverTheInputs) {
  TempDir dir;
  const std::string config = testing::source_path("configs/tenk_bank_sweep.json");
  std::string inputs;
  for (int k = 1; k <= 4; ++k) {
    const std::string shard = dir.file("s" + std::to_string(k) + ".h5");
    ASSERT_EQ(dicesim("run " + config + " --games 1000 --shard " + std::to_string(k) + "/4 -o " + shard + " --quiet")
                  .exit_code,
              kExitOk);
    inputs += " " + shard;
  }
  const auto planned = dicesim("run --dry-run " + config + " --games 1000");
  const double one_plan = printed_estimate(planned.out);
  ASSERT_GT(one_plan, 0) << planned.out;
  // While an input is read two plans are held (the first's and its own),
  // never more: a limit of two and a half plans holds; four would pass it.
  const std::string limit = std::to_string(static_cast<std::uint64_t>(one_plan * 5 / 2));
  const auto merged = dicesim("merge" + inputs + " -o " + dir.file("m.h5") + " --memory-limit " + limit);
  EXPECT_EQ(merged.exit_code, kExitOk) << merged.out;
}

TEST(Memory, SizesParse) {
  EXPECT_EQ(parse_memory("8G"), std::uint64_t(8) << 30);
  EXPECT_EQ(parse_memory("512M"), std::uint64_t(512) << 20);
  EXPECT_EQ(parse_memory("1e9"), std::uint64_t(1000000000));
  EXPECT_EQ(parse_memory("1.5G"), std::uint64_t(3) << 29);
  EXPECT_EQ(parse_memory("8GB"), std::uint64_t(8) << 30);
  EXPECT_EQ(parse_memory("8gib"), std::uint64_t(8) << 30);
  EXPECT_EQ(parse_memory("512m"), std::uint64_t(512) << 20);
  for (const char* bad : {"", "0", "-1", "G", "8Q", "nan", "inf", "1e30", "0x100", "8 G", "8GG"})
    EXPECT_FALSE(parse_memory(bad)) << bad;
}

TEST(Memory, AChargePastTheLimitIsRefusedAndNotAdded) {
  MemoryBudget budget;
  budget.start(budget.estimate() + (std::uint64_t(64) << 20) + resident_bytes());
  budget.charge(std::uint64_t(32) << 20, "a");
  EXPECT_THROW(budget.charge(std::uint64_t(1) << 30, "b"), MemoryRefused);
  EXPECT_EQ(budget.charged(), std::uint64_t(32) << 20);
  budget.charge_once("k", 1 << 20, "c");
  budget.charge_once("k", 1 << 20, "c");
  EXPECT_EQ(budget.charged(), std::uint64_t(33) << 20);
  // A refused charge_once is not taken as charged: asked again, it is refused again.
  EXPECT_THROW(budget.charge_once("big", std::uint64_t(1) << 30, "d"), MemoryRefused);
  EXPECT_THROW(budget.charge_once("big", std::uint64_t(1) << 30, "d"), MemoryRefused);
}

// What is held for a while (a solve's tables) is charged while held: two
// held at once are costed together, one after the other are not summed,
// and charges from several threads at once are all counted.
TEST(Memory, HeldChargesAreTakenBackAndThreadsChargeTogether) {
  MemoryBudget& budget = memory_budget();
  const MemoryBudget saved = budget;
  budget.start(resident_bytes() + (std::uint64_t(100) << 20));
  const std::uint64_t before = budget.charged();
  {
    const HeldCharge first(std::uint64_t(40) << 20, "first");
    const HeldCharge second(std::uint64_t(40) << 20, "second");
    EXPECT_EQ(budget.charged(), before + (std::uint64_t(80) << 20));
    EXPECT_THROW(HeldCharge(std::uint64_t(40) << 20, "third"), MemoryRefused);
  }
  EXPECT_EQ(budget.charged(), before);
  { const HeldCharge again(std::uint64_t(90) << 20, "again"); }
  EXPECT_EQ(budget.charged(), before);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([t] {
      for (int i = 0; i < 1000; ++i) memory_budget().charge_once("key " + std::to_string(t * 1000 + i), 1, "many");
    });
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(budget.charged(), before + 8000);
  budget = saved;
}

}  // namespace
}  // namespace dicesim
