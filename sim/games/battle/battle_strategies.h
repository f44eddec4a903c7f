// Dice Battle strategy families, each compiled to a Policy table over
// (my score, the opponent's score):
//   fixed    always d dice
//   blind    the seed's d*: the most expected points per throw, whatever the scores
//   optimal  sequential turns: d*(i, j) of the EG recursion;
//            simultaneous turns: the equilibrium mixed strategy of each state
//   random   d uniform in 1..D at every throw
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "config/json_input.h"
#include "games/battle/battle.h"
#include "games/battle/battle_exact.h"
#include "strategies/family.h"

namespace dicesim::battle {

const std::vector<StrategyFamily>& families();

// Solutions that several strategies share, computed once on demand.
class Solutions {
 public:
  explicit Solutions(const Rules& rules) : rules_(rules) {}
  const SequentialSolution& sequential();
  const SimultaneousSolution& simultaneous();

 private:
  Rules rules_;
  std::optional<SequentialSolution> sequential_;
  std::optional<SimultaneousSolution> simultaneous_;
};

// Compiles {"family": ..., params} (other keys such as "name" left to the
// caller); errors name the JSON path.
Policy compile_strategy(const JsonNode& spec, const Rules& rules, Solutions& solutions);

// The optimal policy of the rules' turn order, compiled.
Policy optimal_policy(const Rules& rules, Solutions& solutions);

}  // namespace dicesim::battle
