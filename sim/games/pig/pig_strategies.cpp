#include "games/pig/pig_strategies.h"

#include <algorithm>
#include <climits>
#include <stdexcept>
#include <string>

#include "games/pig/pig_table_win.h"

namespace dicesim::pig {

const std::vector<StrategyFamily>& families() {
  static const std::vector<StrategyFamily> all = {
      {"hold_at",
       {integer_parameter("at", 1, kMaxGoal, "the turn total to hold at (at most the goal)")
            .as_required()
            .bounded_by("smallest throw (2 one die, 4 two dice)..goal (a smaller goal: the goal)")},
       "hold once the turn total reaches `at` (and, as every strategy, when the goal is reached)"},
      {"optimal_turns",
       {integer_parameter("turns", 1, kMaxPhases, "the turns planned: P(reach the goal within them)").as_required()},
       "maximise P(reach the goal within `turns` turns) (the seed's stop numbers); then plan the next `turns`"},
      {"optimal_win",
       {integer_parameter("seats", 2, kMostTableSeats,
                          "play the table solve of this many seats, at tables of exactly that many (without it: the "
                          "two-player policy, answering the leading opponent at a larger table)")
            .bounded_by("2..4 as memory allows (four: one die to goal 107, two dice to 95)")},
       "maximise P(win) against a player who does the same (Neller and Presser); with `seats` (optional): the "
       "table solve of that many seats, each maximising its own P(win) from every seat's score, at tables of "
       "exactly that many"},
  };
  return all;
}

const WinSolution& Solutions::optimal_win() {
  if (!win_) win_ = solve_optimal_win(rules_);
  return *win_;
}

const TurnsSolution& Solutions::turns(int turns) {
  if (!turns_ || static_cast<int>(turns_->reach.size()) <= turns) turns_ = solve_turns(rules_, turns);
  return *turns_;
}

Policy hold_at(const Rules& rules, int at) {
  Policy policy(rules, 1);
  std::vector<std::uint8_t> hold(rules.goal);
  for (int k = 0; k < rules.goal; ++k) hold[k] = k >= at;
  for (int i = 0; i < rules.goal; ++i)
    for (int j = 0; j < rules.goal; ++j) policy.set_row(0, i, j, hold);
  return policy;
}

// Turn t of the plan (0-based) has turns - t turns left; the opponent's
// score does not matter. After the last turn of a plan, a new plan starts.
Policy optimal_turns(const Rules& rules, const TurnsSolution& solution, int turns) {
  Policy policy(rules, turns);
  for (int phase = 0; phase < turns; ++phase)
    for (int i = 0; i < rules.goal; ++i)
      for (int j = 0; j < rules.goal; ++j) policy.set_row(phase, i, j, solution.hold[turns - phase][i]);
  return policy;
}

namespace {

// hold_at's `at`: a turn total the turn can stop at. Below the smallest
// scoring throw it would act as that throw, above the goal as the goal; a
// goal below the smallest throw leaves only `at` = goal (throw to the goal).
int read_hold_at(const JsonNode& at, const Rules& rules) {
  const std::int64_t value = at.integer(INT64_MIN, INT64_MAX);  // out-of-range values get the reason below
  const int lowest = std::min(rules.smallest_throw(), rules.goal);
  const std::string range = ": use " + std::to_string(lowest) + ".." + std::to_string(rules.goal);
  if (value < lowest)
    at.fail("hold_at " + std::to_string(value) + " is never reached with " + std::to_string(rules.dice) +
            (rules.dice == 1 ? " die" : " dice") + " (a scoring throw adds at least " +
            std::to_string(rules.smallest_throw()) + ")" + range);
  if (value > rules.goal)
    at.fail("hold_at " + std::to_string(value) + " is never reached: reaching the goal (" + std::to_string(rules.goal) +
            ") ends the turn" + range);
  return static_cast<int>(value);
}

// optimal_win's "seats": a table the solver can hold in memory.
int read_table_seats(const JsonNode& node, const StrategyFamily& family, const Rules& rules) {
  const int seats = static_cast<int>(named(family.parameters, "seats").read_integer(node));
  if (const std::string why = table_win_refusal(rules, seats); !why.empty()) node.fail(why);
  charge_table_win(rules, seats, node.file() + ": " + node.path() + " (solved when first played)");
  return seats;
}

}  // namespace

CompiledStrategy compile_strategy(const JsonNode& spec, const Rules& rules, Solutions& solutions) {
  const StrategyFamily& family = known_family(spec.at("family"), "pig", families());
  spec.only_keys(family.keys());
  if (family.name == "hold_at") return {hold_at(rules, read_hold_at(spec.at("at"), rules))};
  if (family.name == "optimal_turns") {
    const int turns = static_cast<int>(named(family.parameters, "turns").read_integer(spec.at("turns")));
    return {optimal_turns(rules, solutions.turns(turns), turns)};
  }
  if (family.name == "optimal_win") {
    // The table solve is left to the game, which solves it when first played.
    if (const std::optional<JsonNode> seats = spec.find("seats"))
      return {Policy(rules, 1), read_table_seats(*seats, family, rules)};
    return {solutions.optimal_win().policy};
  }
  throw std::logic_error("pig family " + std::string(family.name) + " is listed but not compiled");
}

}  // namespace dicesim::pig
