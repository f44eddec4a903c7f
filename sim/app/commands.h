// app/: the program: the command line (main.cpp, the only user of CLI11), the commands, bench, validate, the solve
// commands.
//
// may include: engine, math, config, strategies, games, plan, results
//
// The commands run, check and merge as library functions: main.cpp parses the
// command line and calls them, tests call them directly. Each returns an exit
// code (exit_codes.h); bad input throws InputError before anything is written.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "engine/cluster.h"
#include "engine/progress.h"

namespace dicesim {

struct RunOptions {
  std::string config;
  std::string output;        // default results/<name>.h5 (or the --resume file)
  std::string games;         // overrides the config's, when given
  std::string total_games;   // games in all, split over the tables: overrides the config's per table
  std::string seed;          // overrides the config's, when given
  std::string precision;     // a win-rate half-width overriding the config's precision.rate, when given
  std::string shard;         // "K/N", or empty
  std::string resume;        // a results file to continue
  std::string memory_limit;  // --memory-limit SIZE (engine/memory_budget.h); "": the machine's memory
  std::string json_summary;  // --json FILE: the summary JSON (summary.h), written after the results file
  double checkpoint_every = 0;
  ProgressSettings progress;   // --quiet, --progress-every: of the games and of the exact solves
  int threads = 0;             // 0: the CPUs this process may use
  std::string device = "cpu";  // --device: cpu (threads) or gpu (engine/gpu.h)
  bool dry_run = false;        // print the plan (strategies, tables, games) and play nothing
  bool print_output = false;   // print the results file's path (job scripts name files from it) and play nothing
  bool biased_die = false;     // test only: the game's samplers throw the loaded test die
  std::string test_pause_at;   // test only: "setup" or "exact" waits there for a stop request
};

struct ShowOptions {
  std::string file;
  bool json = false;    // print the facts and tables as JSON
  std::string csv_dir;  // write each table to <dir>/<table>.csv (and the facts to run.csv)
};

struct MergeOptions {
  std::vector<std::string> inputs;
  std::string output;
  bool quiet = false;              // only errors and the final line naming the file
  std::string test_pause_at = {};  // test only: "read" waits after reading the first input for a stop request
};

// `run` (check = false) or `check`: plays the config's contests, writes the
// results file and prints the summary (and the checks) to out. A stop request
// (interrupt.h) ends it early with what was played written: kExitInterrupted.
int run_command(RunOptions options, bool check, const Cluster& cluster, std::ostream& out);

// Adds up the results files of one run's shards, read one at a time. An
// output that is one of the inputs (the same file under any name) is
// refused; a stop request before the write leaves nothing and returns
// kExitInterrupted.
int merge_command(const MergeOptions& options, std::ostream& out);

// `dicesim show`: the facts and summary of any results file (complete or
// not, a shard or a merge), from its engine state, without playing.
int show_command(const ShowOptions& options, std::ostream& out);

// SIGINT and SIGTERM (Slurm's preemption) set stop_requested() while this
// lives; a second signal ends the process at once.
class StopOnSignals {
 public:
  StopOnSignals();
  ~StopOnSignals();
  StopOnSignals(const StopOnSignals&) = delete;
  StopOnSignals& operator=(const StopOnSignals&) = delete;
};

}  // namespace dicesim
