// The two-player win solve (tenk_win_solver.h): the solver set up, the
// passes over the score sums from high to low, each pair of scores solved
// by policy iteration, and the decisions recorded into the policy.
#include "games/tenk/tenk_win_solver.h"

#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <vector>

#include "engine/peak_memory.h"
#include "engine/progress.h"

namespace dicesim::tenk::win_solve {
namespace {

// Where chasing a score further than this many units has a chance below
// kNegligible, the first seat stops padding: the error is below it.
constexpr double kNegligible = 1e-16;
constexpr int kPolicyIterations = 12;

}  // namespace

Solver::Solver(const Scoring& scoring, const SeatRule* first, const SeatRule* second)
    : rules_(scoring.rules()),
      throws_(throw_outcomes(scoring)),
      landings_(rules_),
      solution_(rules_),
      units_(solution_.units()),
      seat_rule_{first, second} {
  if (rules_.target % kPoint != 0) throw std::invalid_argument("the target is not a multiple of 50");
  index_throws();
  if (!rules_.exact_target) reach_span_ = negligible_chase();
  reach_ = std::make_unique<ReachChances>(rules_, throws_, units_ + reach_span_ + 2, rules_.exact_target);
  if (rules_.continue_previous) handed_.resize(std::size_t(2 * units_ - 1) * units_);
  if (!first || !second) solution_.policy = WinPolicy(rules_, units_);
}

WinSolution Solver::solve() {
  const auto start = std::chrono::steady_clock::now();
  Progress progress("10,000 solved for the win: score sums", 2 * units_ - 1);  // polls the stop flag too
  const bool parallel = !seat_rule_[0] && !seat_rule_[1];
  tbb::enumerable_thread_specific<Scratch> scratches;
  for (int sum = 2 * (units_ - 1); sum >= 0; --sum) {
    const int most_a = std::min(sum, units_ - 1), least_a = std::max(0, sum - (units_ - 1));
    const int pairs = most_a - least_a + 1;
    std::vector<PairDecisions> decided(pairs);
    if (rules_.continue_previous) allocate_handed(sum);
    const auto solve_one = [&](int i) { solve_pair(scratches.local(), most_a - i, sum - (most_a - i), decided[i]); };
    if (parallel)
      tbb::parallel_for(0, pairs, solve_one);
    else
      for (int i = 0; i < pairs; ++i) solve_one(i);
    for (int i = 0; i < pairs; ++i) record(most_a - i, sum - (most_a - i), decided[i]);
    if (rules_.continue_previous && !keep_handed_) release_handed(sum);
    progress.advance();
  }
  for (const Scratch& scratch : scratches) {
    solution_.stats.turn_states += scratch.turn_states;
    solution_.stats.most_iterations = std::max(solution_.stats.most_iterations, scratch.most_iterations);
  }
  solution_.stats.positions = std::uint64_t(2) * units_ * units_;
  solution_.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  solution_.stats.peak_bytes = peak_resident_bytes();
  return std::move(solution_);
}

void Solver::hand_over_handed(WinSolution& solution) const {
  const int states = landings_.states();
  solution.handed_offset.resize(std::size_t(2) * units_ * units_);
  solution.handed_values.clear();
  for (int seat = 0; seat < 2; ++seat)
    for (int mine = 0; mine < units_; ++mine)
      for (int theirs = 0; theirs < units_; ++theirs) {
        solution.handed_offset[(std::size_t(seat) * units_ + mine) * units_ + theirs] = solution.handed_values.size();
        for (int t = 1; t <= theirs; ++t)
          for (int s = 0; s < states; ++s) solution.handed_values.push_back(handed_at(seat, mine, theirs, t, s));
      }
}

void Solver::index_throws() {
  const int kinds = landings_.count();
  first_group_ = first_groups(landings_, throws_);
  for (int s = 0; s < landings_.states(); ++s) {
    const ThrowOutcomes& t = throws_[landings_.dice(s) * kDiceSlots + landings_.pending(s)];
    bust_.push_back(t.bust);
    fewest_busts_ = std::min(fewest_busts_, t.bust);
    for (const ThrowGroup& g : t.groups) {
      group_probability_.push_back(g.probability);
      first_option_.push_back(static_cast<int>(option_offset_.size()));
      for (int k = g.first; k < g.first + g.count; ++k) {
        const ThrowOption& o = t.options[k];
        const int kind = landings_.of(o.dice, o.pending, o.hot);
        option_offset_.push_back(o.points * kinds + kind);
        option_kind_.push_back(kind);
        option_points_.push_back(o.points);
        most_points_ = std::max(most_points_, o.points);
      }
    }
  }
  first_option_.push_back(static_cast<int>(option_offset_.size()));
}

int Solver::negligible_chase() const {
  const ReachChances probe(rules_, throws_, units_ + 4000, false);
  for (int need = 1; need <= probe.most(); ++need)
    if (probe.fresh(need) < kNegligible) return need;
  return probe.most();
}

void Solver::allocate_handed(int sum) {
  const int lowest = std::max(0, sum - (units_ - 1));
  for (int t = 1; t <= sum && t < units_; ++t)
    if (const int starts = std::min(sum - t, units_ - 1) - lowest + 1; starts > 0)
      handed_[std::size_t(sum - t) * units_ + t].resize(std::size_t(starts) * 2 * landings_.states());
}

void Solver::release_handed(int sum) {
  for (int t = 1; t < units_; ++t) std::vector<WinValue>().swap(handed_[std::size_t(sum) * units_ + t]);
}

void Solver::solve_pair(Scratch& work, int a, int b, PairDecisions& decided) {
  WinValue& x = solution_.at(0, a, b);
  WinValue& y = solution_.at(1, b, a);
  // Start from the neighbouring pair's values: the policies rarely differ.
  x = b + 1 < units_ ? solution_.at(0, a, b + 1) : WinValue{0.5, 0};
  y = a + 1 < units_ ? solution_.at(1, b, a + 1) : WinValue{0.5, 0};
  for (int iteration = 1; iteration <= kPolicyIterations; ++iteration) {
    work.most_iterations = std::max(work.most_iterations, iteration);
    Stability keep_x, keep_y;
    const Linear lx = turn(work, 0, a, b, handed_over(y), keep_x);
    const Linear ly = turn(work, 1, b, a, handed_over(x), keep_y);
    // x = lx + lx.bust * handed_over(y), y = ly + ly.bust * handed_over(x)
    const double both = 1 - lx.bust * ly.bust;
    if (both <= 0) {  // neither seat can ever bank: the game never ends
      x = y = {0, 1};
      return finish_pair(work, a, b, decided);
    }
    x.tie = (lx.tie + lx.bust * ly.tie) / both;
    y.tie = ly.tie + ly.bust * x.tie;
    x.win = (lx.win + lx.bust * (1 - y.tie) - lx.bust * (ly.win + ly.bust * (1 - x.tie))) / both;
    y.win = ly.win + ly.bust * (1 - x.win - x.tie);
    if (keep_x.holds(handed_over(y).utility()) && keep_y.holds(handed_over(x).utility()))
      return finish_pair(work, a, b, decided);  // the policies stand
  }
  // Policy iteration may cycle between near-equal policies of the two
  // seats; the plain fixed-point iteration contracts by the product of
  // the two bust chances, so it converges from wherever it stopped.
  for (int sweep = 0; sweep < 10000; ++sweep) {
    const WinValue old_x = x, old_y = y;
    Stability ignored;
    x = apply(turn(work, 0, a, b, handed_over(y), ignored), handed_over(y));
    y = apply(turn(work, 1, b, a, handed_over(x), ignored), handed_over(x));
    if (std::abs(x.win - old_x.win) + std::abs(x.tie - old_x.tie) + std::abs(y.win - old_y.win) +
            std::abs(y.tie - old_y.tie) <
        1e-15)
      break;
  }
  finish_pair(work, a, b, decided);
}

void Solver::finish_pair(const Scratch& work, int a, int b, PairDecisions& decided) {
  const int states = landings_.states(), kinds = landings_.count();
  for (int seat = 0; seat < 2; ++seat) {
    const int mine = seat == 0 ? a : b, theirs = seat == 0 ? b : a;
    SeatDecisions& mine_decided = decided.seat[seat];
    const SeatRule* rule = seat_rule_[seat];
    if (!rule) {
      mine_decided.top = work.tops[seat];
      mine_decided.banks.assign(work.decided[seat].begin(),
                                work.decided[seat].begin() + std::size_t(work.tops[seat] + 1) * kinds);
      if (rules_.partial_set_aside)
        mine_decided.parts =
            WinPolicy::runs_of(work.kept_parts[seat], work.tops[seat] + 2, static_cast<int>(group_probability_.size()));
    }
    if (!rules_.continue_previous) continue;
    const WinValue fresh = solution_.at(seat, mine, theirs);
    const WinValue on_bust = handed_over(solution_.at(1 - seat, theirs, mine));
    if (!rule) mine_decided.takes.resize(std::size_t(theirs) * states);
    for (int t = 1; t <= theirs; ++t)
      for (int s = 0; s < states; ++s) {
        const Handed h = handed(t, s);
        const WinValue take = apply(work.throwing[seat][std::size_t(t) * states + s], on_bust);
        const bool takes = rule ? rule->takes_over(seat, mine, theirs, h, s) : take.utility() > fresh.utility();
        handed_at(seat, mine, theirs, t, s) = takes ? take : fresh;
        if (!rule) mine_decided.takes[std::size_t(t - 1) * states + s] = takes;
      }
  }
}

void Solver::record(int a, int b, const PairDecisions& decided) {
  const int states = landings_.states(), kinds = landings_.count();
  WinPolicy& policy = solution_.policy;
  for (int seat = 0; seat < 2; ++seat) {
    if (seat_rule_[seat]) continue;
    const int mine = seat == 0 ? a : b, theirs = seat == 0 ? b : a;
    const SeatDecisions& d = decided.seat[seat];
    policy.set_top(seat, mine, theirs, d.top);
    for (int t = 1; t <= d.top + 1; ++t)
      for (int kind = 0; kind < kinds; ++kind)
        policy.set_bank(seat, mine, theirs, t, kind, d.banks[std::size_t(t - 1) * kinds + kind]);
    if (rules_.partial_set_aside) policy.set_runs(seat, mine, theirs, d.parts);
    for (int t = 1; t <= static_cast<int>(d.takes.size()) / std::max(1, states); ++t)
      for (int s = 0; s < states; ++s)
        policy.set_take(seat, mine, theirs, handed(t, s), s, d.takes[std::size_t(t - 1) * states + s]);
  }
}

}  // namespace dicesim::tenk::win_solve
