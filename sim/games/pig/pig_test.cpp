// Pig: the throw odds, the seed's tables (the only numbers typed here, to
// their printed precision), optimal_win and policy evaluation against
// independent state-by-state iterations, and the Monte Carlo hot loop
// against the exact evaluation.
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
#include "test_util.h"

namespace dicesim::pig {
namespace {

Rules rules_of(int dice, int goal = 100) {
  Rules rules;
  rules.dice = dice;
  rules.goal = goal;
  return rules;
}

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

TEST(PigEvaluation, ThreeOrMoreSeatsHaveNoExactOdds) {
  const Rules rules = rules_of(1, 20);
  const Policy a = hold_at(rules, 10);
  EXPECT_FALSE(evaluate(rules, {&a, &a, &a}, 41));
  EXPECT_TRUE(evaluate(rules, {&a, &a}, 41));
}

// An independent optimal_win: value iteration over every (i, j, k) state,
// swept until nothing changes. P(win) of the player to throw at turn total k,
// and what throwing is worth there.
struct StateValues {
  int goal;
  std::vector<double> best, roll;
  std::size_t index(int i, int j, int k) const { return (std::size_t(i) * goal + j) * goal + k; }
  double start(int i, int j) const { return best[index(i, j, 0)]; }
  double hold(int i, int j, int k) const { return 1 - start(j, i + k); }
};

StateValues state_value_iteration(const Rules& rules) {
  const int g = rules.goal;
  const ThrowOdds odds = throw_odds(rules);
  StateValues v{g, std::vector<double>(std::size_t(g) * g * g, 0.5), std::vector<double>(std::size_t(g) * g * g, 0)};
  for (double change = 1; change > 1e-15;) {
    change = 0;
    for (int i = g - 1; i >= 0; --i)
      for (int j = g - 1; j >= 0; --j)
        for (int k = g - 1 - i; k >= 0; --k) {
          double roll =
              odds.probability(odds.bust) * (1 - v.start(j, i)) + odds.probability(odds.reset) * (1 - v.start(j, 0));
          for (const auto& [points, ways] : odds.points)
            roll += odds.probability(ways) * (i + k + points >= g ? 1 : v.best[v.index(i, j, k + points)]);
          const double best = k > 0 ? std::max(roll, v.hold(i, j, k)) : roll;
          change = std::max(change, std::abs(best - v.best[v.index(i, j, k)]));
          v.best[v.index(i, j, k)] = best;
          v.roll[v.index(i, j, k)] = roll;
        }
  }
  return v;
}

TEST(PigOptimalWin, AgreesWithStateByStateValueIteration) {
  for (int dice : {1, 2}) {
    const Rules rules = rules_of(dice, 30);
    const WinSolution solution = solve_optimal_win(rules);
    const StateValues reference = state_value_iteration(rules);
    for (int i = 0; i < rules.goal; ++i)
      for (int j = 0; j < rules.goal; ++j)
        ASSERT_NEAR(solution.win(i, j), reference.start(i, j), 1e-12) << dice << " " << i << " " << j;
  }
}

// The policy, not only the values: at the full goal, every decision whose
// two values differ by more than rounding is the reference's choice.
TEST(PigOptimalWin, PolicyIsTheStateByStateIterationsChoice) {
  const Rules rules = rules_of(1);
  const WinSolution solution = solve_optimal_win(rules);
  const StateValues reference = state_value_iteration(rules);
  EXPECT_NEAR(solution.win(0, 0), reference.start(0, 0), 1e-12);
  int decided = 0, different = 0;
  for (int i = 0; i < rules.goal; ++i)
    for (int j = 0; j < rules.goal; ++j)
      for (int k = 1; i + k < rules.goal; ++k) {
        const double margin = reference.hold(i, j, k) - reference.roll[reference.index(i, j, k)];
        if (std::abs(margin) < 1e-9) continue;
        ++decided;
        different += solution.policy.hold(0, i, j, k) != (margin > 0);
      }
  EXPECT_EQ(different, 0);
  EXPECT_GT(decided, rules.goal * rules.goal * rules.goal / 3);
}

TEST(PigOptimalWin, ItsOwnEvaluationIsItsValue) {
  for (int dice : {1, 2}) {
    const Rules rules = rules_of(dice);
    const WinSolution solution = solve_optimal_win(rules);
    const Evaluation e = *evaluate(rules, {&solution.policy, &solution.policy}, 201);
    EXPECT_NEAR(e.win[0], solution.win(0, 0), 1e-12);
    EXPECT_NEAR(e.win[1], 1 - solution.win(0, 0), 1e-12);
    EXPECT_GT(e.win[0], 0.5);  // moving first is an advantage
  }
}

// Every family with parameters a sensible player might choose.
std::vector<std::pair<std::string, Policy>> sensible_strategies(const Rules& rules, const Policy& optimal_win) {
  const TurnsSolution turns = solve_turns(rules, 4);
  std::vector<std::pair<std::string, Policy>> all;
  for (int at : {15, 20, 25}) all.emplace_back("hold_at " + std::to_string(at), hold_at(rules, at));
  for (int n : {4}) all.emplace_back("optimal_turns " + std::to_string(n), optimal_turns(rules, turns, n));
  all.emplace_back("optimal_win", optimal_win);
  return all;
}

TEST(PigOptimalWin, AtLeastAsGoodAsHoldAt20AgainstEveryStrategy) {
  for (int dice : {1, 2}) {
    const Rules rules = rules_of(dice);
    const Policy best = solve_optimal_win(rules).policy, twenty = hold_at(rules, 20);
    for (const auto& [name, opponent] : sensible_strategies(rules, best)) {
      SCOPED_TRACE(std::to_string(dice) + " dice against " + name);
      const Evaluation best_first = *evaluate(rules, {&best, &opponent}, 201);
      const Evaluation twenty_first = *evaluate(rules, {&twenty, &opponent}, 201);
      EXPECT_GE(best_first.win[0], twenty_first.win[0]);
      const Evaluation best_second = *evaluate(rules, {&opponent, &best}, 201);
      const Evaluation twenty_second = *evaluate(rules, {&opponent, &twenty}, 201);
      EXPECT_GE(best_second.win[1], twenty_second.win[1]);
    }
  }
}

// optimal_win is optimal against itself, not a best response to everyone:
// against a player who always throws on to the goal, hold_at 20 does better.
TEST(PigOptimalWin, IsNotABestResponseToEveryStrategy) {
  for (int dice : {1, 2}) {
    const Rules rules = rules_of(dice);
    const Policy best = solve_optimal_win(rules).policy, twenty = hold_at(rules, 20), reckless = hold_at(rules, 100);
    EXPECT_LT(evaluate(rules, {&best, &reckless}, 201)->win[0], evaluate(rules, {&twenty, &reckless}, 201)->win[0]);
  }
}

TEST(PigEvaluation, ProbabilitiesAddUpAndNoGameTies) {
  const Rules rules = rules_of(2);
  const Policy a = hold_at(rules, 20), b = hold_at(rules, 25);
  const Evaluation e = *evaluate(rules, {&a, &b}, 201);
  EXPECT_LT(e.unfinished, kUnfinished);
  EXPECT_NEAR(e.win[0] + e.win[1], 1.0, 1e-12);  // the first to the goal wins: no ties
  for (int seat = 0; seat < 2; ++seat) {
    double scores = 0, turns = 0;
    for (double p : e.score[seat]) scores += p;
    for (double p : e.turns[seat]) turns += p;
    EXPECT_NEAR(scores, 1.0, 1e-12);  // rounding in many small sums
    EXPECT_NEAR(turns, 1.0, 1e-12);
    // A winner's final score is at least the goal, a loser's below it.
    double winning = 0;
    for (int f = rules.goal; f < rules.score_bins(); ++f) winning += e.score[seat][f];
    EXPECT_NEAR(winning, e.win[seat], 1e-12);
  }
}

// An independent policy evaluation: P(the player to throw wins) at every
// (mover, i, j, k) state, swept until nothing changes.
double backward_win_probability(const Rules& rules, const Policy& first, const Policy& second) {
  const int g = rules.goal;
  const ThrowOdds odds = throw_odds(rules);
  const Policy* policy[2] = {&first, &second};
  std::vector<double> w(2 * std::size_t(g) * g * g, 0.5);
  const auto at = [&](int m, int i, int j, int k) -> double& { return w[((std::size_t(m) * g + i) * g + j) * g + k]; };
  for (double change = 1; change > 1e-15;) {
    change = 0;
    for (int m = 0; m < 2; ++m)
      for (int i = g - 1; i >= 0; --i)
        for (int j = g - 1; j >= 0; --j)
          for (int k = g - 1 - i; k >= 0; --k) {
            double value;
            if (k > 0 && policy[m]->hold(0, i, j, k)) {
              value = 1 - at(1 - m, j, i + k, 0);
            } else {
              value = odds.probability(odds.bust) * (1 - at(1 - m, j, i, 0)) +
                      odds.probability(odds.reset) * (1 - at(1 - m, j, 0, 0));
              for (const auto& [points, ways] : odds.points)
                value += odds.probability(ways) * (i + k + points >= g ? 1 : at(m, i, j, k + points));
            }
            change = std::max(change, std::abs(value - at(m, i, j, k)));
            at(m, i, j, k) = value;
          }
  }
  return at(0, 0, 0, 0);
}

// Pairs of strategies that ignore the opponent are put together from each
// one's own turns: the same numbers as the walk over every pair of scores.
TEST(PigEvaluation, PairsThatIgnoreTheOpponentComeFromEachSeatsOwnTurns) {
  for (int dice : {1, 2}) {
    const Rules rules{dice, 60};
    const TurnsSolution three = solve_turns(rules, 3);
    const std::vector<Policy> policies = {hold_at(rules, 10), hold_at(rules, 25), optimal_turns(rules, three, 3)};
    const Policy win = solve_optimal_win(rules).policy;
    EXPECT_FALSE(ignores_opponent(win));
    for (const Policy& a : policies) {
      EXPECT_TRUE(ignores_opponent(a));
      for (const Policy& b : policies) {
        const Evaluation walk = *evaluate(rules, {&a, &b}, 2 * rules.goal + 1);
        const Race race_a = race_alone(rules, a), race_b = race_alone(rules, b);
        const Evaluation apart = evaluate_independent(rules, {&race_a, &race_b}, 2 * rules.goal + 1);
        for (int s = 0; s < 2; ++s) {
          EXPECT_NEAR(apart.win[s], walk.win[s], 1e-13);
          for (std::size_t f = 0; f < walk.score[s].size(); ++f)
            EXPECT_NEAR(apart.score[s][f], walk.score[s][f], 1e-13);
          for (std::size_t t = 0; t < walk.turns[s].size(); ++t)
            EXPECT_NEAR(apart.turns[s][t], walk.turns[s][t], 1e-13);
        }
      }
    }
  }
}

// P(each seat wins) at a table of seats that ignore the others, by a walk
// forward over every tuple of banked scores, turn by turn: the slow way the
// race (evaluate_independent) must agree with. In long double: in double its
// rounding over thousands of turns adds up to 1e-12.
std::vector<double> joint_walk_wins(const Rules& rules, const std::vector<const Policy*>& seats) {
  const int n = static_cast<int>(seats.size()), goal = rules.goal;
  std::vector<TurnOutcomes> outcomes;
  for (const Policy* p : seats) outcomes.emplace_back(rules, *p);
  std::size_t states = 1;
  for (int s = 0; s < n; ++s) states *= std::size_t(goal);
  std::vector<long double> mass(states, 0.0), wins(std::size_t(n), 0.0);
  mass[0] = 1;
  std::vector<std::size_t> stride(std::size_t(n), 1);
  for (int s = 1; s < n; ++s) stride[std::size_t(s)] = stride[std::size_t(s - 1)] * std::size_t(goal);
  for (int turn = 0; std::accumulate(mass.begin(), mass.end(), 0.0L) > 1e-18L; ++turn) {
    const int mover = turn % n;
    const std::size_t step = stride[std::size_t(mover)];
    std::vector<long double> next(states, 0.0);
    for (std::size_t state = 0; state < states; ++state) {
      if (mass[state] == 0) continue;
      const int own = static_cast<int>(state / step % std::size_t(goal));
      const TurnOutcome& outcome = outcomes[std::size_t(mover)].get(0, own, 0);
      for (const auto& [to, p] : outcome.banked)
        next[state + (std::size_t(to) - std::size_t(own)) * step] += mass[state] * p;
      for (const auto& [f, p] : outcome.won) wins[std::size_t(mover)] += mass[state] * p;
    }
    mass = std::move(next);
  }
  return std::vector<double>(wins.begin(), wins.end());
}

// Tables of three and four seats that ignore the others: the race agrees
// with the walk over every tuple of scores, and its odds sum to 1.
TEST(PigEvaluation, TablesOfManySeatsThatIgnoreTheOthersAreRaces) {
  for (int dice : {1, 2}) {
    const Rules rules = rules_of(dice, 20);
    const Policy a = hold_at(rules, 5), b = hold_at(rules, 9), c = hold_at(rules, 14);
    const std::vector<std::vector<const Policy*>> tables = {{&a, &b}, {&a, &b, &c}, {&c, &a, &a}, {&b, &c, &a, &b}};
    for (const std::vector<const Policy*>& table : tables) {
      std::vector<Race> races;
      for (const Policy* p : table) races.push_back(race_alone(rules, *p));
      std::vector<const Race*> seats;
      for (const Race& r : races) seats.push_back(&r);
      const Evaluation race = evaluate_independent(rules, seats, 2 * rules.goal + 1);
      const std::vector<double> walk = joint_walk_wins(rules, table);
      double total = 0;
      for (std::size_t s = 0; s < table.size(); ++s) {
        EXPECT_NEAR(race.win[s], walk[s], 1e-12) << dice << " seat " << s;
        total += race.win[s];
        EXPECT_NEAR(std::accumulate(race.score[s].begin(), race.score[s].end(), 0.0), 1.0, 1e-12);
        EXPECT_NEAR(std::accumulate(race.turns[s].begin(), race.turns[s].end(), 0.0), 1.0, 1e-12);
      }
      EXPECT_NEAR(total, 1.0, 1e-12);
    }
  }
}

TEST(PigEvaluation, AgreesWithStateByStateIteration) {
  for (int dice : {1, 2}) {
    const Rules rules = rules_of(dice, 40);
    const Policy a = hold_at(rules, 10), b = hold_at(rules, 15), best = solve_optimal_win(rules).policy;
    for (const auto& [x, y] : {std::pair{&a, &b}, std::pair{&b, &best}, std::pair{&best, &a}}) {
      const Evaluation e = *evaluate(rules, {x, y}, 81);
      EXPECT_NEAR(e.win[0], backward_win_probability(rules, *x, *y), 1e-12) << dice;
    }
  }
}

// The pass over score pairs gives the walk's P(win) for pairs that look at
// the opponent's score, with phases (optimal_turns) on either side too, and
// the state-by-state iteration's where both policies have one phase.
TEST(PigEvaluation, WinProbabilityPassAgreesWithTheWalk) {
  for (int dice : {1, 2}) {
    const Rules rules = rules_of(dice, 40);
    const TurnsSolution turns = solve_turns(rules, 3);
    const Policy a = hold_at(rules, 10), best = solve_optimal_win(rules).policy;
    const Policy two = optimal_turns(rules, turns, 2), three = optimal_turns(rules, turns, 3);
    const TurnOutcomes outcomes_a(rules, a), outcomes_best(rules, best), outcomes_two(rules, two),
        outcomes_three(rules, three);
    const std::vector<std::tuple<const Policy*, const TurnOutcomes*, const Policy*, const TurnOutcomes*>> pairs = {
        {&best, &outcomes_best, &a, &outcomes_a},         {&a, &outcomes_a, &best, &outcomes_best},
        {&best, &outcomes_best, &best, &outcomes_best},   {&two, &outcomes_two, &best, &outcomes_best},
        {&best, &outcomes_best, &three, &outcomes_three}, {&two, &outcomes_two, &three, &outcomes_three}};
    for (const auto& [x, ox, y, oy] : pairs) {
      const std::optional<double> pass = win_probability(rules, *ox, *oy);
      ASSERT_TRUE(pass);
      EXPECT_NEAR(*pass, evaluate(rules, {x, y}, 81)->win[0], 1e-13) << dice;
      if (x->phases() == 1 && y->phases() == 1) {
        EXPECT_NEAR(*pass, backward_win_probability(rules, *x, *y), 1e-13) << dice;
      }
    }
  }
}

// The geometric tail gives the numbers of the walk to the end, for pairs
// that look at the opponent's score and for one seat alone.
TEST(PigEvaluation, GeometricTailAgreesWithTheWalkToTheEnd) {
  for (int dice : {1, 2}) {
    const Rules rules = rules_of(dice, 100);
    const TurnOutcomes best(rules, solve_optimal_win(rules).policy), twenty(rules, hold_at(rules, 20));
    for (const std::vector<const TurnOutcomes*>& seats :
         std::vector<std::vector<const TurnOutcomes*>>{{&best, &twenty}, {&twenty, &best}, {&best, &best}, {&best}}) {
      const Evaluation tail = *evaluate_outcomes(rules, seats, 201, true),
                       walk = *evaluate_outcomes(rules, seats, 201, false);
      EXPECT_LT(walk.unfinished, kUnfinished);
      for (std::size_t s = 0; s < seats.size(); ++s) {
        EXPECT_NEAR(tail.win[s], walk.win[s], 1e-14) << dice;
        for (std::size_t f = 0; f < walk.score[s].size(); ++f)
          EXPECT_NEAR(tail.score[s][f], walk.score[s][f], 1e-14) << dice << " " << seats.size() << " " << s << " " << f;
        for (std::size_t t = 0; t < walk.turns[s].size(); ++t) EXPECT_NEAR(tail.turns[s][t], walk.turns[s][t], 1e-14);
      }
    }
  }
}

// The hot loop against the exact evaluation: the largest |z| of the first
// seat's win rate and each seat's final scores and turns played (chi-square
// as a normal deviate), playing a against b, the exact side evaluating
// exact_a against b.
template <int Dice>
double worst_z(const Rules& rules, const Policy& a, const Policy& b, const Policy& exact_a, std::uint64_t games) {
  const Evaluation e = *evaluate(rules, {&exact_a, &b}, 201);
  Rng rng = block_rng(11, stable_hash("pig test"), Dice);
  ThrowStream<Dice> dice(rng);
  const Policy* seats[2] = {&a, &b};
  std::uint64_t first_wins = 0;
  std::vector<std::vector<std::int64_t>> scores(2, std::vector<std::int64_t>(rules.score_bins(), 0));
  std::vector<std::vector<std::int64_t>> turns(2, std::vector<std::int64_t>(201, 0));
  play_games(seats, 2, rules.goal, games, dice, [&](const int* score, const int* played, int winner) {
    first_wins += winner == 0;
    for (int s = 0; s < 2; ++s) {
      ++scores[s][score[s]];
      ++turns[s][std::min(played[s], 200)];
    }
  });
  double worst = std::abs(stats::rate_z(first_wins, games, e.win[0]));
  for (int s = 0; s < 2; ++s) {
    worst = std::max(worst, stats::z_for_tail(stats::chi_square(scores[s], e.score[s]).p_value));
    worst = std::max(worst, stats::z_for_tail(stats::chi_square(turns[s], e.turns[s]).p_value));
  }
  return worst;
}

TEST(PigMonteCarlo, AgreesWithTheExactEvaluation) {
  const Rules two = rules_of(2), one = rules_of(1);
  const Policy best = solve_optimal_win(two).policy, twenty = hold_at(two, 20);
  EXPECT_LT(worst_z<2>(two, best, twenty, best, 200'000), 5);
  const Policy quarter = hold_at(one, 25), four_turns = optimal_turns(one, solve_turns(one, 4), 4);
  EXPECT_LT(worst_z<1>(one, quarter, four_turns, quarter, 200'000), 5);
}

TEST(PigMonteCarlo, TheComparisonSeesAnotherStrategy) {
  const Rules one = rules_of(1);
  const Policy fifteen = hold_at(one, 15), twenty = hold_at(one, 20), quarter = hold_at(one, 25);
  EXPECT_GT(worst_z<1>(one, fifteen, quarter, twenty, 200'000), 5);
}

// The numbers of one row of `solve pig` output, after the score.
std::vector<std::string> row_of(const std::string& out, const std::string& score, int occurrence) {
  std::istringstream lines(out);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string first;
    if (words >> first && first == score && occurrence-- == 0) {
      std::vector<std::string> cells;
      for (std::string w; words >> w;) cells.push_back(w);
      return cells;
    }
  }
  return {};
}

TEST(PigCli, SolvePrintsTheSeedTables) {
  const auto result = testing::dicesim("solve pig --dice 2 --turns 4");
  ASSERT_EQ(result.exit_code, 0) << result.out;
  const std::vector<std::string> reach = row_of(result.out, "76", 0), stop = row_of(result.out, "76", 1);
  ASSERT_EQ(reach.size(), 4u) << result.out;
  EXPECT_EQ(reach[0], "28.9");
  EXPECT_EQ(reach[1], "47.6");
  EXPECT_EQ(reach[2], "62.0");
  ASSERT_EQ(stop.size(), 4u);
  EXPECT_EQ(stop[2], "15");
  EXPECT_EQ(row_of(result.out, "0", 0).at(0), "0.9");
  EXPECT_EQ(row_of(result.out, "99", 0).at(1), "88.8");
}

TEST(PigCli, SolveOptimalPrintsTheSolversValue) {
  const auto result = testing::dicesim("solve pig --dice 1 --optimal");
  ASSERT_EQ(result.exit_code, 0) << result.out;
  std::ostringstream expected;
  expected << std::fixed << std::setprecision(6) << solve_optimal_win(rules_of(1)).win(0, 0);
  EXPECT_NE(result.out.find("P(first player wins)  " + expected.str()), std::string::npos) << result.out;
}

TEST(PigCli, CheckOfTheOneDieConfigPasses) {
  testing::TempDir dir;
  const auto result = testing::dicesim("check " + testing::source_path("configs/pig_one_die.json") +
                                       " --games 100000 --quiet -o " + dir.file("out.h5"));
  EXPECT_EQ(result.exit_code, 0) << result.out;
  EXPECT_NE(result.out.find("0 beyond"), std::string::npos) << result.out;
}

TEST(PigCli, BlindTablesAreRefused) {
  const auto result = testing::dicesim("run " + testing::source_path("tests/bad_configs/pig_headtohead.json"));
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.out.find("/contests/headtohead: Pig is played in turns"), std::string::npos) << result.out;
}

}  // namespace
}  // namespace dicesim::pig
