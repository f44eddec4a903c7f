// What a run prints: each strategy's distribution, the win-rate matrices and
// tables, and the checks against the exact solver.
#pragma once

#include <iosfwd>
#include <vector>

#include "engine.h"
#include "exact_checks.h"
#include "run_config.h"

namespace dicesim {

void print_summary(std::ostream& out, const RunConfig& config, const EngineOutput& output);
void print_checks(std::ostream& out, const std::vector<Check>& checks);

}  // namespace dicesim
