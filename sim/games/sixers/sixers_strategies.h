// Sixers strategy families: each compiles to a Policy table, so the hot loop
// never asks a strategy anything but a table lookup.
#pragma once

#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/json_input.h"
#include "games/sixers/sixers.h"
#include "games/sixers/sixers_exact.h"
#include "strategies/family.h"

namespace dicesim::sixers {

const std::vector<StrategyFamily>& families();

// Solver results that several strategies share, computed once on demand.
class Solutions {
 public:
  explicit Solutions(const Hands& hands) : hands_(hands) {}
  const MeanOptimum& mean();
  const Policy& target_aware();
  // optimal_win with `seats_after` win-optimal seats after it at a
  // sequential table (0: the last seat, or a lone one). Solved on first use,
  // from the last seat back; safe to call from several threads.
  const WinSeat& optimal_win(int seats_after);

 private:
  const Hands& hands_;
  std::optional<MeanOptimum> mean_;
  std::optional<Policy> target_aware_;
  std::mutex win_mutex_;
  std::deque<WinSeat> win_seats_;  // by seats after; a deque keeps references stable
};

// Whether the strategy's policy depends on its seat and the table's size
// (optimal_win): compile_strategy then gives its lone-seat policy, and a
// table takes Solutions::optimal_win(seats after it) instead.
bool plays_by_seat(const json& spec);

// Compiles a strategy's JSON spec ({"family": ..., "per_roll": [...]}, other
// keys such as "name" left to the caller); errors name the JSON path.
Policy compile_strategy(const JsonNode& spec, const Hands& hands, Solutions& solutions);

// "dv(2,2)", "dice_value_threshold(2,2)" or "optimal_mean" as a JSON spec.
json strategy_from_text(std::string_view text);

}  // namespace dicesim::sixers
