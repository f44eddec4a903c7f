#include "games/battle/battle_strategies.h"

#include <algorithm>

namespace dicesim::battle {
namespace {

// The same number of dice in every state.
Policy constant_policy(const Rules& rules, int dice) {
  Policy policy(rules.goal, rules.max_dice);
  for (int mine = 0; mine < rules.goal; ++mine)
    for (int theirs = 0; theirs < rules.goal; ++theirs) policy.set_pure(mine, theirs, dice);
  return policy;
}

}  // namespace

const std::vector<StrategyFamily>& families() {
  static const std::vector<StrategyFamily> all = {
      {"fixed",
       {integer_parameter("dice", 1, kMaxDiceLimit, "dice to throw, at most max_dice")
            .as_required()
            .bounded_by("1..D")},
       "always throw `dice` dice"},
      {"blind", {}, "the seed's d*: the most expected points per throw, 4d(5/6)^d + 1 - (5/6)^d"},
      {"optimal",
       {},
       "sequential turns: the d*(i,j) of the EG recursion; simultaneous: each state's equilibrium mix (LP)"},
      {"random", {}, "d uniform in 1..D at every throw"},
  };
  return all;
}

const SequentialSolution& Solutions::sequential() {
  if (!sequential_) sequential_ = solve_sequential(rules_);
  return *sequential_;
}

const SimultaneousSolution& Solutions::simultaneous() {
  if (!simultaneous_) simultaneous_ = solve_simultaneous(rules_);
  return *simultaneous_;
}

Policy optimal_policy(const Rules& rules, Solutions& solutions) {
  Policy policy(rules.goal, rules.max_dice);
  for (int mine = 0; mine < rules.goal; ++mine)
    for (int theirs = 0; theirs < rules.goal; ++theirs) {
      if (rules.turns == Turns::sequential)
        policy.set_pure(mine, theirs, solutions.sequential().best_dice(mine, theirs));
      else
        policy.set_mixed(mine, theirs, solutions.simultaneous().mixed(mine, theirs));
    }
  return policy;
}

Policy compile_strategy(const JsonNode& spec, const Rules& rules, Solutions& solutions) {
  const StrategyFamily& family = known_family(spec.at("family"), "battle", families());
  spec.only_keys(family.keys());
  // The declared range is the static one; the rules bound it further.
  if (family.name == "fixed")
    return constant_policy(rules, static_cast<int>(spec.at("dice").integer(1, rules.max_dice)));
  if (family.name == "blind") return constant_policy(rules, blind_dice(rules.max_dice));
  if (family.name == "optimal") return optimal_policy(rules, solutions);
  Policy policy(rules.goal, rules.max_dice);  // random
  for (int mine = 0; mine < rules.goal; ++mine)
    for (int theirs = 0; theirs < rules.goal; ++theirs) policy.set_uniform(mine, theirs);
  return policy;
}

}  // namespace dicesim::battle
