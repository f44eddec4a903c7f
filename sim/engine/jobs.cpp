#include "engine/jobs.h"

#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_group.h>

#include <algorithm>
#include <atomic>

#include "engine/interrupt.h"
#include "engine/progress.h"

namespace dicesim {

void run_jobs(std::size_t jobs, int threads, const std::string& what, const std::function<void(std::size_t)>& job) {
  std::atomic<std::size_t> next{0}, done{0};
  const auto run_next = [&] {
    const std::size_t i = next++;
    if (i >= jobs) return false;
    job(i);
    ++done;
    return true;
  };
  const auto run_all = [&] {
    try {
      while (run_next()) {
      }
    } catch (...) {
      next = jobs;  // the others stop after their current job
      throw;
    }
  };
  throw_if_interrupted();         // a stop requested before the jobs start
  Progress progress(what, jobs);  // polls the stop flag too
  // The other threads' jobs show their progress where this thread's does.
  const auto run_all_shown = [&] {
    const ProgressScope shown(progress.output());
    run_all();
  };
  tbb::task_arena arena(std::max(1, threads));
  arena.execute([&] {
    tbb::task_group others;
    for (int t = 1; t < threads; ++t) others.run(run_all_shown);
    try {
      // This thread shows the count as it finishes its own jobs.
      std::size_t shown = 0;
      while (run_next()) {
        const std::size_t now = done.load();
        progress.advance(now - shown);
        shown = now;
      }
    } catch (...) {
      next = jobs;
      others.wait();  // rethrows another thread's failure first, if any
      throw;
    }
    others.wait();
  });
  // A stop request during the jobs stops them even when this thread ran
  // none, and so never polled the flag (the other threads took them all).
  throw_if_interrupted();
}

}  // namespace dicesim
