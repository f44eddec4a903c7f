// results/: what a run leaves: the HDF5 results file and the engine state in it, the summary and other printed tables,
// the exact checks.
//
// may include: engine, math, config, strategies, games, plan
//
// The HDF5 results file of a run, a merge or a check (layout in sim/results/README.md).
#pragma once

#include <string>
#include <vector>

#include "engine/engine.h"
#include "plan/run_config.h"
#include "results/exact_checks.h"
#include "results/run_state.h"

namespace dicesim {

struct RunInfo {
  std::string command;  // run | check | merge
  int threads = 1;      // of this process (rank 0 under MPI)
  int ranks = 1;
  std::vector<BlockRange> planned;  // the blocks this file set out to cover
  std::string shard;                // "K/N", or empty
  bool exact_skipped = false;       // check: a stop request came before the exact comparison was done
  int threads_min = 0;              // the fewest and the most threads of any rank (any input, for a merge);
  int threads_max = 0;              // 0: this process's threads
};

// Writes to a temporary name in the same directory, then renames: the final
// name only ever holds a complete file.
void write_results(const std::string& path, const RunConfig& config, const EngineOutput& output, const RunInfo& info,
                   const ExactTables* exact, const std::vector<Check>* checks);

}  // namespace dicesim
