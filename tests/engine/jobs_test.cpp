#include "engine/jobs.h"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

#include "engine/interrupt.h"

namespace dicesim {
namespace {

TEST(Jobs, EveryJobRunsOnceWhateverTheThreads) {
  for (int threads : {1, 2, 4}) {
    std::vector<std::atomic<int>> runs(101);
    run_jobs(runs.size(), threads, "test", [&](std::size_t i) { ++runs[i]; });
    for (std::size_t i = 0; i < runs.size(); ++i) EXPECT_EQ(runs[i].load(), 1) << i << " of " << threads;
  }
}

// A failing job (a stop request, say) ends the run: the others stop after
// their current job and the failure reaches the caller.
TEST(Jobs, AFailureStopsTheOthersAndIsRethrown) {
  for (int threads : {1, 2}) {
    std::atomic<int> started{0};
    EXPECT_THROW(run_jobs(1000, threads, "test",
                          [&](std::size_t i) {
                            ++started;
                            if (i == 3) throw std::runtime_error("job 3 failed");
                          }),
                 std::runtime_error);
    EXPECT_LT(started.load(), 1000) << threads;
  }
}

// A stop requested while the jobs run ends them with Interrupted, whichever
// thread ran the jobs: the caller's thread polls the flag when it finishes
// its own jobs, and once more when every job is done, in case the other
// threads took them all (it then polled nothing: `check` once finished its
// exact phase after a Ctrl-C). Repeated, so that the other thread wins the
// one job in some rounds.
TEST(Jobs, AStopRequestDuringTheJobsIsRethrownWhoeverRanThem) {
  for (int round = 0; round < 300; ++round) {
    stop_requested() = false;
    EXPECT_THROW(run_jobs(1, 2, "test", [](std::size_t) { stop_requested() = true; }), Interrupted) << round;
  }
  stop_requested() = true;  // before the jobs: none runs
  bool ran = false;
  EXPECT_THROW(run_jobs(1, 1, "test", [&](std::size_t) { ran = true; }), Interrupted);
  EXPECT_FALSE(ran);
  stop_requested() = false;
}

}  // namespace
}  // namespace dicesim
