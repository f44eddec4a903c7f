#include "games/tenk/tenk_exact.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "games/tenk/tenk_turn_play.h"

namespace dicesim::tenk {

ThrowStats throw_stats(const Scoring& scoring, int dice, int pending) {
  ThrowStats t;
  std::array<double, kDiceSlots> points{};
  for (int i = 0; i < scoring.multisets(dice); ++i) {
    const double p = scoring.probability(dice, i);
    const Step step = scoring.best(dice, pending, i);
    const int next = step_dice(step);  // 0 for a bust
    t.p[next] += p;
    points[next] += p * step_points(step);
  }
  for (int k = 1; k <= kMaxHand; ++k) {
    if (t.p[k] > 0) t.s[k] = points[k] / t.p[k];
    t.any_p += t.p[k];
    t.gain += points[k];
  }
  if (t.any_p > 0) t.any_s = t.gain / t.any_p;
  return t;
}

namespace {

// W(I, p) with a pending face: the states (I, p) lead to (K, p') with
// p' != p, so there is no ordering to solve them in one pass; iterate
// W <- sum P (S + W) from 0, which converges geometrically (every throw ends
// the run with probability at least min P(I,0) > 0).
std::array<std::array<double, kDiceSlots>, kDiceSlots> pending_gather(const Scoring& scoring) {
  const Rules& rules = scoring.rules();
  std::array<std::array<double, kDiceSlots>, kDiceSlots> w{};
  for (int sweep = 0; sweep < 100000; ++sweep) {
    double change = 0;
    for (int n = 1; n <= rules.dice; ++n)
      for (int pending = 0; pending < rules.pending_faces(); ++pending) {
        if (!rules.reachable(n, pending)) continue;
        double sum = 0;
        for (int i = 0; i < scoring.multisets(n); ++i) {
          const Step step = scoring.best(n, pending, i);
          if (step == kBust) continue;
          sum += scoring.probability(n, i) * (step_points(step) + w[step_dice(step)][step_pending(step)]);
        }
        change = std::max(change, std::abs(sum - w[n][pending]));
        w[n][pending] = sum;
      }
    if (change < 1e-10) break;
  }
  return w;
}

}  // namespace

CriticalScores critical_scores(const Scoring& scoring) {
  // W(I) = sum_K P(I,K) (W(K) + S(I,K)): K < I or K = dice (hot dice), so
  // each W(I) is a + b W(dice), solved from the smallest I up.
  const int dice = scoring.rules().dice;
  std::array<ThrowStats, kDiceSlots> t;
  for (int n = 1; n <= dice; ++n) t[n] = throw_stats(scoring, n);
  std::array<double, kDiceSlots> a{}, b{};
  for (int n = 1; n <= dice; ++n) {
    for (int k = 1; k <= dice; ++k) {
      if (t[n].p[k] == 0) continue;
      a[n] += t[n].p[k] * t[n].s[k];
      if (k == dice) {
        b[n] += t[n].p[k];
      } else {
        a[n] += t[n].p[k] * a[k];
        b[n] += t[n].p[k] * b[k];
      }
    }
  }
  CriticalScores out;
  const double w_full = a[dice] / (1 - b[dice]);
  const auto critical = [](double w, double zero) {
    return zero > 0 ? w * (1 - zero) / zero : std::numeric_limits<double>::infinity();
  };
  for (int n = 1; n <= dice; ++n) out.w[n] = a[n] + b[n] * w_full;
  if (scoring.rules().add_to_triple) {
    const auto w = pending_gather(scoring);
    for (int n = 1; n <= dice; ++n) {
      out.w[n] = w[n][kNoPending];
      for (int pending = 1; pending < kDiceSlots; ++pending)
        out.cs_pending[n][pending] = critical(w[n][pending], throw_stats(scoring, n, pending).p[0]);
    }
  }
  for (int n = 1; n <= dice; ++n) {
    out.cs[n] = critical(out.w[n], t[n].p[0]);
    out.cs_pending[n][kNoPending] = out.cs[n];
    if (!scoring.rules().add_to_triple)
      for (int pending = 1; pending < kDiceSlots; ++pending) out.cs_pending[n][pending] = out.cs[n];
  }
  return out;
}

std::string_view pattern_name(Pattern p) {
  static constexpr std::string_view names[kPatterns] = {
      "6-of-a-kind", "5-of-a-kind", "Two 3-of-a-kind",    "Straight", "Three pairs",
      "4-of-a-kind", "3-of-a-kind", "Add to 3-of-a-kind", "1 or 5",   "nothing"};
  return names[static_cast<int>(p)];
}

Pattern classify(const Scoring& scoring, int dice, int pending, int i) {
  const Rules& r = scoring.rules();
  if (scoring.best(dice, pending, i) == kBust) return Pattern::nothing;
  const DiceMultiset& m = scoring.multiset(dice, i);
  if (pending != kNoPending && m.count[pending - 1] > 0) return Pattern::add;
  int most = 0, triples = 0, pairs = 0, ones = 0;
  for (int f = 1; f <= kFaces; ++f) {
    const int c = m.count[f - 1];
    // An n of a kind counts only where it scores (a triple of a face worth 0 does not).
    if (c >= 3 && r.triple[f] > 0) most = std::max(most, c), triples += c == 3;
    pairs += c == 2;
    ones += c == 1;
  }
  if (most == 6) return Pattern::six_kind;
  if (most == 5) return Pattern::five_kind;
  if (triples == 2) return Pattern::two_triples;
  if (r.straight > 0 && ones == 6) return Pattern::straight;
  if (r.three_pairs > 0 && pairs == 3) return Pattern::three_pairs;
  if (most == 4) return Pattern::four_kind;
  if (most == 3) return Pattern::triple;
  return Pattern::singles;
}

std::array<PatternStats, kPatterns> pattern_stats(const Scoring& scoring, int dice, int pending) {
  std::array<PatternStats, kPatterns> out{};
  std::array<double, kPatterns> points{}, adds{};
  for (int i = 0; i < scoring.multisets(dice); ++i) {
    const int p = static_cast<int>(classify(scoring, dice, pending, i));
    const std::uint64_t ways = scoring.ways(dice, i);
    out[p].outcomes += ways;
    points[p] += double(ways) * step_points(scoring.best(dice, pending, i));
    if (pending != kNoPending) adds[p] += double(ways) * scoring.multiset(dice, i).count[pending - 1];
  }
  for (int p = 0; p < kPatterns; ++p)
    if (out[p].outcomes > 0) {
      out[p].mean_points = points[p] / double(out[p].outcomes);
      out[p].mean_adds = adds[p] / double(out[p].outcomes);
    }
  return out;
}

std::uint64_t scoring_outcomes(const Scoring& scoring, int dice, int pending) {
  std::uint64_t n = 0;
  for (int i = 0; i < scoring.multisets(dice); ++i)
    if (scoring.best(dice, pending, i) != kBust) n += scoring.ways(dice, i);
  return n;
}

namespace {

// The value of a position after setting aside, for totals past the table:
// banking (every family banks there).
double value_at(const Policy& policy, const std::vector<double>& d, int regime, int pending, int dice, int total) {
  if (total / kPoint >= policy.slots()) return total;
  return d[policy.index(regime, pending, dice, total)];
}

}  // namespace

double solve_optimal_expected(const Scoring& scoring, Policy& policy) {
  const Rules& rules = scoring.rules();
  std::vector<double> d(std::size_t(kRegimes) * kDiceSlots * kDiceSlots * policy.slots(), 0.0);  // after setting aside
  std::vector<double> t(d.size(), 0.0);                                                          // throwing from there
  for (int regime = 0; regime < kRegimes; ++regime) {
    const int minimum = regime == 0 ? rules.bank_minimum : rules.high_bank_minimum;
    // Every move scores at least one point step, so values at higher totals
    // are final when a total is reached: one pass from the top.
    for (int slot = policy.slots() - 1; slot >= 0; --slot) {
      const int total = slot * kPoint;
      for (int dice = 1; dice <= rules.dice; ++dice)
        for (int pending = 0; pending < rules.pending_faces(); ++pending) {
          double throw_value = 0;
          for (int i = 0; i < scoring.multisets(dice); ++i) {
            double best = 0;  // a bust
            const Move* moves = scoring.moves(dice, pending, i);
            for (int m = 0; m < scoring.move_count(dice, pending, i); ++m) {
              const Step step = scoring.step(dice, moves[m]);
              best = std::max(
                  best, value_at(policy, d, regime, step_pending(step), step_dice(step), total + step_points(step)));
            }
            throw_value += scoring.probability(dice, i) * best;
          }
          const bool hot = dice == rules.dice && total > 0;
          const bool may = total >= minimum && !(hot && rules.no_stop_on_hot_dice);
          const std::size_t k = policy.index(regime, pending, dice, total);
          t[k] = throw_value;
          d[k] = may ? std::max<double>(total, throw_value) : throw_value;
          policy.set_throws(regime, pending, dice, total, !may || throw_value > total);
        }
    }
    const double fresh = t[policy.index(regime, kNoPending, rules.dice, 0)];
    for (int slot = 0; slot < policy.slots(); ++slot)
      for (int dice = 1; dice <= rules.dice; ++dice)
        for (int pending = 0; pending < rules.pending_faces(); ++pending) {
          const int total = slot * kPoint;
          policy.set_takes_over(regime, pending, dice, total, t[policy.index(regime, pending, dice, total)] > fresh);
        }
  }
  if (rules.partial_set_aside) policy.value = d;
  return t[policy.index(0, kNoPending, rules.dice, 0)];
}

// Positions reached with a smaller chance are not followed (IV.1's long
// chains of hot dice): a turn's distribution loses less than 10^-20.
constexpr double kNegligibleMass = 1e-25;

std::vector<double> turn_distribution(const Scoring& scoring, const Policy& policy, int banked, int beat, int seat,
                                      int theirs) {
  const Rules& rules = scoring.rules();
  const int regime = regime_of(rules, banked);
  const int chase_beat = beat >= 0 && policy.chase ? beat : -1;
  // Totals past the policy's table are forced throws only (hot dice under
  // IV.1); the mass that would go beyond this bound is kept at the bound.
  const int top = policy.slots() - 1 + 20000 / kPoint;
  std::vector<double> result(top + 1, 0.0);
  // mass[(slot * kDiceSlots + dice) * kDiceSlots + pending]: about to throw.
  std::vector<double> mass(std::size_t(top + 1) * kDiceSlots * kDiceSlots, 0.0);
  mass[(0 * kDiceSlots + rules.dice) * kDiceSlots + kNoPending] = 1;
  for (int slot = 0; slot <= top; ++slot)
    for (int dice = 1; dice <= rules.dice; ++dice)
      for (int pending = 0; pending < rules.pending_faces(); ++pending) {
        const double here = mass[(std::size_t(slot) * kDiceSlots + dice) * kDiceSlots + pending];
        if (here < kNegligibleMass) continue;
        const int total = slot * kPoint;
        for (int i = 0; i < scoring.multisets(dice); ++i) {
          const double p = here * scoring.probability(dice, i);
          const Step step = rules.partial_set_aside ? choose_move(scoring, policy, regime, dice, pending, i, total)
                                                    : scoring.best(dice, pending, i);
          if (step == kBust) {
            result[0] += p;
            continue;
          }
          const int after = total + step_points(step);
          const int next = step_dice(step), next_pending = step_pending(step);
          const int next_slot = std::min(after / kPoint, top);
          switch (after_throw(rules, policy, seat, banked, theirs, regime, chase_beat, after, next, next_pending,
                              step_hot(step))) {
            case AfterThrow::bust:
              result[0] += p;
              break;
            case AfterThrow::bank:
              result[next_slot] += p;
              break;
            case AfterThrow::throw_on:
              if (next_slot == top)
                result[next_slot] += p;
              else
                mass[(std::size_t(next_slot) * kDiceSlots + next) * kDiceSlots + next_pending] += p;
              break;
          }
        }
      }
  return result;
}

}  // namespace dicesim::tenk
