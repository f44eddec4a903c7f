// 10,000 strategy families. Each compiles to a Policy: after a throw (its
// dice set aside) throw again or bank, by (turn total, dice for the next
// throw, pending face, bank-minimum regime). The rules that override any
// family (bank minimum, no stop on hot dice, the target, a last turn) are
// applied in play_turn.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "config/json_input.h"
#include "games/tenk/tenk.h"
#include "games/tenk/tenk_exact.h"
#include "games/tenk/tenk_table_win.h"
#include "games/tenk/tenk_win.h"
#include "strategies/family.h"

namespace dicesim::tenk {

const std::vector<StrategyFamily>& families();

// Solver results several strategies share, computed once on demand.
class Solutions {
 public:
  explicit Solutions(const Scoring& scoring) : scoring_(scoring) {}
  const CriticalScores& critical_scores();
  const Policy& optimal();
  double optimal_mean();
  // Two-player win-optimal play (cached on disk, tenk_win_cache.h).
  const std::shared_ptr<const WinSolution>& win_solution();
  const std::shared_ptr<const WinStrategy>& win();
  // Three or more seats' win-optimal play, with its decisions (solved, not cached).
  const std::shared_ptr<const TableWin>& table_win(int seats);
  // Gives a compiled optimal_win its solution (solved or read from the cache).
  void attach_win(Policy& policy) {
    if (!policy.plays_to_win) return;
    if (policy.table_seats > 0) {
      if (!policy.table) policy.table = table_win(policy.table_seats);
    } else if (!policy.win) {
      policy.win = win();
    }
  }

 private:
  const Scoring& scoring_;
  std::optional<CriticalScores> critical_scores_;
  std::optional<Policy> optimal_;
  double optimal_mean_ = 0;
  std::shared_ptr<const WinSolution> win_solution_;
  std::shared_ptr<const WinStrategy> win_;
  std::map<int, std::shared_ptr<const TableWin>> table_wins_;  // by seats
};

// Compiles {"family": ..., params} ("name" is the caller's); errors name the JSON path.
Policy compile_strategy(const JsonNode& spec, const Scoring& scoring, Solutions& solutions);

}  // namespace dicesim::tenk
