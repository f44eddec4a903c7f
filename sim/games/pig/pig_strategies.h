// Pig strategy families, each compiled to a Policy table over (phase, banked
// score, leading opponent's score, turn total), so that the hot loop asks a
// strategy nothing but a table lookup.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "config/json_input.h"
#include "games/pig/pig.h"
#include "games/pig/pig_exact.h"
#include "strategies/family.h"

namespace dicesim::pig {

const std::vector<StrategyFamily>& families();

// Solver results that several strategies share, computed once on demand.
class Solutions {
 public:
  explicit Solutions(const Rules& rules) : rules_(rules) {}
  const WinSolution& optimal_win();
  const TurnsSolution& turns(int turns);  // solved for at least `turns` turns

 private:
  Rules rules_;
  std::optional<WinSolution> win_;
  std::optional<TurnsSolution> turns_;
};

// A strategy as the game plays it: a policy table, or (optimal_win with
// "seats") the table solve of `table_seats` seats, which the game solves
// when first played; `policy` is then a placeholder nobody plays.
struct CompiledStrategy {
  Policy policy;
  int table_seats = 0;
};

// Compiles a strategy's JSON spec ({"family": ..., params}; "name" is the
// caller's); errors name the JSON path.
CompiledStrategy compile_strategy(const JsonNode& spec, const Rules& rules, Solutions& solutions);

// The families' policies, for tests and the solver command.
Policy hold_at(const Rules& rules, int at);
Policy optimal_turns(const Rules& rules, const TurnsSolution& solution, int turns);

}  // namespace dicesim::pig
