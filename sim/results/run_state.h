// The engine's state inside a results file (/engine): every table's raw
// counters, the blocks played and the blocks planned, with a checksum. It is
// what merge and resume read back; everything else in the file is derived
// from it and the config.
#pragma once

#include <string>
#include <vector>

#include "engine/engine.h"
#include "plan/run_config.h"
#include "results/h5.h"

namespace dicesim {

// format_version of the results file: bump the first number when a reader
// of the old layout would misread the new one, the second when adding.
constexpr std::int64_t kFormatMajor = 2;
constexpr std::int64_t kFormatMinor = 0;
// The oldest major whose run state (/engine: what merge and resume read)
// this dicesim reads: 2.0 changed only the pair sections.
constexpr std::int64_t kOldestEngineMajor = 1;

struct RunState {
  RunConfig config;                 // with the seed and games the run used
  EngineOutput output;              // counters, games, blocks done
  std::vector<BlockRange> planned;  // the blocks the run (or runs, merged) set out to play
  std::string shard;                // "K/N", or empty
  std::string program_version;      // of the dicesim that wrote it
  std::string git_revision;
};

void write_run_state(h5::Writer& file, const RunConfig& config, const EngineOutput& output,
                     const std::vector<BlockRange>& planned, const std::string& shard);

// Whether two runs are the same run (config, seed and games), so that their
// counts may be added or continued.
bool same_run(const RunConfig& a, const RunConfig& b);

// Counts of the loaded test die never mix with fair ones: a one-line
// InputError unless `run` (read from `path`) and `other` (named
// `other_name`) threw the same die.
void require_same_die(const RunConfig& run, const std::string& path, const RunConfig& other,
                      const std::string& other_name);

// Reads and validates; anything truncated, foreign, inconsistent or altered
// is an InputError naming the file.
RunState read_run_state(const std::string& path);

// Blocks [begin, end) of shard K of N (1-based) of total blocks.
BlockRange shard_range(std::uint64_t total_blocks, std::uint64_t k, std::uint64_t n);

}  // namespace dicesim
