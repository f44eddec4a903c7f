// The progress line of long exact solves: what it prints where, and that
// a stop request ends a long solve with Interrupted.
#include "engine/progress.h"

#include <gtest/gtest.h>

#include <string>

#include "engine/interrupt.h"
#include "games/battle/battle_exact.h"
#include "games/battle/battle_strategies.h"
#include "games/pig/pig_exact.h"
#include "games/pig/pig_strategies.h"

namespace dicesim {
namespace {

std::string contents(std::FILE* file) {
  std::fflush(file);
  std::rewind(file);
  std::string text;
  for (int c; (c = std::fgetc(file)) != EOF;) text += static_cast<char>(c);
  return text;
}

// The stop flag, set for one scope.
struct StopRequested {
  StopRequested() { stop_requested() = true; }
  ~StopRequested() { stop_requested() = false; }
};

TEST(Progress, OnATerminalOneLineShowsEveryLevelAndIsClearedAtTheEnd) {
  std::FILE* file = std::tmpfile();
  {
    Progress outer("tables", 3, {file, true, 0, 0});
    outer.advance();
    Progress inner("throw", 0, {file, true, 0, 0});
    inner.advance(2);
  }
  const std::string text = contents(file);
  std::fclose(file);
  EXPECT_NE(text.find("\r\033[Ktables 1/3  0 s"), std::string::npos) << text;
  EXPECT_NE(text.find("\r\033[Ktables 1/3 | throw 2  0 s"), std::string::npos) << text;
  EXPECT_EQ(text.substr(text.size() - 4), "\r\033[K");  // the line is gone at the end
  EXPECT_EQ(text.find('\n'), std::string::npos);
}

TEST(Progress, ElsewhereWholeLinesAndNothingBeforeTheFirstInterval) {
  std::FILE* file = std::tmpfile();
  {
    Progress quick("tables", 3, {file, false, 3600, 3600});
    quick.advance(3);
  }
  {
    Progress logged("tables", 3, {file, false, 0, 3600});
    logged.advance();
    logged.advance();  // within the interval: no second line
  }
  const std::string text = contents(file);
  std::fclose(file);
  EXPECT_EQ(text, "tables 1/3  0 s\n");
}

TEST(Progress, AStopRequestThrowsInterrupted) {
  Progress progress("tables", 3, {nullptr, false, 0, 0});
  progress.advance();
  const StopRequested stop;
  EXPECT_THROW(progress.advance(), Interrupted);
}

// Long exact solves poll the flag through their progress.
TEST(Progress, LongSolvesStopOnRequest) {
  const pig::Rules pig_rules{2, 100};
  const pig::Policy hold = pig::hold_at(pig_rules, 20);
  const battle::Rules battle_rules{10, 100, battle::Turns::sequential};
  battle::Solutions solutions(battle_rules);
  const battle::Policy optimal = battle::optimal_policy(battle_rules, solutions);
  const StopRequested stop;
  EXPECT_THROW(pig::evaluate(pig_rules, {&hold, &hold}, 201), Interrupted);
  EXPECT_THROW(pig::solve_optimal_win(pig_rules), Interrupted);
  EXPECT_THROW(battle::evaluate(battle_rules, optimal, &optimal), Interrupted);
  EXPECT_THROW(battle::solve_sequential(battle_rules), Interrupted);
  EXPECT_THROW(battle::solve_simultaneous({4, 30, battle::Turns::simultaneous}), Interrupted);
}

}  // namespace
}  // namespace dicesim
