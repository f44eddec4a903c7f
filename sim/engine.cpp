#include "engine.h"

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

namespace dicesim {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// Prints "games done, games/s, ETA" twice a second until stopped.
class ProgressLine {
 public:
  ProgressLine(bool enabled, std::uint64_t total, const std::atomic<std::uint64_t>& done) : total_(total), done_(done) {
    if (enabled) thread_ = std::thread([this] { loop(); });
  }
  ~ProgressLine() {
    if (!thread_.joinable()) return;
    {
      std::lock_guard lock(mutex_);
      finished_ = true;
    }
    wake_.notify_all();
    thread_.join();
    std::fputs("\r\033[K", stderr);
  }

 private:
  void loop() {
    const Clock::time_point start = Clock::now();
    std::unique_lock lock(mutex_);
    while (!wake_.wait_for(lock, std::chrono::milliseconds(500), [this] { return finished_; })) {
      const double elapsed = seconds_since(start);
      const double done = double(done_.load(std::memory_order_relaxed));
      const double rate = done / std::max(elapsed, 1e-9);
      const double eta = rate > 0 ? (double(total_) - done) / rate : 0;
      std::fprintf(stderr, "\r\033[K%.4g / %.4g games  %.3g games/s  ETA %.0f s", done, double(total_), rate, eta);
      std::fflush(stderr);
    }
  }

  std::uint64_t total_;
  const std::atomic<std::uint64_t>& done_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool finished_ = false;
  std::thread thread_;
};

}  // namespace

int available_cpus() {
  cpu_set_t mask;
  if (sched_getaffinity(0, sizeof(mask), &mask) == 0) return std::max(1, CPU_COUNT(&mask));
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

EngineOutput run_contests(const std::vector<Contest>& contests, const EngineOptions& options) {
  // Blocks of all contests in one global numbering: first_block[c] is the
  // first global block of contest c.
  std::vector<std::uint64_t> first_block{0};
  std::vector<std::size_t> offset{0};
  std::uint64_t total_games = 0;
  for (const Contest& c : contests) {
    first_block.push_back(first_block.back() + block_count(c.games));
    offset.push_back(offset.back() + c.counters);
    total_games += c.games;
  }
  const std::size_t width = offset.back() + contests.size();  // counters, then games done per contest

  const Clock::time_point start = Clock::now();
  std::atomic<std::uint64_t> games_done{0};
  tbb::enumerable_thread_specific<std::vector<std::int64_t>> local(
      [width] { return std::vector<std::int64_t>(width); });
  {
    ProgressLine progress(options.progress, total_games, games_done);
    tbb::task_arena arena(std::max(1, options.threads));
    arena.execute([&] {
      tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, first_block.back(), 1), [&](const auto& range) {
        std::vector<std::int64_t>& sums = local.local();
        for (std::uint64_t global = range.begin(); global != range.end(); ++global) {
          if (options.stop && options.stop->load(std::memory_order_relaxed)) return;
          const std::size_t c =
              std::upper_bound(first_block.begin(), first_block.end(), global) - first_block.begin() - 1;
          const std::uint64_t block = global - first_block[c];
          const std::uint64_t games = std::min(kBlockGames, contests[c].games - block * kBlockGames);
          Rng rng = block_rng(options.seed, contests[c].id, block);
          contests[c].play(games, rng, sums.data() + offset[c]);
          sums[offset.back() + c] += static_cast<std::int64_t>(games);
          games_done.fetch_add(games, std::memory_order_relaxed);
        }
      });
    });
  }

  std::vector<std::int64_t> total(width, 0);
  for (const std::vector<std::int64_t>& sums : local)
    for (std::size_t i = 0; i < width; ++i) total[i] += sums[i];

  EngineOutput out;
  for (std::size_t c = 0; c < contests.size(); ++c) {
    out.counters.emplace_back(total.begin() + offset[c], total.begin() + offset[c + 1]);
    out.games_done.push_back(static_cast<std::uint64_t>(total[offset.back() + c]));
    out.complete = out.complete && out.games_done.back() == contests[c].games;
  }
  out.wall_seconds = seconds_since(start);
  return out;
}

}  // namespace dicesim
