// Hostile rules for 10,000's exact solvers: every solver states its limit
// and refuses past it before allocating, and `check` compares only what the
// solvers model and says what it leaves out.
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

}  // namespace
}  // namespace dicesim
