// engine/: the Monte Carlo core. Random streams, dice samplers, a table's counters, blocks and threads, MPI ranks,
// jobs, progress and the stop flag. Knows no game and no config.
//
// may include: nothing else
//
// The Monte Carlo engine: plays every table's games in fixed blocks, each
// block on its own random stream, and adds integer counters. The result
// depends only on (seed, tables, games), never on threads or scheduling.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "engine/gpu.h"
#include "engine/progress.h"
#include "engine/rng.h"

namespace dicesim {

// Games per block: the unit of scheduling, of random streams and of what a
// shard, rank or checkpoint counts. Part of the results format: changing it
// changes every result.
constexpr std::uint64_t kBlockGames = 1 << 16;

// One table's games as the engine sees them: a stream id, a number of games,
// a block of counters and how to play. (A config's "runs" say what to
// play; plan/ turns them into tables, and each table into one TableRun.)
struct TableRun {
  std::uint64_t id;      // stable_hash of the table's key: picks its streams
  std::uint64_t games;   // total games to play
  std::size_t counters;  // size of its int64 counter block
  // Plays n games from rng, adding to the counters (never overwriting).
  std::function<void(std::uint64_t n, Rng& rng, std::int64_t* counters)> play;
  // The stream of the table's first block: a later part of a table's run (the
  // next stage of a precision run) continues the streams where it stopped.
  std::uint64_t first_block = 0;
  // Which of the GPU play's tables this is (EngineOptions::device_play):
  // its planned table, also in a later part of its run.
  std::uint32_t device_table = 0;
};

// Global block numbers [begin, end): table 0's blocks first, then table
// 1's, and so on. Shards, MPI ranks, checkpoints and resumed runs are all
// block ranges.
struct BlockRange {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  bool operator==(const BlockRange&) const = default;
};

struct EngineOutput {
  std::vector<std::vector<std::int64_t>> counters;  // per table
  std::vector<std::uint64_t> games_done;            // per table
  std::vector<BlockRange> done;                     // blocks played: disjoint, sorted
  std::uint64_t total_blocks = 0;
  double wall_seconds = 0;

  bool complete() const { return done == std::vector<BlockRange>{BlockRange{0, total_blocks}}; }
};

struct EngineOptions {
  std::uint64_t seed = 0;
  int threads = 1;
  // Play on the GPU, all the tables' games through device_play
  // (Game::device_play), not on threads.
  bool gpu = false;
  DevicePlay device_play = {};
  // Progress on stderr: a line redrawn in place on a terminal, else (Slurm
  // logs, notebooks) one log line every log_every seconds (0: none). None
  // unless asked for.
  ProgressSettings progress{.quiet = true};
  const std::atomic<bool>* stop = nullptr;  // set (by Ctrl-C) to stop early
  BlockRange range{0, UINT64_MAX};          // the blocks to play, clipped to the total
  // Blocks already played, whose counts are carried over: its done must be
  // empty or one range starting at range.begin (a checkpoint of this range).
  const EngineOutput* resume = nullptr;
  // Called with the state so far at most every checkpoint_seconds.
  double checkpoint_seconds = 0;
  std::function<void(const EngineOutput&)> checkpoint;
};

// Plays the blocks of options.range in order, in chunks; a chunk's counts are
// kept only if the whole chunk finished, so what was played is always a
// prefix of the range, whenever the run stops.
EngineOutput run_tables(const std::vector<TableRun>& runs, const EngineOptions& options);

// Global block numbering: first_block[t] is table t's first block, and the
// last element is the total.
std::vector<std::uint64_t> first_blocks(const std::vector<TableRun>& runs);

// Games in the blocks of `ranges`, per table.
std::vector<std::uint64_t> games_in(const std::vector<TableRun>& runs, const std::vector<BlockRange>& ranges);

// Sorted union of disjoint ranges, adjacent ones joined; false if any overlap.
bool join_ranges(std::vector<BlockRange>& ranges);

// Blocks of a table of `games` games; the last one may be short.
inline std::uint64_t block_count(std::uint64_t games) { return (games + kBlockGames - 1) / kBlockGames; }

// The CPUs this process may run on (its affinity mask, as set by a scheduler).
int available_cpus();

// The threads oneTBB will actually run for a request of `wanted`: at most its
// global limit (by default the CPUs of the affinity mask).
int usable_threads(int wanted);

}  // namespace dicesim
