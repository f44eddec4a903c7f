// `dicesim validate CONFIG...`: every error of each config (run stops at the
// first), or what a valid config would play; and run --dry-run's plan.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace dicesim {

struct RunConfig;

// Prints each error line (file, JSON path, message) to err and one line per
// valid config to out; kExitBadInput if any config has an error.
int validate_command(const std::vector<std::string>& configs, std::ostream& out, std::ostream& err);

// `dicesim run --dry-run`: the strategies (sweeps expanded) with their
// family and parameters, every table with its games, and the totals.
void print_plan(const RunConfig& config, std::ostream& out);

// "about 41.3 MiB at most (limit 23.47 GiB, --memory-limit); the most for
// <what>: <bytes>": the memory the command's plan was costed at.
std::string memory_estimate_text();

}  // namespace dicesim
