// Yahtzee's strategy families (README: "Strategy families"): the solitaire
// optimum and the rules of thumb of yahtzee_heuristics.h, each compiled to a
// plan per card (yahtzee_strategy_turns.h plays and evaluates it).
#pragma once

#include <mutex>
#include <optional>
#include <vector>

#include "config/json_input.h"
#include "games/yahtzee/yahtzee_heuristics.h"
#include "games/yahtzee/yahtzee_optimum.h"
#include "games/yahtzee/yahtzee_strategy_turns.h"
#include "strategies/family.h"

namespace dicesim::yahtzee {

const std::vector<StrategyFamily>& families();

// The optimum, solved once when a strategy first asks for it (from any thread).
class Solutions {
 public:
  explicit Solutions(const Rules& rules) : rules_(rules) {}
  const Optimum& optimum();

 private:
  Rules rules_;
  std::once_flag solved_;
  std::optional<Optimum> optimum_;
};

// What a strategy does from each card, for the tables to follow. The
// optimum's plan solves it when first asked for a card (call
// solutions.optimum() first to solve it outside a parallel loop).
PlanOf plan_of(const JsonNode& spec, const Rules& rules, Solutions& solutions);
// The optimum's plan (`solve yahtzee`, tests).
PlanOf optimal_plan(const Optimum& optimum);
PlanOf heuristic_plan_of(const Rules& rules, const Heuristic& h);

}  // namespace dicesim::yahtzee
