// The progress line of long exact solves: what it prints where, and that
// a stop request ends a long solve with Interrupted.
#include "engine/progress.h"

#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/interrupt.h"
#include "engine/jobs.h"
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

// The run's settings reach a solver's Progress through the scope the command
// opens: the outermost level shows on the scope's output, a nested one on
// its enclosing level's.
TEST(Progress, AThreadsScopeDecidesWhereItsLevelsShow) {
  std::FILE* file = std::tmpfile();
  {
    const ProgressScope scope(Progress::Output{file, false, 0, 3600});
    Progress outer("tables", 3);
    outer.advance();
    {
      const ProgressScope quiet(ProgressSettings{.quiet = true, .log_every = 60});
      Progress inner("throw", 0);  // nested: on its enclosing level's output, whatever the scope
      EXPECT_EQ(inner.output().file, file);
    }
    const ProgressScope quiet(ProgressSettings{.quiet = true, .log_every = 60});
    EXPECT_EQ(Progress("alone", 0).output().file, file);  // still nested in outer
  }
  {
    const ProgressScope quiet(ProgressSettings{.quiet = true, .log_every = 60});
    EXPECT_EQ(Progress("tables", 3).output().file, nullptr);
  }
  const std::string text = contents(file);
  std::fclose(file);
  EXPECT_EQ(text, "tables 1/3  0 s\n");
}

// The job runner's worker threads show their jobs' progress where the
// caller's thread shows its own.
TEST(Progress, JobsOnEveryThreadShowWhereTheCallerDoes) {
  std::FILE* file = std::tmpfile();
  std::mutex mutex;
  std::vector<std::FILE*> shown_on;
  {
    const ProgressScope scope(Progress::Output{file, false, 3600, 3600});
    run_jobs(64, 4, "jobs", [&](std::size_t) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));  // long enough for every thread to take jobs
      const Progress job("job", 0);
      const std::lock_guard lock(mutex);
      shown_on.push_back(job.output().file);
    });
  }
  std::fclose(file);
  EXPECT_EQ(shown_on, std::vector<std::FILE*>(64, file));
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
