// Two-player 10,000 solved for the win (tenk_win.h): the solution's
// storage, a compiled strategy as a SeatRule, the solve's memory and
// limits, and the entry points; the solve itself is win_solve::Solver
// (tenk_win_solver.h).
#include "games/tenk/tenk_win.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include "engine/memory_budget.h"
#include "games/tenk/tenk_win_solver.h"

namespace dicesim::tenk {

WinSolution::WinSolution(const Rules& rules)
    : units_(rules.target / kPoint), values_(std::size_t(2) * units_ * units_) {}

bool WinSolution::consistent(int units) const {
  if (units_ != units || values_.size() != std::size_t(2) * units * units) return false;
  return std::all_of(values_.begin(), values_.end(), [](const WinValue& v) {
    return v.win >= 0 && v.tie >= 0 && v.win + v.tie <= 1 + 1e-9;  // also false for NaN
  });
}

bool PolicyRule::banks(int, int mine, int, int t, int kind) const {
  const int banked = mine * kPoint, total = t * kPoint;
  if (banked + total >= rules_.target) return true;
  return !policy_.throws(regime_of(rules_, banked), landings_.pending(kind), landings_.dice(kind), total);
}

bool PolicyRule::takes_over(int, int mine, int, const Handed& h, int) const {
  return policy_.takes_over(regime_of(rules_, mine * kPoint), h.pending, h.dice, h.total * kPoint);
}

// choose_move's value of a part: without values every part is worth the
// same, so the first (the best move) is kept.
double PolicyRule::part_value(int, int regime, int after, int kind) const {
  if (policy_.value.empty()) return 0;
  return policy_.value[policy_.index(regime, landings_.pending(kind), landings_.dice(kind), after * kPoint)];
}

std::uint64_t win_solver_bytes(const Rules& rules) {
  const std::uint64_t units = std::uint64_t(rules.target / kPoint);
  std::uint64_t bytes = 2 * units * units * sizeof(WinValue);  // WinSolution's values
  // IV.5: each turn start (seat, mine, theirs) keeps the totals 1..theirs.
  // The limit counts them all, though at most units^3 / 6 + units^2 of them
  // a seat are alive at once (win_solve::Solver::handed_at): about a third.
  if (rules.continue_previous)
    bytes += units * units * units * std::uint64_t(Landings(rules).states()) * sizeof(WinValue);
  return bytes;
}

void charge_win_solve(const Rules& rules, const std::string& what) {
  memory_budget().charge_once("tenk win " + rules_json(rules).dump(), win_solver_bytes(rules), what);
}

std::optional<std::string> win_solver_refusal(const Rules& rules, bool playing_to_win) {
  const int most = playing_to_win ? kMostWinTarget : kMostEvaluatedTarget;
  const std::string target = "target " + std::to_string(rules.target) + ": ";
  if (rules.target > most)
    return target + (playing_to_win ? "optimal_win is solved for targets up to " + std::to_string(most) +
                                          " (the solve grows as the cube of the target: about a minute there)"
                                    : "two-player games are evaluated exactly for targets up to " +
                                          std::to_string(most) + " (the odds grow as the square of the target)");
  if (const std::uint64_t bytes = win_solver_bytes(rules); bytes > kMostWinBytes)
    return target + "with continue_previous the two-player solver would hold " + std::to_string(bytes >> 20) +
           " MiB, more than its limit of " + std::to_string(kMostWinBytes >> 20) + " MiB";
  return std::nullopt;
}

namespace {

void require_within_limits(const Rules& rules, bool playing_to_win) {
  if (const std::optional<std::string> why = win_solver_refusal(rules, playing_to_win)) throw InputError(*why);
}

}  // namespace

WinSolution solve_win(const Scoring& scoring, bool keep_handed) {
  require_within_limits(scoring.rules(), true);
  charge_win_solve(scoring.rules(), "10,000's two-player win-optimal solve");
  win_solve::Solver solver(scoring, nullptr, nullptr);
  if (keep_handed) solver.keep_handed();
  WinSolution solution = solver.solve();
  if (keep_handed) solver.hand_over_handed(solution);
  return solution;
}

WinSolution evaluate_win(const Scoring& scoring, const SeatRule& first, const SeatRule& second) {
  require_within_limits(scoring.rules(), false);
  return win_solve::Solver(scoring, &first, &second).solve();
}

GameShape game_shape(const Scoring& scoring, const SeatRule& first, const SeatRule& second) {
  require_within_limits(scoring.rules(), false);
  return win_solve::Solver(scoring, &first, &second).shape();
}

}  // namespace dicesim::tenk
