// The engine's state inside a results file (/engine): every table's raw
// counters, the blocks played and the blocks planned, with a checksum. It is
// what merge and resume read back; everything else in the file is derived
// from it and the config.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "plan/run_config.h"
#include "results/exact_checks.h"
#include "results/h5.h"

namespace dicesim {

// format_version of the results file: bump the first number when a reader
// of the old layout would misread the new one, the second when adding.
// 3.0: every string fixed-length, and the content checksum; 3.1: head starts.
constexpr std::int64_t kFormatMajor = 3;
constexpr std::int64_t kFormatMinor = 1;
struct RunState {
  RunConfig config;                 // with the seed and games the run used
  EngineOutput output;              // counters, games, blocks done
  std::vector<BlockRange> planned;  // the blocks the run (or runs, merged) set out to play
  std::string shard;                // "K/N", or empty
  std::string program_version;      // of the dicesim that wrote it
  std::string git_revision;
  // What `show` reports besides: read, bounded and (from format 3.0) covered
  // by the checksum like the rest.
  std::vector<std::int64_t> format_version;  // [major, minor]
  std::string command;                       // run | check | merge
  std::int64_t threads = 0;
  std::optional<std::vector<Check>> checks;  // /checks, in a check's file
  std::optional<bool> exact_skipped;         // in a check's file: a stop request skipped the exact comparison
  int threads_min = 0;  // the fewest and the most worker threads of any rank that played (0: not recorded)
  int threads_max = 0;
};

// The stored config, as JSON text: the root attribute `config`, or, past
// kMostConfigAttribute bytes (an attribute of the file's HDF5 format holds
// at most 64 KiB as a fixed-length string), the dataset /config [1].
constexpr std::size_t kMostConfigAttribute = 60000;
void write_config_text(h5::Writer& file, const std::string& text);

void write_run_state(h5::Writer& file, const RunConfig& config, const EngineOutput& output,
                     const std::vector<BlockRange>& planned, const std::string& shard);

// Counts of the loaded test die never mix with fair ones: a one-line
// InputError unless `run` (read from `path`) and `other` (named
// `other_name`) threw the same die.
void require_same_die(const RunConfig& run, const std::string& path, const RunConfig& other,
                      const std::string& other_name);

// Who reads a results file: `show` reads every format from
// kOldestReadableMajor (results_layout.h); merge and resume, which write what
// they read into a new file, read kFormatMajor only.
enum class ReadFor { show, merge_or_resume };

// Reads and validates; anything truncated, foreign, inconsistent or altered
// is an InputError naming the file (a regular file: never a FIFO or device).
// Every dataset is read through the guarded path of h5::Reader, its shape
// checked against the format or the plan before anything is allocated, and
// the checksums (the file's content from format 3.0, /engine in every
// format) are checked before the stored config is planned. With `same_as`
// (merge, resume), a file whose stored config, seed or game count differ
// from its is refused before its config is planned (which can cost seconds
// and memory for a forged one); `what` names same_as in the message.
RunState read_run_state(const std::string& path, ReadFor reader, const RunConfig* same_as = nullptr,
                        const std::string& what = "");

// Blocks [begin, end) of shard K of N (1-based) of total blocks.
BlockRange shard_range(std::uint64_t total_blocks, std::uint64_t k, std::uint64_t n);

}  // namespace dicesim
