// The results of a run: the HDF5 file (layout in sim/README.md), the
// cross-check against the exact solver, and the summary printed after a run.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "engine.h"
#include "run_config.h"
#include "table.h"

namespace dicesim {

// format_version of the results file: bump the first number when a reader
// of the old layout would misread the new one, the second when adding.
constexpr std::int64_t kFormatMajor = 1;
constexpr std::int64_t kFormatMinor = 1;

// A Monte Carlo number disagrees with its exact counterpart beyond chance
// when |z| exceeds this (two-sided p about 6e-7 per check).
constexpr double kZLimit = 5;

struct Check {
  std::string name;  // "<table key>/<what>"
  std::string kind;  // mean | win_rate | tie_rate | chi_square
  double observed = 0;
  double expected = 0;  // chi_square: degrees of freedom
  double z = 0;         // chi_square: the normal deviate with the same p-value, floored at 0
  double p_value = 1;
  bool passed() const { return std::abs(z) <= kZLimit; }
};

struct RunInfo {
  std::string command;  // run | check | merge
  int threads = 1;
  int ranks = 1;
  std::vector<BlockRange> planned;  // the blocks this file set out to cover
  std::string shard;                // "K/N", or empty
};

using ExactTables = std::vector<std::optional<TableOdds>>;  // per planned table

ExactTables exact_tables(const RunConfig& config);
std::vector<Check> compare(const RunConfig& config, const EngineOutput& output, const ExactTables& exact);

// Writes to a temporary name in the same directory, then renames: the final
// name only ever holds a complete file.
void write_results(const std::string& path, const RunConfig& config, const EngineOutput& output, const RunInfo& info,
                   const ExactTables* exact, const std::vector<Check>* checks);

void print_summary(std::ostream& out, const RunConfig& config, const EngineOutput& output);
void print_checks(std::ostream& out, const std::vector<Check>& checks);

}  // namespace dicesim
