#include "games/tenk/tenk_strategies.h"

#include <cmath>
#include <iostream>
#include <stdexcept>

#include "engine/memory_budget.h"
#include "games/tenk/tenk_table_win.h"
#include "games/tenk/tenk_turn_sampler.h"
#include "games/tenk/tenk_win_cache.h"

namespace dicesim::tenk {
namespace {

// Fills a policy from a rule "throw at (dice, pending, total)?"; taking over
// a previous player's position (IV.5) follows the same rule.
template <class Throws>
Policy from_rule(const Rules& rules, Throws throws) {
  Policy policy(rules);
  for (int regime = 0; regime < kRegimes; ++regime)
    for (int pending = 0; pending < rules.pending_faces(); ++pending)
      for (int dice = 1; dice <= rules.dice; ++dice)
        for (int slot = 0; slot < policy.slots(); ++slot) {
          const bool go = throws(dice, pending, slot * kPoint);
          policy.set_throws(regime, pending, dice, slot * kPoint, go);
          policy.set_takes_over(regime, pending, dice, slot * kPoint, go);
        }
  return policy;
}

Policy bank_at(const JsonNode& spec, const Rules& rules) {
  std::array<int, kDiceSlots> limit{};
  // A total that no turn can reach exactly would silently bank at the next
  // multiple of kPoint: refuse it.
  const auto read_total = [&](const JsonNode& node) {
    const auto total = static_cast<int>(node.integer(0, rules.target));
    if (total % kPoint != 0)
      node.fail("expected a multiple of " + std::to_string(kPoint) + " (every score is), got " + std::to_string(total));
    return total;
  };
  if (auto total = spec.find("total")) {
    if (spec.has("per_dice")) total->fail("give either total or per_dice, not both");
    limit.fill(read_total(*total));
  } else if (auto per_dice = spec.find("per_dice")) {
    const std::vector<JsonNode> values = per_dice->elements();
    if (static_cast<int>(values.size()) != rules.dice)
      per_dice->fail("expected " + std::to_string(rules.dice) + " totals (for 1.." + std::to_string(rules.dice) +
                     " dice left), got " + std::to_string(values.size()));
    for (int n = 1; n <= rules.dice; ++n) limit[n] = read_total(values[n - 1]);
  } else {
    spec.fail("bank_at needs \"total\" or \"per_dice\"");
  }
  return from_rule(rules, [&](int dice, int, int total) { return total < limit[dice]; });
}

Policy critical_score(const JsonNode& spec, const Scoring& scoring, Solutions& solutions) {
  const CriticalScores& critical = solutions.critical_scores();
  const Rules& rules = scoring.rules();
  for (int n = 1; n <= rules.dice; ++n)
    for (int pending = 0; pending < rules.pending_faces(); ++pending)
      if (rules.reachable(n, pending) && !std::isfinite(critical.cs_pending[n][pending]))
        spec.at("family").fail("critical_score cannot play these rules: every throw with " + std::to_string(n) +
                               " in hand scores, so Cs(" + std::to_string(n) + ") is infinite and it would never bank");
  return from_rule(rules,
                   [&](int dice, int pending, int total) { return total <= critical.cs_pending[dice][pending]; });
}

Policy ev_heuristic(const JsonNode& spec, const Scoring& scoring) {
  const Rules& rules = scoring.rules();
  std::array<std::array<ThrowStats, kDiceSlots>, kDiceSlots> stats;
  for (int n = 1; n <= rules.dice; ++n)
    for (int pending = 0; pending < rules.pending_faces(); ++pending) {
      stats[n][pending] = throw_stats(scoring, n, pending);
      if (stats[n][pending].p[0] == 0 && rules.reachable(n, pending))
        spec.at("family").fail("ev_heuristic cannot play these rules: every throw with " + std::to_string(n) +
                               " in hand scores, so it would never bank");
    }
  // Expected gain of the next throw against the opportunity cost, the turn
  // total times the chance of scoring nothing.
  return from_rule(rules, [&](int dice, int pending, int total) {
    return stats[dice][pending].gain > total * stats[dice][pending].p[0];
  });
}

}  // namespace

const std::vector<StrategyFamily>& families() {
  const Parameter chase =
      boolean_parameter("chase", "in a last turn, throw on until the score beats the best at the table")
          .with_default(Policy{}.chase);
  // The rules bound a total by their target; its static range is the target's.
  const json most = named(rules_parameters(), "target").max;
  static const std::vector<StrategyFamily> all = {
      {"bank_at",
       {integer_parameter("total", 0, most, "bank once the turn total reaches this")
            .in_multiples_of(kPoint)
            .bounded_by("0..target, a multiple of 50"),
        integer_array_parameter("per_dice", 0, most, "[T_1, ..., T_dice]: bank at T_n with n dice for the next throw")
            .in_multiples_of(kPoint)
            .bounded_by("[T_1, ..., T_dice], each as total (instead of total)"),
        chase},
       "bank once the turn total reaches T (T_n with n dice for the next throw)"},
      {"critical_score", {chase}, "seed 000: bank once the turn total is above Cs(n) for the n dice in hand"},
      {"ev_heuristic",
       {chase},
       "seed 003's AI: throw while the expected gain of the next throw exceeds turn total x P(zero)"},
      {"optimal_expected", {chase}, "maximises the expected score of a turn exactly"},
      {"optimal_win",
       {integer_parameter("seats", 2, kMostTableWinSeats,
                          "play the table solve of this many seats, at tables of exactly that many (without it, or "
                          "2: the two-player solve)")
            .bounded_by("2..4 as memory allows (three seats: target 13,800 or less, seed 003 11,900; four: 2,350, with "
                        "last_turn 1,650)")},
       "maximises the chance of winning the game, padding past the target when that helps; two seats: solved once "
       "per rule set (about 5 s at target 10,000, 40 s under partial_set_aside) and cached, targets up to 20,000; "
       "with `seats` 3 or 4: the table solve where each seat maximises its own chance from every seat's score, "
       "solved when first played (three seats: 3 s at target 1,000, 70 s at 2,000), at tables of exactly that many"},
  };
  return all;
}

const CriticalScores& Solutions::critical_scores() {
  if (!critical_scores_) critical_scores_ = dicesim::tenk::critical_scores(scoring_);
  return *critical_scores_;
}

const Policy& Solutions::optimal() {
  if (!optimal_) {
    optimal_.emplace(scoring_.rules());
    optimal_mean_ = solve_optimal_expected(scoring_, *optimal_);
  }
  return *optimal_;
}

const std::shared_ptr<const WinSolution>& Solutions::win_solution() {
  if (!win_solution_) win_solution_ = cached_win_solution(scoring_, std::cerr);
  return win_solution_;
}

const std::shared_ptr<const TableWin>& Solutions::table_win(int seats) {
  std::shared_ptr<const TableWin>& table = table_wins_[seats];
  if (!table) table = std::make_shared<const TableWin>(solve_table_win(scoring_, seats, {}, true));
  return table;
}

const std::shared_ptr<const WinStrategy>& Solutions::win() {
  if (!win_) win_ = std::make_shared<const WinStrategy>(scoring_, win_solution()->policy);
  return win_;
}

double Solutions::optimal_mean() {
  optimal();
  return optimal_mean_;
}

Policy compile_strategy(const JsonNode& spec, const Scoring& scoring, Solutions& solutions) {
  const JsonNode family_node = spec.at("family");
  const StrategyFamily& family = known_family(family_node, "tenk", families());
  spec.only_keys(family.keys());
  Policy policy;
  if (family.name == "bank_at")
    policy = bank_at(spec, scoring.rules());
  else if (family.name == "critical_score")
    policy = critical_score(spec, scoring, solutions);
  else if (family.name == "ev_heuristic")
    policy = ev_heuristic(spec, scoring);
  else if (family.name == "optimal_expected")
    policy = solutions.optimal();
  else if (family.name == "optimal_win") {
    const std::optional<JsonNode> seats_node = spec.find("seats");
    const int seats = seats_node ? static_cast<int>(named(family.parameters, "seats").read_integer(*seats_node)) : 2;
    if (seats == 2) {
      if (const std::optional<std::string> why = win_solver_refusal(scoring.rules(), true)) family_node.fail(*why);
      charge_win_solve(scoring.rules(), spec.file() + ": " + spec.path() + " (solved once, or read from its cache)");
      // Its whole-turn tables, built when first played, stop growing at kWinBytes.
      memory_budget().charge_once("tenk win tables " + rules_json(scoring.rules()).dump(), TurnSampler::kWinBytes,
                                  spec.file() + ": " + spec.path() + " (its turn tables, at most)");
    } else if (const std::optional<std::string> why = table_win_refusal(scoring.rules(), seats, true)) {
      seats_node->fail(*why);
    } else {
      charge_table_win(scoring.rules(), seats, true,
                       seats_node->file() + ": " + seats_node->path() + " (solved when first played)");
    }
    policy = Policy(scoring.rules());
    policy.plays_to_win = true;
    policy.table_seats = seats == 2 ? 0 : seats;
  } else {
    throw std::logic_error("tenk family " + std::string(family.name) + " is listed but not compiled");
  }
  if (auto chase = spec.find("chase")) policy.chase = chase->boolean();
  return policy;
}

}  // namespace dicesim::tenk
