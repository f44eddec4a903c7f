// Hostile rules for the exact solvers and the planning: every solver states
// its limit and refuses past it before allocating, `check` compares only
// what the solvers model and says what it leaves out, and planning a group
// whose sets cannot fill its seats ends at once.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "games/tenk/tenk_win.h"
#include "plan/run_config.h"
#include "tenk_test_util.h"
#include "test_util.h"

namespace dicesim {
namespace {

using tenk::helpers::compile;
using tenk::helpers::rules_from;

// A 10,000 config of two heuristics playing both seatings under these rules.
std::string tenk_config(const testing::TempDir& dir, const json& rules, std::uint64_t games) {
  const json config = {
      {"game", "tenk"},
      {"games", games},
      {"rules", rules},
      {"strategies",
       {{{"name", "bank350"}, {"family", "bank_at"}, {"total", 350}}, {{"name", "ev"}, {"family", "ev_heuristic"}}}},
      {"contests", {{"distributions", false}, {"sequential", true}}}};
  return dir.write("tenk.json", config.dump());
}

TEST(SolverLimits, TenkTwoPlayerSolvesRefuseBeforeAllocating) {
  // At 1,000,000 the odds of every pair of scores would take some 13 GB.
  const tenk::Scoring huge(rules_from({{"target", 1000000}}));
  const tenk::Policy bank = compile(huge, {{"family", "bank_at"}, {"total", 350}});
  const tenk::PolicyRule rule(huge.rules(), bank);
  EXPECT_THROW(tenk::evaluate_win(huge, rule, rule), InputError);
  EXPECT_THROW(tenk::game_shape(huge, rule, rule), InputError);
  // optimal_win past its target, and under IV.5 past its memory.
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THROW(tenk::solve_win(tenk::Scoring(rules_from({{"target", 100000}}))), InputError);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  const std::optional<std::string> why =
      tenk::win_solver_refusal(rules_from({{"target", 20000}, {"continue_previous", true}}), true);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("continue_previous"), std::string::npos) << *why;
  EXPECT_FALSE(tenk::win_solver_refusal(rules_from(json::object()), true));
}

TEST(SolverLimits, SolveTenkWinRefusesATargetPastItsLimitInOneLine) {
  const testing::TempDir dir;
  const std::string config = tenk_config(dir, {{"target", 100000}}, 10);
  const auto result = testing::dicesim("solve tenk --win --config " + config);
  EXPECT_EQ(result.exit_code, 2) << result.out;
  EXPECT_EQ(result.out, config +
                            ": /rules/target: target 100000: optimal_win is solved for targets up to 20000 (the "
                            "solve grows as the cube of the target: about a minute there)\n");
}

// The simulation cuts games at max_rounds; the exact odds of who wins play
// on, so they are not compared there, and check says so.
TEST(SolverLimits, CheckLeavesOutTheWinOddsWhereMaxRoundsCutsGames) {
  const testing::TempDir dir;
  const std::string config = tenk_config(dir, {{"max_rounds", 5}}, 20000);
  const auto result = testing::dicesim("check " + config + " -o " + dir.file("out.h5"));
  EXPECT_EQ(result.exit_code, 0) << result.out;
  EXPECT_EQ(result.out.find("DISAGREES"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("not compared: win, tie and place: max_rounds 5: a game lasts into its last round"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("/turns/mean"), std::string::npos) << result.out;  // the turns model the cap
}

// Past the two-player limit check compares the first seat's first turn only.
TEST(SolverLimits, CheckPastTheTwoPlayerLimitComparesTheFirstTurnAndSaysWhatNot) {
  const testing::TempDir dir;
  const std::string config = tenk_config(dir, {{"target", 1000000}, {"max_rounds", 2}}, 2000);
  const auto result = testing::dicesim("check " + config + " -o " + dir.file("out.h5"));
  EXPECT_EQ(result.exit_code, 0) << result.out;
  EXPECT_NE(result.out.find("first_turn/mean"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("not compared: win, tie, place, turns and the second seat's first turn: target 1000000: "
                            "two-player games are evaluated exactly for targets up to 50000"),
            std::string::npos)
      << result.out;
}

TEST(SolverLimits, TheTotalGameCountIsRefusedPast2To63) {
  EXPECT_FALSE(too_many_games(9223, 1'000'000'000'000'000ULL));
  const std::optional<std::string> why = too_many_games(39402, 1'000'000'000'000'000ULL);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("39402000000000000000 games in all"), std::string::npos) << *why;
  // --games checks the total too: 100 strategies, 9900 ordered pairs.
  const testing::TempDir dir;
  const json config = {
      {"game", "tenk"},
      {"games", 1},
      {"strategies",
       {{{"name", "bank{total}"}, {"family", "bank_at"}, {"total", {{"from", 350}, {"to", 5300}, {"step", 50}}}}}},
      {"contests", {{"distributions", false}, {"sequential", true}}}};
  const std::string file = dir.write("many.json", config.dump());
  const auto result = testing::dicesim("run " + file + " --games 1e15 --dry-run");
  EXPECT_EQ(result.exit_code, 2) << result.out;
  EXPECT_EQ(result.out,
            "--games: 9900 tables of 1000000000000000 games make 9900000000000000000 games in all, more "
            "than 2^63 - 1 (the most a run counts)\n");
}

// Planning a group whose sets cannot fill its seats ends at once (it was
// exponential in the seats), and where they can, every seating is planned
// once, in the order of the names.
TEST(SolverLimits, PlanningSeatsOnlyWhatCanBeFilled) {
  const auto plan = [](const json& groups) {
    const json config = {{"game", "pig"},
                         {"games", 10},
                         {"strategies",
                          {{{"name", "a{at}"}, {"family", "hold_at"}, {"at", {{"from", 10}, {"to", 22}}}},
                           {{"name", "b{at}"}, {"family", "hold_at"}, {"at", {{"from", 30}, {"to", 31}}}}}},
                         {"contests", {{"distributions", false}, {"sequential_tables", groups}}}};
    return load_run_config(parse_json_text(config.dump(), "plan.json"), "plan.json");
  };
  const auto start = std::chrono::steady_clock::now();
  json fourteen = json::array();
  for (int seat = 0; seat < 14; ++seat) fourteen.push_back("a{at}");
  fourteen.push_back("b{at}");
  EXPECT_THROW(plan(json::array({fourteen})), InputError);  // 14 seats from 13 strategies
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_THROW(plan({{"b{at}", "b{at}", "b{at}"}}), InputError);
  // Overlapping sets: the tables are every seating of different strategies,
  // in the order of the sets' members seat by seat (a10..a22 are 0..12,
  // b30 and b31 13 and 14).
  const RunConfig planned = plan({{"a{at}", "b{at}", "a{at}", "b{at}"}});
  std::vector<std::vector<int>> expected;
  for (int a = 0; a < 13; ++a)
    for (int b = 13; b < 15; ++b)
      for (int c = 0; c < 13; ++c)
        if (c != a) expected.push_back({a, b, c, b == 13 ? 14 : 13});
  ASSERT_EQ(planned.plan.tables.size(), expected.size());
  for (std::size_t t = 0; t < expected.size(); ++t) EXPECT_EQ(planned.plan.tables[t].table.seats, expected[t]) << t;
}

}  // namespace
}  // namespace dicesim
