#include "engine/engine.h"

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <numeric>
#include <thread>

#include "engine/progress.h"

namespace dicesim {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// Shows the games done, the rate and the time left until stopped: on a
// terminal a line redrawn twice a second ("37.2%  1.23 G / 3.30 G games
// 12.3 M/s  ETA 0:02:51"), else a log line every log_every seconds, so a
// week-long cluster job shows it is alive.
class ProgressLine {
 public:
  ProgressLine(const ProgressSettings& settings, std::uint64_t total, const std::atomic<std::uint64_t>& done)
      : output_(Progress::to_stderr(settings)),
        every_(output_.terminal ? 0.5 : output_.every),
        total_(total),
        done_(done) {
    if (!output_.file || every_ <= 0) return;
    thread_ = std::thread([this] { loop(); });
  }
  ~ProgressLine() {
    if (!thread_.joinable()) return;
    {
      std::lock_guard lock(mutex_);
      finished_ = true;
    }
    wake_.notify_all();
    thread_.join();
    if (output_.terminal) std::fputs("\r\033[K", output_.file);
  }

 private:
  void loop() {
    const Clock::time_point start = Clock::now();
    std::unique_lock lock(mutex_);
    const auto period = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(every_));
    while (!wake_.wait_for(lock, period, [this] { return finished_; })) {
      const double elapsed = seconds_since(start);
      const std::string text = progress_text(double(done_.load(std::memory_order_relaxed)), double(total_), elapsed);
      if (output_.terminal)
        std::fprintf(output_.file, "\r\033[K%s", text.c_str());
      else
        std::fprintf(output_.file, "[%s] %s\n", clock_time(elapsed).c_str(), text.c_str());
      std::fflush(output_.file);
    }
  }

  Progress::Output output_;
  double every_;
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

int usable_threads(int wanted) {
  const std::size_t limit = tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism);
  return static_cast<int>(std::min<std::size_t>(std::max(1, wanted), limit));
}

std::vector<std::uint64_t> first_blocks(const std::vector<TableRun>& runs) {
  std::vector<std::uint64_t> first{0};
  for (const TableRun& c : runs) first.push_back(first.back() + block_count(c.games));
  return first;
}

std::vector<std::uint64_t> games_in(const std::vector<TableRun>& runs, const std::vector<BlockRange>& ranges) {
  const std::vector<std::uint64_t> first = first_blocks(runs);
  std::vector<std::uint64_t> games(runs.size(), 0);
  for (std::size_t c = 0; c < runs.size(); ++c)
    for (const BlockRange& r : ranges) {
      const std::uint64_t begin = std::max(r.begin, first[c]), end = std::min(r.end, first[c + 1]);
      if (begin >= end) continue;
      games[c] += (end - begin) * kBlockGames;
      if (end == first[c + 1]) games[c] -= block_count(runs[c].games) * kBlockGames - runs[c].games;
    }
  return games;
}

bool join_ranges(std::vector<BlockRange>& ranges) {
  std::erase_if(ranges, [](const BlockRange& r) { return r.begin >= r.end; });
  std::sort(ranges.begin(), ranges.end(), [](const BlockRange& a, const BlockRange& b) { return a.begin < b.begin; });
  std::vector<BlockRange> joined;
  for (const BlockRange& r : ranges) {
    if (!joined.empty() && r.begin < joined.back().end) return false;
    if (!joined.empty() && r.begin == joined.back().end)
      joined.back().end = r.end;
    else
      joined.push_back(r);
  }
  ranges = std::move(joined);
  return true;
}

namespace {

// Each thread's counters sit on cache lines of their own, 128 bytes from
// any other allocation: a neighbour's writes would otherwise bounce the line
// between cores at every game.
constexpr std::size_t kPad = 16;
// Adds the counters of one chunk of blocks, on all threads; true unless a
// stop request cut it short (its counts are then thrown away).
bool play_chunk(const std::vector<TableRun>& runs, const std::vector<std::uint64_t>& first,
                const std::vector<std::size_t>& offset, BlockRange chunk, const EngineOptions& options,
                tbb::enumerable_thread_specific<std::vector<std::int64_t>>& local,
                std::atomic<std::uint64_t>& games_done) {
  for (std::vector<std::int64_t>& sums : local) std::fill(sums.begin(), sums.end(), 0);
  std::atomic<bool> cut{false};
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(chunk.begin, chunk.end, 1), [&](const auto& blocks) {
    std::vector<std::int64_t>& sums = local.local();
    for (std::uint64_t global = blocks.begin(); global != blocks.end(); ++global) {
      if (options.stop && options.stop->load(std::memory_order_relaxed)) {
        cut = true;
        return;
      }
      const std::size_t c = std::upper_bound(first.begin(), first.end(), global) - first.begin() - 1;
      const std::uint64_t block = global - first[c];
      const std::uint64_t games = std::min(kBlockGames, runs[c].games - block * kBlockGames);
      Rng rng = block_rng(options.seed, runs[c].id, runs[c].first_block + block);
      runs[c].play(games, rng, sums.data() + kPad + offset[c]);
      games_done.fetch_add(games, std::memory_order_relaxed);
    }
  });
  return !cut;
}

// The same on the GPU: the chunk's blocks of every table in one call
// (engine/gpu.h), their counters added to `sums` (zeroed here).
void play_chunk_on_gpu(const std::vector<TableRun>& runs, const std::vector<std::uint64_t>& first,
                       const std::vector<std::size_t>& offset, BlockRange chunk, const EngineOptions& options,
                       std::vector<std::int64_t>& sums, std::atomic<std::uint64_t>& games_done) {
  std::fill(sums.begin(), sums.end(), 0);
  std::vector<TableBatch> batches;
  for (std::size_t c = 0; c < runs.size(); ++c) {
    const std::uint64_t begin = std::max(chunk.begin, first[c]), end = std::min(chunk.end, first[c + 1]);
    if (begin >= end) continue;
    batches.push_back({.id = runs[c].id,
                       .stream_first = runs[c].first_block,
                       .first = begin - first[c],
                       .count = end - begin,
                       .games = runs[c].games,
                       .offset = offset[c],
                       .counters = runs[c].counters,
                       .table = runs[c].device_table});
  }
  options.device_play(options.seed, batches, sums.data());
  const std::vector<std::uint64_t> games = games_in(runs, {chunk});
  games_done.fetch_add(std::accumulate(games.begin(), games.end(), std::uint64_t(0)), std::memory_order_relaxed);
}

}  // namespace

EngineOutput run_tables(const std::vector<TableRun>& runs, const EngineOptions& options) {
  const std::vector<std::uint64_t> first = first_blocks(runs);
  std::vector<std::size_t> offset{0};
  for (const TableRun& c : runs) offset.push_back(offset.back() + c.counters);

  EngineOutput out;
  out.total_blocks = first.back();
  const BlockRange range{std::min(options.range.begin, out.total_blocks),
                         std::min(options.range.end, out.total_blocks)};
  std::vector<std::int64_t> total(offset.back(), 0);
  std::uint64_t next = range.begin;
  if (options.resume) {
    for (std::size_t c = 0; c < runs.size(); ++c)
      std::copy(options.resume->counters[c].begin(), options.resume->counters[c].end(), total.begin() + offset[c]);
    if (!options.resume->done.empty()) next = options.resume->done.front().end;
  }

  const std::vector<std::uint64_t> range_games = games_in(runs, {BlockRange{next, range.end}});
  std::atomic<std::uint64_t> games_done{0};
  const Clock::time_point start = Clock::now();
  Clock::time_point last_checkpoint = start;
  const auto snapshot = [&] {
    out.counters.clear();
    for (std::size_t c = 0; c < runs.size(); ++c)
      out.counters.emplace_back(total.begin() + offset[c], total.begin() + offset[c + 1]);
    out.done = {BlockRange{range.begin, next}};
    join_ranges(out.done);
    out.games_done = games_in(runs, out.done);
    out.wall_seconds = seconds_since(start);
  };

  tbb::enumerable_thread_specific<std::vector<std::int64_t>> local(
      [&] { return std::vector<std::int64_t>(offset.back() + 2 * kPad); });
  {
    ProgressLine progress(options.progress, std::accumulate(range_games.begin(), range_games.end(), std::uint64_t(0)),
                          games_done);
    tbb::task_arena arena(std::max(1, options.threads));
    // Chunks of about a quarter of a second: long enough to keep the threads
    // busy, short enough for prompt Ctrl-C and checkpoints. On a GPU, what
    // it plays at once (a block per thread in flight: a few seconds).
    std::uint64_t chunk_blocks = options.gpu ? std::max<std::uint64_t>(1, gpu_blocks_in_flight())
                                             : 4 * std::uint64_t(std::max(1, options.threads));
    std::vector<std::int64_t> gpu_sums(options.gpu ? total.size() : 0);
    while (next < range.end) {
      const BlockRange chunk{next, std::min(range.end, next + chunk_blocks)};
      const Clock::time_point chunk_start = Clock::now();
      bool finished = false;
      if (options.gpu) {
        if (options.stop && options.stop->load(std::memory_order_relaxed)) break;
        play_chunk_on_gpu(runs, first, offset, chunk, options, gpu_sums, games_done);
        for (std::size_t i = 0; i < total.size(); ++i) total[i] += gpu_sums[i];
      } else {
        arena.execute([&] { finished = play_chunk(runs, first, offset, chunk, options, local, games_done); });
        if (!finished) break;
        for (const std::vector<std::int64_t>& sums : local)
          for (std::size_t i = 0; i < total.size(); ++i) total[i] += sums[kPad + i];
        // A whole number of blocks per thread: every thread waits at the end
        // of a chunk for the last block, and a block of a slow game (Pig,
        // 10,000) is tens of milliseconds, a sizeable part of a chunk.
        const double took = seconds_since(chunk_start);
        const std::uint64_t threads = std::max(1, options.threads);
        chunk_blocks =
            std::clamp<std::uint64_t>(took > 0 ? std::uint64_t(double(chunk_blocks) * 0.25 / took) : chunk_blocks * 2,
                                      threads, 1 << 16) /
            threads * threads;
      }
      next = chunk.end;
      if (options.checkpoint && next < range.end &&
          std::chrono::duration<double>(Clock::now() - last_checkpoint).count() >= options.checkpoint_seconds) {
        snapshot();
        options.checkpoint(out);
        last_checkpoint = Clock::now();
      }
    }
  }
  snapshot();
  return out;
}

}  // namespace dicesim
