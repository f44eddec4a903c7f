#include "games/yahtzee/yahtzee_strategies.h"

#include <memory>
#include <stdexcept>
#include <string>

#include "games/yahtzee/yahtzee_heuristics.h"

namespace dicesim::yahtzee {
namespace {

Parameter bonus_push_parameter() {
  return integer_parameter("bonus_push", 0, 10,
                           "while the upper bonus is not won, each point an upper box scores above (below) three of "
                           "its face counts this many times more (less) when choosing the box")
      .with_default(1);
}

}  // namespace

const std::vector<StrategyFamily>& families() {
  static const std::vector<StrategyFamily> all = {
      {"optimal_mean", {}, "maximise the expected final score (the solitaire optimum; Verhoeff, Glenn)"},
      {"best_box",
       {bonus_push_parameter(),
        integer_parameter("yahtzee_from", 2, 6,
                          "with this many of a face or more and the Yahtzee box open (or holding 50), keep that face "
                          "for a Yahtzee (6: never)")
            .with_default(4)},
       "aim at the box that scores best now: keep its dice, score the best box (pushed towards the upper bonus)"},
      {"upper_first",
       {integer_parameter("par", 1, 5, "score an open upper box once this many dice show its face").with_default(3)},
       "fill the upper section first: keep the face shown most whose upper box is open, score it there once `par` "
       "dice show it, else the box that scores most now"},
      {"keep_most",
       {integer_parameter("min_count", 1, 5, "keep the most common face only when at least this many dice show it")
            .with_default(2)},
       "keep every die of the face shown most (the higher face on ties), throw the rest; score the box that scores "
       "most now"},
  };
  return all;
}

const Optimum& Solutions::optimum() {
  std::call_once(solved_, [&] { optimum_ = solve_optimum(rules_); });
  return *optimum_;
}

namespace {

// The plan that maximises the expected score, from the optimum's values,
// which values() gives when a card's plan is first asked for.
template <class Values>
PlanOf best_turn_plan(const Rules& rules, Values values) {
  auto space = std::make_shared<CardSpace>(rules);
  auto table = std::make_shared<ScoreTable>(rules);
  return [space, table, values](const Card& card, TurnPlan& plan) { best_turn(*space, *table, card, values(), &plan); };
}

}  // namespace

PlanOf optimal_plan(const Optimum& optimum) {
  const double* values = optimum.value.data();
  return best_turn_plan(optimum.rules, [values] { return values; });
}

PlanOf heuristic_plan_of(const Rules& rules, const Heuristic& h) {
  auto table = std::make_shared<ScoreTable>(rules);
  return [table, h](const Card& card, TurnPlan& plan) { heuristic_plan(*table, h, card, plan); };
}

PlanOf plan_of(const JsonNode& spec, const Rules& rules, Solutions& solutions) {
  const StrategyFamily& family = known_family(spec.at("family"), "yahtzee", families());
  spec.only_keys(family.keys());
  auto integer = [&](std::string_view key) {
    const Parameter& p = named(family.parameters, key);
    const std::optional<JsonNode> node = spec.find(p.name);
    return node ? static_cast<int>(p.read_integer(*node)) : p.default_value->get<int>();
  };
  if (family.name == "optimal_mean") {
    // Solved when the plan is first followed, not when the config is read
    // (run --dry-run, validate).
    return best_turn_plan(rules, [&solutions] { return solutions.optimum().value.data(); });
  }
  Heuristic h;
  if (family.name == "best_box") {
    h.aim = Heuristic::Aim::best_box;
    h.bonus_push = integer("bonus_push");
    h.yahtzee_from = integer("yahtzee_from");
  } else if (family.name == "upper_first") {
    h.aim = Heuristic::Aim::upper_first;
    h.par = integer("par");
  } else if (family.name == "keep_most") {
    h.aim = Heuristic::Aim::keep_most;
    h.min_count = integer("min_count");
  } else {
    throw std::logic_error("yahtzee family " + std::string(family.name) + " is listed but not compiled");
  }
  return heuristic_plan_of(rules, h);
}

}  // namespace dicesim::yahtzee
