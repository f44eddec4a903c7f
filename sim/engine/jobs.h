// Independent jobs of very different costs (the exact odds of a config's
// tables, of every pair of strategies) spread over threads.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace dicesim {

// Runs job(i) for every i in [0, jobs) on `threads` threads, handing the jobs
// out one at a time, and shows on stderr how many are done (progress.h: a
// job's own Progress lines show on the thread that runs it, as the caller's
// thread shows its progress). A job that throws (Interrupted on a stop
// request, say) stops the others after their current job, and its exception
// is rethrown. A stop request before or during the jobs throws Interrupted,
// whichever thread ran them.
void run_jobs(std::size_t jobs, int threads, const std::string& what, const std::function<void(std::size_t)>& job);

}  // namespace dicesim
