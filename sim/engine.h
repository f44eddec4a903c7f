// The Monte Carlo engine: plays every contest's games in fixed blocks, each
// block on its own random stream, and adds integer counters. The result
// depends only on (seed, contests, games), never on threads or scheduling.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "rng.h"

namespace dicesim {

// Games per block: the unit of scheduling, of random streams and of what a
// shard, rank or checkpoint counts. Part of the results format: changing it
// changes every result.
constexpr std::uint64_t kBlockGames = 1 << 16;

struct Contest {
  std::uint64_t id;      // stable_hash of the contest's key: picks its streams
  std::uint64_t games;   // total games to play
  std::size_t counters;  // size of its int64 counter block
  // Plays n games from rng, adding to the counters (never overwriting).
  std::function<void(std::uint64_t n, Rng& rng, std::int64_t* counters)> play;
};

struct EngineOptions {
  std::uint64_t seed = 0;
  int threads = 1;
  bool progress = false;                    // live line on stderr
  const std::atomic<bool>* stop = nullptr;  // set (by Ctrl-C) to stop early
};

struct EngineOutput {
  std::vector<std::vector<std::int64_t>> counters;  // per contest
  std::vector<std::uint64_t> games_done;            // per contest
  bool complete = true;
  double wall_seconds = 0;
};

EngineOutput run_contests(const std::vector<Contest>& contests, const EngineOptions& options);

// Blocks of a contest of `games` games; the last one may be short.
inline std::uint64_t block_count(std::uint64_t games) { return (games + kBlockGames - 1) / kBlockGames; }

// The CPUs this process may run on (its affinity mask, as set by a scheduler).
int available_cpus();

}  // namespace dicesim
