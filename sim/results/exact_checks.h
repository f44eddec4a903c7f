// Monte Carlo against exact: the solver's odds of every planned table, and
// every counted number compared with its exact counterpart by a z-score.
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/table.h"
#include "plan/run_config.h"

namespace dicesim {

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

using ExactTables = std::vector<std::optional<TableOdds>>;  // per planned table

// Solves the tables on `threads` threads. Throws Interrupted (engine/interrupt.h)
// once a stop is requested, at the solvers' next step.
ExactTables exact_tables(const RunConfig& config, int threads);
std::vector<Check> compare(const RunConfig& config, const EngineOutput& output, const ExactTables& exact);
// What the solvers left out (TableOdds::not_compared), one line per reason:
// "<table key>: <reason>", or for a reason shared by several tables
// "<reason> (N tables, the first <table key>)".
std::vector<std::string> not_compared(const RunConfig& config, const ExactTables& exact);

}  // namespace dicesim
