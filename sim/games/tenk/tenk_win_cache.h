// Solved 10,000 games on disk, so that a config run with optimal_win does
// not solve again: one file per rule set, keyed by a hash of the rules and
// the solver's version, checked when read (a file that is damaged, written
// for other rules or by another solver version is solved again, with a
// warning, and replaced). Anything at the path but a regular file of
// plausible size is treated as absent (a warning, solved again).
#pragma once

#include <iosfwd>
#include <memory>
#include <optional>
#include <string>

#include "games/tenk/tenk_win.h"

namespace dicesim::tenk {

// Bumped whenever the solver's decisions or the file layout change.
constexpr int kWinSolverVersion = 2;  // 2: the parts kept under IV.4

// $DICESIM_CACHE_DIR, else $XDG_CACHE_HOME/dicesim, else $HOME/.cache/dicesim.
std::string win_cache_dir();
std::string win_cache_path(const Rules& rules);

// The solution for these rules from the cache, or solved (with progress on
// stderr) and stored; warnings go to `log`.
std::shared_ptr<const WinSolution> cached_win_solution(const Scoring& scoring, std::ostream& log);

// The file's solution if it holds these rules, intact; the reason otherwise.
std::optional<WinSolution> read_win_cache(const std::string& path, const Rules& rules, std::string& why);
// What the file stores of a solution (values, policy and the solve's
// figures) after its header, as raw bytes.
std::string win_solution_bytes(const WinSolution& solution);
// Through write_file_atomically; a FileError says why it failed.
void write_win_cache(const std::string& path, const Rules& rules, const WinSolution& solution);

}  // namespace dicesim::tenk
