// Exact 10,000: seed 000's tables (one throw: P(I,K), S(I,K); throwing
// until a zero: W(I), Cs(I)), seed 003's success and combination tables,
// the policy that maximises the expected score of a turn, and the exact
// distribution of a turn's score under any compiled policy.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "games/tenk/tenk.h"
#include "games/tenk/tenk_rules.h"

namespace dicesim::tenk {

// One throw of I dice with a pending face, setting aside every scoring die.
struct ThrowStats {
  std::array<double, kDiceSlots> p{};  // p[K]: the next throw has K dice (hot dice: K = dice); p[0]: nothing scores
  std::array<double, kDiceSlots> s{};  // s[K]: mean points given K
  double any_p = 0;                    // P(something scores)
  double any_s = 0;                    // mean points given something scores
  double gain = 0;                     // mean points, a zero throw counting 0 (= any_p * any_s)
};
ThrowStats throw_stats(const Scoring& scoring, int dice, int pending = kNoPending);

// Seed 000's Table 2 from Table 1: W(I), the mean score gathered throwing
// I dice until a zero, and Cs(I) = W(I)(1 - P(I,0)) / P(I,0). With
// add_to_triple, W and Cs also depend on the pending face: cs_pending[I][p]
// (cs_pending[I][0] == cs[I]).
struct CriticalScores {
  std::array<double, kDiceSlots> w{};
  std::array<double, kDiceSlots> cs{};  // infinite where nothing-scores has probability 0
  std::array<std::array<double, kDiceSlots>, kDiceSlots> cs_pending{};
};
CriticalScores critical_scores(const Scoring& scoring);

// Seed 003's classification of a throw by its dice pattern (the author's
// rows), highest first; only combinations that score under the rules count.
enum class Pattern {
  six_kind,
  five_kind,
  two_triples,
  straight,
  three_pairs,
  four_kind,
  triple,
  add,
  singles,
  nothing
};
constexpr int kPatterns = 10;
std::string_view pattern_name(Pattern p);
Pattern classify(const Scoring& scoring, int dice, int pending, int i);

struct PatternStats {
  std::uint64_t outcomes = 0;  // ordered outcomes of the throw in this row
  double mean_points = 0;      // of the best move, given the row
  double mean_adds = 0;        // dice of the pending face, given the row (the author's "x 108/91")
};
std::array<PatternStats, kPatterns> pattern_stats(const Scoring& scoring, int dice, int pending = kNoPending);
// Seed 003's "# Successes": the ordered outcomes of a throw in which something scores.
std::uint64_t scoring_outcomes(const Scoring& scoring, int dice, int pending = kNoPending);

// optimal_expected: maximises the expected score of one turn (bank minimum
// and hot dice respected; the target and the other players ignored). Fills
// throws/takes_over/value of a Policy; returns the expected turn score from
// a fresh start with the ordinary bank minimum.
double solve_optimal_expected(const Scoring& scoring, Policy& policy);

// P(turn score = 50 k) for k = 0..size-1, one turn from a fresh start with
// `banked` points banked, as play_turn plays it (the target ends a turn too).
// beat >= 0: a last turn answering that score (play_turn's `beat`), which a
// chasing policy throws on to beat. optimal_win (two seats) reads the seat
// and the other's banked score `theirs` too.
std::vector<double> turn_distribution(const Scoring& scoring, const Policy& policy, int banked = 0, int beat = -1,
                                      int seat = 0, int theirs = 0);

}  // namespace dicesim::tenk
