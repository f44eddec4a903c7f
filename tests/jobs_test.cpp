#include "jobs.h"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

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

}  // namespace
}  // namespace dicesim
