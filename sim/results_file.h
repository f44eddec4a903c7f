// The HDF5 results file of a run, a merge or a check (layout in sim/README.md).
#pragma once

#include <string>
#include <vector>

#include "engine.h"
#include "exact_checks.h"
#include "run_config.h"

namespace dicesim {

// format_version of the results file: bump the first number when a reader
// of the old layout would misread the new one, the second when adding.
constexpr std::int64_t kFormatMajor = 2;
constexpr std::int64_t kFormatMinor = 0;
// The oldest major whose run state (/engine: what merge and resume read)
// this dicesim reads: 2.0 changed only the pair sections.
constexpr std::int64_t kOldestEngineMajor = 1;

struct RunInfo {
  std::string command;  // run | check | merge
  int threads = 1;
  int ranks = 1;
  std::vector<BlockRange> planned;  // the blocks this file set out to cover
  std::string shard;                // "K/N", or empty
  bool exact_skipped = false;       // check: a stop request came before the exact comparison was done
};

// Writes to a temporary name in the same directory, then renames: the final
// name only ever holds a complete file.
void write_results(const std::string& path, const RunConfig& config, const EngineOutput& output, const RunInfo& info,
                   const ExactTables* exact, const std::vector<Check>* checks);

}  // namespace dicesim
