// Pig: the throw odds, the whole-turn sampler and the seed's tables (the only
// numbers typed here, to their printed precision). optimal_win, the exact
// evaluation, Monte Carlo against it and the command line are in
// pig_exact_test.cpp.
#include "games/pig/pig.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <iomanip>
#include <numeric>
#include <sstream>
#include <tuple>

#include "games/pig/pig_exact.h"
#include "games/pig/pig_strategies.h"
#include "math/stats.h"
#include "pig_test_util.h"
#include "test_util.h"

namespace dicesim::pig {
namespace {

using helpers::rules_of;

// Percent, as the seed prints it, to one decimal.
void expect_percent(double probability, double printed) { EXPECT_NEAR(100 * probability, printed, 0.05); }

TEST(PigRules, ThrowOddsOfTwoDiceAsTheSeedCountsThem) {
  const ThrowOdds odds = throw_odds(rules_of(2));
  EXPECT_EQ(odds.outcomes, 36);
  EXPECT_EQ(odds.bust, 10);  // "(10/36) Prob. 1 die = 1"
  EXPECT_EQ(odds.reset, 1);  // "(1/36) Prob. snake eyes"
  // "(1/36) roll 12, (2/36) roll 11, (3/36) 10, (4/36) 9, (5/36) 8, (4/36) 7 ... (1/36) 4"
  const std::vector<std::pair<int, int>> seed = {{4, 1}, {5, 2},  {6, 3},  {7, 4}, {8, 5},
                                                 {9, 4}, {10, 3}, {11, 2}, {12, 1}};
  EXPECT_EQ(odds.points, seed);
}

TEST(PigRules, ThrowOddsOfOneDie) {
  const ThrowOdds odds = throw_odds(rules_of(1));
  EXPECT_EQ(odds.outcomes, 6);
  EXPECT_EQ(odds.bust, 1);
  EXPECT_EQ(odds.reset, 0);
  ASSERT_EQ(odds.points.size(), 5u);
  for (int face = 2; face <= 6; ++face) EXPECT_EQ(odds.points[face - 2], std::make_pair(face, 1));
}

template <int Dice>
void expect_stream_matches_odds() {
  const ThrowOdds odds = throw_odds(rules_of(Dice));
  Rng rng = block_rng(7, 7, Dice);
  ThrowStream<Dice> stream(rng);
  constexpr int kThrows = 1'000'000;
  std::vector<std::int64_t> counts(14, 0);  // bin points + 1: 0 = two 1s, 1 = a single 1
  for (int t = 0; t < kThrows; ++t) ++counts[stream.next() + 1];
  std::vector<double> p(14, 0.0);
  p[0] = odds.probability(odds.reset);
  p[1] = odds.probability(odds.bust);
  for (const auto& [points, ways] : odds.points) p[points + 1] = odds.probability(ways);
  const stats::ChiSquare chi = stats::chi_square(counts, p);
  EXPECT_LT(stats::z_for_tail(chi.p_value), 5) << chi.statistic << " on " << chi.dof;
  for (std::size_t bin = 0; bin < p.size(); ++bin)
    if (p[bin] == 0) {
      EXPECT_EQ(counts[bin], 0) << bin;
    }
}

TEST(PigRules, ThrowStreamsDrawTheExactOdds) {
  expect_stream_matches_odds<1>();
  expect_stream_matches_odds<2>();
}

// Exact uniformity of the multiply-shift the throw stream uses, on every
// input of an 8-bit word (every range) and of a 16-bit word (6^6, the
// 16-bit analogue of 6^22): each output comes from equally many inputs.
template <class Word, class Wide>
void expect_every_output_equally_often(Word range) {
  std::vector<int> hits(range, 0);
  const std::uint64_t words = std::uint64_t(1) << (8 * sizeof(Word));
  for (std::uint64_t r = 0; r < words; ++r) {
    Word out = 0;
    if (lemire_below<Word, Wide>(static_cast<Word>(r), range, out)) ++hits.at(out);
  }
  const int each = static_cast<int>(words / range);
  for (Word v = 0; v < range; ++v) ASSERT_EQ(hits[v], each) << "range " << +range << " output " << +v;
}

TEST(PigRules, MultiplyShiftIsExactlyUniform) {
  for (int range = 1; range < 256; ++range) expect_every_output_equally_often<std::uint8_t, std::uint16_t>(range);
  expect_every_output_equally_often<std::uint16_t, std::uint32_t>(6 * 6 * 6 * 6 * 6 * 6);
}

// The stream is the base-6 (two dice: base-36) digits of consecutive
// accepted draws, least significant first: no digit skipped or used twice,
// across refills and games alike.
template <int Dice>
void expect_stream_is_the_digits_of_the_draws() {
  using Stream = ThrowStream<Dice>;
  static_assert(Stream::kRange == [] {
    std::uint64_t r = 1;
    for (int d = 0; d < Stream::kDigits; ++d) r *= Stream::kBase;
    return r;
  }());
  Rng rng = block_rng(3, 5, Dice), reference = rng;
  Stream stream(rng);
  for (int draw = 0; draw < 2000; ++draw) {
    std::uint64_t value = 0;
    while (!lemire_below<std::uint64_t, unsigned __int128>(reference(), Stream::kRange, value)) {
    }
    for (int d = 0; d < Stream::kDigits; ++d, value /= Stream::kBase) {
      const int digit = static_cast<int>(value % Stream::kBase);
      const int first = Dice == 1 ? digit + 1 : digit / 6 + 1, second = digit % 6 + 1;
      ASSERT_EQ(stream.next(), throw_points(Dice, first, second)) << draw << " " << d;
    }
  }
  EXPECT_TRUE(rng == reference);  // and not a draw more
}

TEST(PigRules, ThrowStreamIsTheDigitsOfConsecutiveDraws) {
  expect_stream_is_the_digits_of_the_draws<1>();
  expect_stream_is_the_digits_of_the_draws<2>();
}

TEST(PigRules, ATurnEndsAtTheGoalOrAHoldOrAOne) {
  const Rules rules = rules_of(1, 10);
  const Policy policy = hold_at(rules, 4);
  // Row of score 8 (room 2): any scoring throw reaches the goal.
  for (int k = 2; k < policy.row_size(); ++k) EXPECT_TRUE(policy.hold(0, 8, 0, k)) << k;
  EXPECT_FALSE(policy.hold(0, 0, 0, 3));
  EXPECT_TRUE(policy.hold(0, 0, 0, 4));
  EXPECT_FALSE(policy.hold(0, 0, 0, 0));
  // A fresh policy throws on to the goal, in every phase.
  const Policy fresh(rules, 3);
  EXPECT_FALSE(fresh.hold(2, 5, 7, 4));
  EXPECT_TRUE(fresh.hold(2, 5, 7, 5));
  EXPECT_FALSE(fresh.hold(1, 0, 9, 9));
  EXPECT_TRUE(fresh.hold(1, 0, 9, 10));
}

// Where a turn sampler's draw leads, counted over every digit string of a
// few throws, each played throw by throw with the row: the sampler's
// weights must be exactly these counts.
PayloadWeights weights_by_every_digit_string(int dice, const Die& die, const std::uint8_t* hold, int throws) {
  const unsigned base = static_cast<unsigned>(dice == 1 ? die.sides : die.sides * die.sides);
  std::uint64_t strings = 1;
  for (int t = 0; t < throws; ++t) strings *= base;
  PayloadWeights weight;
  for (std::uint64_t string = 0; string < strings; ++string) {
    std::uint64_t digits = string;
    std::uint32_t outcome = 0;
    for (int t = 0, total = 0;; ++t, digits /= base) {
      if (t == throws) {
        outcome = TurnSampler::payload(TurnSampler::kInPlay, total);
        break;
      }
      const int points = throw_of_digit(dice, die, static_cast<unsigned>(digits % base));
      if (points == kBust || points == kReset) {
        outcome = TurnSampler::payload(points == kBust ? TurnSampler::kOne : TurnSampler::kTwoOnes);
        break;
      }
      total += points;
      if (hold[total]) {
        outcome = TurnSampler::payload(TurnSampler::kHold, total);
        break;
      }
    }
    ++weight[outcome];
  }
  return weight;
}

TEST(PigTurnSampler, DrawWeightsCountEveryDigitString) {
  Die loaded;
  loaded.sides = kLoadedSides;
  loaded.face_of = {1, 2, 3, 4, 5, 6, 6};
  for (const Die* die : {&fair_die(), static_cast<const Die*>(&loaded)})
    for (int dice = 1; dice <= 2; ++dice) {
      const Rules rules = rules_of(dice, 30);
      const Policy policy = hold_at(rules, 12);
      const int throws = dice == 1 ? 4 : 2;
      for (int score : {0, 20, 27}) {  // rows that hold at 12, at the goal, and at any throw
        const std::uint8_t* hold = policy.row(0, score, 0);
        const PayloadWeights expected = weights_by_every_digit_string(dice, *die, hold, throws);
        EXPECT_EQ(TurnSampler::draw_weights(dice, *die, hold, policy.row_size(), throws), expected)
            << dice << " dice, " << die->sides << " sides, score " << score;
        const bool in_play = std::any_of(expected.begin(), expected.end(), [](const auto& outcome) {
          return (outcome.first & TurnSampler::kKindMask) == TurnSampler::kInPlay;
        });
        EXPECT_EQ(in_play, score < 27) << "only a row that holds at any throw never stays in play";
      }
    }
}

// A sampled turn, including the turns still in play after their draw (hold
// at 40 takes more than the 10 throws of one draw), against the exact
// distribution of where the turn ends.
TEST(PigTurnSampler, TurnsEndWhereTheExactOddsSay) {
  for (int dice = 1; dice <= 2; ++dice) {
    const Rules rules = rules_of(dice);
    const Policy policy = hold_at(rules, 40);
    const TurnSampler sampler(rules, policy, fair_die());
    constexpr int kScore = 30, kTurns = 400'000;
    const TurnOutcome exact = turn_outcome(rules, throw_odds(rules), policy.row(0, kScore, 0), kScore);
    std::vector<double> p(rules.score_bins(), 0.0);
    for (const auto& [score, probability] : exact.banked) p[score] += probability;
    for (const auto& [score, probability] : exact.won) p[score] += probability;
    Rng rng = block_rng(5, stable_hash("pig turn sampler"), dice);
    std::vector<std::int64_t> counts(p.size(), 0);
    const auto sample = [&](auto& stream) {
      for (int t = 0; t < kTurns; ++t) ++counts.at(sampler.play_turn(0, kScore, 0, rng, stream));
    };
    if (dice == 1) {
      ThrowStream<1> stream(rng);
      sample(stream);
    } else {
      ThrowStream<2> stream(rng);
      sample(stream);
    }
    const stats::ChiSquare chi = stats::chi_square(counts, p);
    EXPECT_LT(stats::z_for_tail(chi.p_value), 5) << dice << " dice: " << chi.statistic << " on " << chi.dof;
  }
}

// With a goal below the smallest scoring throw every throw that scores wins:
// hold_at the goal (throw to the goal) is the one value that means anything.
TEST(PigStrategies, HoldAtTheGoalBelowTheSmallestThrow) {
  const Rules rules = rules_of(2, 3);
  Solutions solutions(rules);
  const json spec = {{"family", "hold_at"}, {"at", 3}};
  const Policy policy = compile_strategy(JsonNode(spec, "test"), rules, solutions).policy;
  EXPECT_TRUE(policy.hold(0, 0, 0, 4));
  const json below = {{"family", "hold_at"}, {"at", 2}};
  EXPECT_THROW(compile_strategy(JsonNode(below, "test"), rules, solutions), InputError);
}

// The seed's probability table, columns N = 1, 2 as printed.
TEST(PigSeed, ProbabilityOfReachingOneHundredWithinNTurns) {
  const TurnsSolution solution = solve_turns(rules_of(2), 3);
  const struct {
    int score;
    double one, two;
  } rows[] = {{99, 69.4, 88.8}, {98, 69.4, 88.8}, {97, 69.4, 88.8}, {96, 69.4, 88.8},
              {95, 68.6, 88.2}, {94, 66.9, 87.1}, {93, 64.4, 85.2}, {92, 61.0, 82.6},
              {91, 56.7, 79.0}, {90, 53.2, 75.9}, {76, 28.9, 47.6}, {0, 0.9, 1.9}};
  for (const auto& row : rows) {
    SCOPED_TRACE(row.score);
    expect_percent(solution.reach[1][row.score], row.one);
    expect_percent(solution.reach[2][row.score], row.two);
  }
}

// The worked example: 76 banked, 3 turns, stop at 15, 62.0 percent.
TEST(PigSeed, WorkedExampleScore76ThreeTurns) {
  const Rules rules = rules_of(2);
  const TurnsSolution solution = solve_turns(rules, 3);
  EXPECT_EQ(solution.stop[3][76], 15);
  expect_percent(solution.reach[3][76], 62.0);
  const Choice at14 = turns_choice(rules, solution, 3, 76, 14);
  expect_percent(at14.roll, 76.7);
  expect_percent(at14.hold, 75.9);
  const Choice at15 = turns_choice(rules, solution, 3, 76, 15);
  expect_percent(at15.roll, 78.0);
  expect_percent(at15.hold, 79.0);
  EXPECT_TRUE(solution.thresholds);
}

// The seed's "temporary dice total" table for stop numbers 4, 5 and 15.
TEST(PigSeed, TemporaryTotalDistributions) {
  const Rules rules = rules_of(2);
  const struct {
    int total;
    double stop4, stop5, stop15;
  } rows[] = {
      {28, .0000, .0000, .0000}, {27, .0000, .0000, .0000}, {26, .0000, .0000, .0015}, {25, .0000, .0000, .0041},
      {24, .0000, .0000, .0082}, {23, .0000, .0000, .0143}, {22, .0000, .0000, .0229}, {21, .0000, .0000, .0317},
      {20, .0000, .0000, .0422}, {19, .0000, .0000, .0527}, {18, .0000, .0000, .0616}, {17, .0000, .0000, .0670},
      {16, .0000, .0008, .0683}, {15, .0000, .0015, .0629}, {14, .0000, .0023, .0000}, {13, .0000, .0031, .0000},
      {12, .0278, .0316, .0000}, {11, .0556, .0586, .0000}, {10, .0833, .0856, .0000}, {9, .1111, .1127, .0000},
      {8, .1389, .1397, .0000},  {7, .1111, .1111, .0000},  {6, .0833, .0833, .0000},  {5, .0556, .0556, .0000},
      {4, .0278, .0000, .0000}};
  const TurnTotals four = turn_totals(rules, 4), five = turn_totals(rules, 5), fifteen = turn_totals(rules, 15);
  const auto at = [](const TurnTotals& t, int total) {
    return total < static_cast<int>(t.total.size()) ? t.total[total] : 0.0;
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.total);
    EXPECT_NEAR(at(four, row.total), row.stop4, 0.00005);
    EXPECT_NEAR(at(five, row.total), row.stop5, 0.00005);
    EXPECT_NEAR(at(fifteen, row.total), row.stop15, 0.00005);
  }
  EXPECT_NEAR(four.bust, .2778, 0.00005);
  EXPECT_NEAR(five.bust, .2855, 0.00005);
  EXPECT_NEAR(fifteen.bust, .5116, 0.00005);
  EXPECT_NEAR(four.reset, .0278, 0.00005);
  EXPECT_NEAR(five.reset, .0285, 0.00005);
  EXPECT_NEAR(fifteen.reset, .0512, 0.00005);
  // "All columns must add to 1.0000"
  for (const TurnTotals* t : {&four, &five, &fifteen}) {
    double sum = t->bust + t->reset;
    for (double p : t->total) sum += p;
    EXPECT_NEAR(sum, 1.0, 1e-12);
  }
}

// optimal_turns plays the seed's stop numbers: over its first N turns alone
// it reaches the goal with the seed's probability.
TEST(PigSeed, OptimalTurnsAloneReachesTheGoalAsTheTableSays) {
  const Rules rules = rules_of(2);
  const TurnsSolution solution = solve_turns(rules, 3);
  for (int n = 1; n <= 3; ++n) {
    const Policy policy = optimal_turns(rules, solution, n);
    const std::optional<Evaluation> alone = evaluate(rules, {&policy}, 201);
    ASSERT_TRUE(alone);
    double within = 0;
    for (int t = 0; t <= n; ++t) within += alone->turns[0][t];
    EXPECT_NEAR(within, solution.reach[n][0], 1e-12) << n;
  }
  expect_percent(solution.reach[1][0], 0.9);
  expect_percent(solution.reach[2][0], 1.9);
}

// After its N turns, optimal_turns plans N more from where it stands: within
// 2N turns alone it reaches the goal with P(within N) plus, from every score
// it may stand at after N turns, P(within N more) by the seed's table.
TEST(PigSeed, OptimalTurnsStartsANewPlanAfterItsTurns) {
  const Rules rules = rules_of(2);
  const int n = 2;
  const TurnsSolution solution = solve_turns(rules, n);
  const Policy policy = optimal_turns(rules, solution, n);
  ASSERT_EQ(policy.phases(), n);
  // Where the first plan leaves the player: turn by turn, by the seed's rows.
  const ThrowOdds odds = throw_odds(rules);
  std::vector<double> at(rules.goal, 0.0);
  at[0] = 1;
  double reached = 0;
  for (int left = n; left >= 1; --left) {
    std::vector<double> next(rules.goal, 0.0);
    for (int s = 0; s < rules.goal; ++s) {
      if (at[s] == 0) continue;
      const TurnOutcome o = turn_outcome(rules, odds, solution.hold[left][s].data(), s);
      for (const auto& [t, p] : o.banked) next[t] += at[s] * p;
      for (const auto& [f, p] : o.won) reached += at[s] * p;
    }
    at = next;
  }
  EXPECT_NEAR(reached, solution.reach[n][0], 1e-12);
  double expected = reached;
  for (int s = 0; s < rules.goal; ++s) expected += at[s] * solution.reach[n][s];
  const Evaluation alone = *evaluate(rules, {&policy}, 201);
  double within = 0;
  for (int t = 0; t <= 2 * n; ++t) within += alone.turns[0][t];
  EXPECT_NEAR(within, expected, 1e-12);
}

}  // namespace
}  // namespace dicesim::pig
