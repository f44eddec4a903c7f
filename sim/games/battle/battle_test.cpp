// Dice Battle: P(d,k) against brute force and the seed's closed form, the
// blind d*, the sequential recursion, the LP equilibria against best
// responses and a closed form, exact evaluation against Monte Carlo, and
// the optimal policies against every other family.
#include "games/battle/battle.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <iomanip>
#include <numeric>
#include <sstream>

#include "games/battle/battle_exact.h"
#include "games/battle/battle_strategies.h"
#include "math/matrix_game.h"
#include "math/stats.h"
#include "matrix_game_check.h"
#include "results/h5.h"
#include "test_util.h"

namespace dicesim::battle {
namespace {

using dicesim::testing::expect_equilibrium;

Policy compile(const Rules& rules, const json& spec, Solutions& solutions) {
  return compile_strategy(JsonNode(spec, "test"), rules, solutions);
}

// Every family, with a few fixed numbers of dice.
std::vector<json> every_family(const Rules& rules) {
  std::vector<json> specs = {{{"family", "blind"}}, {{"family", "random"}}};
  for (int d : {1, 3, rules.max_dice}) specs.push_back({{"family", "fixed"}, {"dice", d}});
  return specs;
}

double expected_gain(const Evaluation& e, int seat) { return e.win[seat] - e.win[1 - seat]; }

TEST(BattleDice, ProbabilitiesAddUpToOne) {
  const auto p = throw_probabilities(kMaxDiceLimit);
  for (int d = 1; d <= kMaxDiceLimit; ++d) EXPECT_NEAR(std::accumulate(p[d].begin(), p[d].end(), 0.0), 1, 1e-14) << d;
}

TEST(BattleDice, ProbabilitiesMatchEveryOutcomeOfUpToSixDice) {
  const auto p = throw_probabilities(6);
  for (int d = 1; d <= 6; ++d) {
    std::vector<std::uint64_t> count(6 * d + 1, 0);
    std::vector<int> faces(d, 1);
    for (;;) {  // every ordered outcome, as an odometer
      const bool any_one = std::count(faces.begin(), faces.end(), 1) > 0;
      ++count[any_one ? 1 : std::accumulate(faces.begin(), faces.end(), 0)];
      int i = 0;
      while (i < d && faces[i] == 6) faces[i++] = 1;
      if (i == d) break;
      ++faces[i];
    }
    EXPECT_EQ(count, throw_ways(d)) << d;
    for (int k = 0; k <= 6 * d; ++k)
      EXPECT_NEAR(p[d][k], double(count[k]) / double(outcomes(d)), 1e-15) << d << " " << k;
  }
}

TEST(BattleDice, RecursionMatchesExactCountsAndTheSeedsClosedForm) {
  const auto p = throw_probabilities(kMaxDiceLimit);
  for (int d = 1; d <= kMaxDiceLimit; ++d) {
    const std::vector<std::uint64_t> ways = throw_ways(d);
    EXPECT_EQ(std::accumulate(ways.begin(), ways.end(), std::uint64_t(0)), outcomes(d));
    EXPECT_NEAR(p[d][1], 1 - std::pow(5.0 / 6.0, d), 1e-15);  // the seed's P(d, 1)
    for (int k = 0; k <= 6 * d; ++k) {
      EXPECT_NEAR(p[d][k], double(ways[k]) / double(outcomes(d)), 1e-15) << d << " " << k;
      if (k >= 2 && k < 2 * d) {
        EXPECT_EQ(p[d][k], 0.0);  // the seed: P(d, k) = 0 for 2 <= k <= 2d - 1
      }
    }
  }
}

TEST(BattleDice, SamplerDrawsTheExactDistribution) {
  const ThrowSampler sampler(kMaxDiceLimit);
  const auto p = throw_probabilities(kMaxDiceLimit);
  Rng rng = block_rng(11, 22, 33);
  for (int d : {1, 2, 6, 13, 20}) {
    std::vector<std::int64_t> counts(6 * d + 1, 0);
    for (int i = 0; i < 400000; ++i) ++counts[sampler.throw_dice(d, rng)];
    const stats::ChiSquare chi = stats::chi_square(counts, p[d]);
    EXPECT_LT(stats::z_for_tail(chi.p_value), 5) << d << ": chi2 " << chi.statistic << " dof " << chi.dof;
  }
}

// A whole turn (choice and throw) against the exact odds of the choice:
// pure, uniform and mixed cells, and at 12 dice choices whose turn table
// would not fit a 32-bit level (a pure 12 and a uniform 1..12), which choose
// and then throw.
TEST(BattleDice, TurnsDrawTheExactOddsOfTheChoice) {
  const auto p = throw_probabilities(12);
  for (int max_dice : {10, 12}) {
    const ThrowSampler sampler(max_dice);
    Policy policy(2, max_dice);
    std::vector<double> mixed(max_dice, 0.0);
    mixed[0] = 0.25, mixed[max_dice - 1] = 0.75;
    policy.set_pure(0, 0, max_dice);
    policy.set_uniform(0, 1);
    policy.set_mixed(1, 0, mixed);
    policy.set_pure(1, 1, 3);
    Rng rng = block_rng(12, 34, max_dice);
    for (int cell = 0; cell < 4; ++cell) {
      const int mine = cell / 2, theirs = cell % 2;
      const std::vector<double> choice = policy.distribution(mine, theirs);
      std::vector<double> exact(6 * max_dice + 1, 0.0);
      for (int d = 1; d <= max_dice; ++d)
        for (int k = 0; k <= 6 * d; ++k) exact[k] += choice[d - 1] * p[d][k];
      std::vector<std::int64_t> counts(exact.size(), 0);
      for (int i = 0; i < 400000; ++i) ++counts.at(sampler.play_turn(policy, mine, theirs, rng));
      const stats::ChiSquare chi = stats::chi_square(counts, exact);
      EXPECT_LT(stats::z_for_tail(chi.p_value), 5)
          << max_dice << " dice, cell " << cell << ": chi2 " << chi.statistic << " dof " << chi.dof;
    }
  }
}

TEST(BattleBlind, TheSeedsExpressionIsTheMeanOfTheThrow) {
  const auto p = throw_probabilities(kMaxDiceLimit);
  int by_mean = 1;
  std::vector<double> mean(kMaxDiceLimit + 1, 0.0);
  for (int d = 1; d <= kMaxDiceLimit; ++d) {
    for (int k = 1; k <= 6 * d; ++k) mean[d] += k * p[d][k];
    EXPECT_NEAR(expected_points(d), mean[d], 1e-12) << d;
    if (mean[d] > mean[by_mean] + 1e-12) by_mean = d;
    EXPECT_EQ(blind_dice(d), by_mean) << "D = " << d;  // with at most D dice
  }
}

TEST(BattleSequential, GainsAreBoundedAndTheLastPointAlwaysWins) {
  const Rules rules;
  const SequentialSolution s = solve_sequential(rules);
  for (int i = 0; i < rules.goal; ++i)
    for (int j = 0; j < rules.goal; ++j) {
      ASSERT_LE(std::abs(s.expected_gain(i, j)), 1.0 + 1e-12);
      ASSERT_GE(s.best_dice(i, j), 1);
      ASSERT_LE(s.best_dice(i, j), rules.max_dice);
    }
  // Any throw scores at least 1: from goal - 1 the mover wins, with one die.
  for (int j = 0; j < rules.goal; ++j) {
    EXPECT_NEAR(s.expected_gain(rules.goal - 1, j), 1.0, 1e-12);
    EXPECT_EQ(s.best_dice(rules.goal - 1, j), 1);
  }
  // Further ahead is never worse for the mover.
  for (int i = 0; i + 1 < rules.goal; ++i)
    for (int j = 0; j < rules.goal; ++j) ASSERT_LE(s.expected_gain(i, j), s.expected_gain(i + 1, j) + 1e-12);
}

// Exact evaluation of the optimal policy against itself gives back EG(0,0),
// and the non-mover's gain is minus the mover's (antisymmetry), from every
// starting state that the recursion defines.
TEST(BattleSequential, EvaluationOfTheOptimalPolicyGivesBackTheRecursion) {
  const Rules rules;
  Solutions solutions(rules);
  const Policy optimal = optimal_policy(rules, solutions);
  const Evaluation e = evaluate(rules, optimal, &optimal);
  EXPECT_NEAR(expected_gain(e, 0), solutions.sequential().expected_gain(0, 0), 1e-12);
  EXPECT_NEAR(e.win[0], solutions.sequential().first_player_wins(), 1e-12);
  EXPECT_NEAR(expected_gain(e, 1), -solutions.sequential().expected_gain(0, 0), 1e-12);
  EXPECT_EQ(e.tie, 0.0);
  EXPECT_GT(solutions.sequential().first_player_wins(), 0.5);  // moving first is worth something
}

// A head start: the walks (throw by throw, and by score sums) start from
// the scores given and agree with the recursion's value there.
TEST(BattleSequential, AHeadStartIsValuedFromItsScores) {
  const Rules rules;
  Solutions solutions(rules);
  const Policy optimal = optimal_policy(rules, solutions);
  for (const bool follow_turns : {true, false}) {
    const Evaluation e = evaluate(rules, optimal, &optimal, follow_turns, Start{0, 4});
    EXPECT_NEAR(expected_gain(e, 0), solutions.sequential().expected_gain(0, 4), 1e-12) << follow_turns;
    EXPECT_NEAR(e.win[0] + e.win[1] + e.tie, 1.0, 1e-12);
  }
  EXPECT_LT(solutions.sequential().expected_gain(0, 4), solutions.sequential().expected_gain(0, 0));
}

TEST(BattleSequential, OptimalIsTheBestResponseToEveryFamilyInBothSeats) {
  const Rules rules;
  Solutions solutions(rules);
  const Policy optimal = optimal_policy(rules, solutions);
  const double value = solutions.sequential().expected_gain(0, 0);
  for (const json& spec : every_family(rules)) {
    const Policy other = compile(rules, spec, solutions);
    const Evaluation first = evaluate(rules, optimal, &other), second = evaluate(rules, other, &optimal);
    // The optimal policy guarantees EG(0,0) first and -EG(0,0) second, and the
    // other family does no better against it than it does against itself.
    EXPECT_GE(expected_gain(first, 0), value - 1e-12) << spec;
    EXPECT_GE(expected_gain(second, 1), -value - 1e-12) << spec;
    EXPECT_GT(expected_gain(first, 0) + expected_gain(second, 1), 0) << spec;  // beats it over both seatings
  }
}

TEST(BattleOneTurn, OneTurnGameIsAntisymmetricWithValueZeroAndAnEquilibrium) {
  for (int max_dice : {1, 2, 5, 10, 20}) {
    const std::vector<double> a = one_turn_matrix(max_dice);
    for (int i = 0; i < max_dice; ++i)
      for (int j = 0; j < max_dice; ++j) EXPECT_NEAR(a[i * max_dice + j], -a[j * max_dice + i], 1e-13);
    const MatrixGameSolution s = solve_matrix_game(a, max_dice, max_dice);
    EXPECT_NEAR(s.value, 0, 1e-12) << max_dice;  // a symmetric game
    expect_equilibrium(a, max_dice, max_dice, s);
  }
}

TEST(BattleOneTurn, OneTurnMatrixIsTheProbabilityOfMorePointsMinusLess) {
  // By simulation-free brute force for tiny throws: every pair of outcomes.
  const std::vector<double> a = one_turn_matrix(2);
  const auto gain = [](int d1, int d2) {
    double total = 0;
    const auto score = [](const std::vector<int>& faces) {
      int s = 0;
      for (int f : faces) s = f == 1 || s < 0 ? -1 : s + f;
      return s < 0 ? 1 : s;
    };
    const int n1 = d1 == 1 ? 6 : 36, n2 = d2 == 1 ? 6 : 36;
    for (int x = 0; x < n1; ++x)
      for (int y = 0; y < n2; ++y) {
        std::vector<int> f1 = {x % 6 + 1}, f2 = {y % 6 + 1};
        if (d1 == 2) f1.push_back(x / 6 + 1);
        if (d2 == 2) f2.push_back(y / 6 + 1);
        const int k = score(f1), l = score(f2);
        total += (k > l) - (k < l);
      }
    return total / (n1 * n2);
  };
  for (int d1 = 1; d1 <= 2; ++d1)
    for (int d2 = 1; d2 <= 2; ++d2) EXPECT_NEAR(a[(d1 - 1) * 2 + d2 - 1], gain(d1, d2), 1e-15);
}

// D = 2: every state's game is 2x2, so its value has a closed form; solve the
// whole game again with it (no LP) and compare state by state. (Every state
// turns out to have a saddle point; the 2x2 test above covers mixed ones.)
TEST(BattleSimultaneous, TwoDiceGameMatchesTheClosedFormStateByState) {
  const Rules rules{2, 30, Turns::simultaneous};
  const SimultaneousSolution lp = solve_simultaneous(rules);
  const auto p = throw_probabilities(2);
  SimultaneousSolution brute = lp;  // the same shape; values overwritten below
  for (int i = rules.goal - 1; i >= 0; --i)
    for (int j = rules.goal - 1; j >= 0; --j) {
      const std::vector<double> m = state_matrix(rules, p, brute, i, j);
      const double maximin = std::max(std::min(m[0], m[1]), std::min(m[2], m[3]));
      const double minimax = std::min(std::max(m[0], m[2]), std::max(m[1], m[3]));
      brute.value[i * rules.goal + j] =
          maximin >= minimax ? maximin : (m[0] * m[3] - m[1] * m[2]) / (m[0] - m[1] - m[2] + m[3]);
      ASSERT_NEAR(brute.game_value(i, j), lp.game_value(i, j), 1e-12) << i << " " << j;
    }
}

// The value of a small matrix game without an LP: an optimal row strategy is
// a basic solution, so it equalises the payoffs of some square set of rows
// and columns. Try every such set; the best guarantee found is the value.
double brute_force_value(const std::vector<double>& a, int n) {
  double best = -2;
  for (unsigned rows = 1; rows < (1u << n); ++rows)
    for (unsigned columns = 1; columns < (1u << n); ++columns) {
      std::vector<int> r, c;
      for (int i = 0; i < n; ++i) {
        if (rows >> i & 1) r.push_back(i);
        if (columns >> i & 1) c.push_back(i);
      }
      const int k = static_cast<int>(r.size());
      if (static_cast<int>(c.size()) != k) continue;
      // Unknowns p_r (k of them) and v: sum_r p_r a[r][c] - v = 0 for c in C, sum p_r = 1.
      std::vector<std::vector<double>> m(k + 1, std::vector<double>(k + 2, 0.0));
      for (int e = 0; e < k; ++e) {
        for (int u = 0; u < k; ++u) m[e][u] = a[r[u] * n + c[e]];
        m[e][k] = -1;
      }
      for (int u = 0; u < k; ++u) m[k][u] = 1;
      m[k][k + 1] = 1;
      bool singular = false;
      for (int col = 0; col <= k && !singular; ++col) {  // Gauss-Jordan with partial pivoting
        int pivot = col;
        for (int row = col + 1; row <= k; ++row)
          if (std::abs(m[row][col]) > std::abs(m[pivot][col])) pivot = row;
        if (std::abs(m[pivot][col]) < 1e-12) singular = true;
        if (singular) break;
        std::swap(m[col], m[pivot]);
        for (int row = 0; row <= k; ++row)
          if (row != col) {
            const double f = m[row][col] / m[col][col];
            for (int x = col; x <= k + 1; ++x) m[row][x] -= f * m[col][x];
          }
      }
      if (singular) continue;
      std::vector<double> p(n, 0.0);
      bool feasible = true;
      for (int u = 0; u < k; ++u) {
        p[r[u]] = m[u][k + 1] / m[u][u];
        feasible = feasible && p[r[u]] >= -1e-12;
      }
      if (!feasible) continue;
      double guaranteed = 2;
      for (int col = 0; col < n; ++col) {
        double against = 0;
        for (int row = 0; row < n; ++row) against += p[row] * a[row * n + col];
        guaranteed = std::min(guaranteed, against);
      }
      best = std::max(best, guaranteed);
    }
  return best;
}

// D = 4 (the smallest D with mixed equilibria: up to 3 dice every state has a
// saddle point): the whole game again, with the brute-force value in every
// state and the payoff matrices built directly from the seed's formula.
TEST(BattleSimultaneous, FourDiceGameMatchesBruteForceStateByState) {
  const Rules rules{4, 20, Turns::simultaneous};
  const SimultaneousSolution lp = solve_simultaneous(rules);
  EXPECT_GT(lp.linear_programs, 0);  // some states need a mixed strategy
  const auto p = throw_probabilities(4);
  SimultaneousSolution brute = lp;
  for (int i = rules.goal - 1; i >= 0; --i)
    for (int j = rules.goal - 1; j >= 0; --j) {
      brute.value[i * rules.goal + j] = brute_force_value(state_matrix(rules, p, brute, i, j), 4);
      ASSERT_NEAR(brute.game_value(i, j), lp.game_value(i, j), 1e-9) << i << " " << j;
    }
  EXPECT_NEAR(brute_force_value(one_turn_matrix(5), 5), 0, 1e-12);
}

TEST(BattleSimultaneous, ValuesAreAntisymmetricAndEveryStateIsAnEquilibrium) {
  const Rules rules{10, 100, Turns::simultaneous};
  const SimultaneousSolution s = solve_simultaneous(rules);
  const auto p = throw_probabilities(rules.max_dice);
  for (int i = 0; i < rules.goal; ++i)
    for (int j = 0; j < rules.goal; ++j) ASSERT_NEAR(s.game_value(i, j), -s.game_value(j, i), 1e-9) << i << " " << j;
  EXPECT_NEAR(s.game_value(0, 0), 0, 1e-12);
  // Every 7th state: the payoff matrix rebuilt directly from the seed's
  // formula, and the stored strategy against every pure reply.
  for (int i = 0; i < rules.goal; i += 7)
    for (int j = 0; j < rules.goal; j += 3) {
      const std::vector<double> m = state_matrix(rules, p, s, i, j);
      const std::vector<double>& mixed = s.mixed(i, j);
      for (int d2 = 0; d2 < rules.max_dice; ++d2) {
        double against = 0;
        for (int d1 = 0; d1 < rules.max_dice; ++d1) against += mixed[d1] * m[d1 * rules.max_dice + d2];
        ASSERT_GE(against, s.game_value(i, j) - 1e-9) << i << " " << j << " d2 = " << d2 + 1;
      }
      const MatrixGameSolution again = solve_matrix_game(m, rules.max_dice, rules.max_dice);
      ASSERT_NEAR(again.value, s.game_value(i, j), 1e-9) << i << " " << j;
    }
}

// The largest game the rules allow per state (D = 20) over a longer race:
// with GLPK's default 1e-7 tolerances a few states stopped one pivot short
// (V(i,j) + V(j,i) = 1.8e-8, strategies 5e-8 from an equilibrium).
TEST(BattleSimultaneous, TwentyDiceGameIsSolvedToRoundOff) {
  const Rules rules{20, 200, Turns::simultaneous};
  const SimultaneousSolution s = solve_simultaneous(rules);
  EXPECT_LT(s.largest_gap, 1e-12);
  for (int i = 0; i < rules.goal; ++i)
    for (int j = 0; j < rules.goal; ++j) ASSERT_NEAR(s.game_value(i, j), -s.game_value(j, i), 1e-12) << i << " " << j;
}

TEST(BattleSimultaneous, OptimalNeverLosesOnAverageAndBeatsEveryFamily) {
  const Rules rules{10, 100, Turns::simultaneous};
  Solutions solutions(rules);
  const Policy optimal = optimal_policy(rules, solutions);
  const Evaluation self = evaluate(rules, optimal, &optimal);
  EXPECT_NEAR(self.win[0], self.win[1], 1e-6);  // the game value is 0 (quantised mixes shift it slightly)
  for (const json& spec : every_family(rules)) {
    const Policy other = compile(rules, spec, solutions);
    const Evaluation e = evaluate(rules, optimal, &other);
    EXPECT_GT(expected_gain(e, 0), 0) << spec;
  }
  const Policy blind = compile(rules, {{"family", "blind"}}, solutions);
  EXPECT_NEAR(expected_gain(evaluate(rules, blind, &optimal), 1), expected_gain(evaluate(rules, optimal, &blind), 0),
              1e-9);  // the seats are symmetric
}

// Against a policy that throws the same in every state the evaluator takes a
// shortcut; a copy that differs only in an unreachable state (seat 1 at 0
// facing 99) takes the general path, and both must agree.
TEST(BattleEvaluation, TheShortcutAgainstAConstantPolicyMatchesTheGeneralPath) {
  const Rules rules{10, 100, Turns::simultaneous};
  Solutions solutions(rules);
  const Policy optimal = optimal_policy(rules, solutions);
  for (const json& spec : {json{{"family", "random"}}, json{{"family", "fixed"}, {"dice", 8}}}) {
    const Policy constant = compile(rules, spec, solutions);
    Policy almost = constant;
    almost.set_pure(0, 99, 1);
    for (const auto& [first, second] : {std::pair{&optimal, &constant}, std::pair{&constant, &optimal}}) {
      const Evaluation shortcut = evaluate(rules, *first, second);
      const Evaluation general =
          evaluate(rules, first == &optimal ? optimal : almost, second == &optimal ? &optimal : &almost);
      EXPECT_NEAR(shortcut.win[0], general.win[0], 1e-12) << spec;
      EXPECT_NEAR(shortcut.tie, general.tie, 1e-12) << spec;
      for (int seat = 0; seat < 2; ++seat)
        for (std::size_t bin = 0; bin < shortcut.score[seat].size(); ++bin)
          ASSERT_NEAR(shortcut.score[seat][bin], general.score[seat][bin], 1e-12) << spec << " seat " << seat;
      EXPECT_NEAR(shortcut.turns[1][10], general.turns[1][10], 1e-12);
    }
  }
}

// Above kTurnsFollowedUpToGoal the evaluator goes through the states once in
// increasing score sums instead of throw by throw: the same wins, ties and
// final scores, without the turns.
TEST(BattleEvaluation, OnePassInScoreSumsMatchesTheWalkThrowByThrow) {
  for (const Turns turns : {Turns::sequential, Turns::simultaneous}) {
    const Rules rules{10, 100, turns};
    Solutions solutions(rules);
    const Policy optimal = optimal_policy(rules, solutions);
    const Policy blind = compile(rules, {{"family", "blind"}}, solutions);
    for (const auto& [first, second] :
         {std::pair{&optimal, &optimal}, std::pair{&optimal, &blind}, std::pair{&blind, &optimal}}) {
      const Evaluation walk = evaluate(rules, *first, second, true), by_sum = evaluate(rules, *first, second, false);
      EXPECT_NEAR(walk.win[0], by_sum.win[0], 1e-12);
      EXPECT_NEAR(walk.win[1], by_sum.win[1], 1e-12);
      EXPECT_NEAR(walk.tie, by_sum.tie, 1e-12);
      for (int seat = 0; seat < 2; ++seat) {
        for (std::size_t bin = 0; bin < walk.score[seat].size(); ++bin)
          ASSERT_NEAR(walk.score[seat][bin], by_sum.score[seat][bin], 1e-12) << "seat " << seat << " bin " << bin;
        EXPECT_TRUE(by_sum.turns[seat].empty());
        EXPECT_FALSE(walk.turns[seat].empty());
      }
    }
  }
}

TEST(BattlePolicy, MixedWeightsAreMultiplesOfTwoToTheMinus32AddingUpToOne) {
  Policy policy(3, 4);
  policy.set_mixed(1, 2, {0.1, 0.2, 0.3 + 1e-12, 0.4 - 1e-12});
  const std::vector<double> p = policy.distribution(1, 2);
  EXPECT_EQ(std::accumulate(p.begin(), p.end(), 0.0), 1.0);
  for (double x : p) EXPECT_EQ(std::ldexp(x, 32), std::round(std::ldexp(x, 32)));
  EXPECT_NEAR(p[0], 0.1, 1e-9);
  policy.set_mixed(0, 0, {0, 1e-15, 1, 0});  // LP round-off: a pure choice
  EXPECT_EQ(policy.distribution(0, 0), (std::vector<double>{0, 0, 1, 0}));
}

// Monte Carlo against the exact evaluator: win rates, tie rate and the mean
// of every distribution, within |z| < 5.
void expect_monte_carlo_agrees(const Rules& rules, const Policy& first, const Policy* second, std::uint64_t seed) {
  const Evaluation e = evaluate(rules, first, second);
  const ThrowSampler dice(rules.max_dice);
  Rng rng = block_rng(seed, 1, 2);
  const int seats = second ? 2 : 1;
  constexpr std::uint64_t kGames = 200000;
  std::vector<std::uint64_t> wins(2, 0);
  std::uint64_t ties = 0;
  std::vector<std::vector<std::int64_t>> score(2, std::vector<std::int64_t>(rules.score_bins(), 0)),
      turns(2, std::vector<std::int64_t>(rules.goal + 1, 0));
  play_games<1>(dice, rules, first, second, kGames, rng, [&](const GameRecord& r) {
    if (r.winner < 0) {
      ++ties;
    } else {
      ++wins[r.winner];
    }
    for (int s = 0; s < seats; ++s) ++score[s][r.score[s]], ++turns[s][r.turns[s]];
  });
  for (int s = 0; s < seats; ++s) {
    if (second) {
      EXPECT_LT(std::abs(stats::rate_z(wins[s], kGames, e.win[s])), 5) << "seat " << s;
    }
    for (const auto& [counts, exact] : {std::pair{&score[s], &e.score[s]}, std::pair{&turns[s], &e.turns[s]}}) {
      const stats::Moments m = stats::histogram_moments(*counts, 0);
      EXPECT_LT(std::abs(stats::mean_z(m.mean, kGames, stats::exact_moments(*exact, 0))), 5) << "seat " << s;
      EXPECT_LT(stats::z_for_tail(stats::chi_square(*counts, *exact).p_value), 5) << "seat " << s;
    }
  }
  if (second) {
    EXPECT_LT(std::abs(stats::rate_z(ties, kGames, e.tie)), 5);
  }
}

TEST(BattleEvaluation, MonteCarloAgreesInTheSequentialGame) {
  const Rules rules;
  Solutions solutions(rules);
  const Policy optimal = optimal_policy(rules, solutions);
  const Policy random = compile(rules, {{"family", "random"}}, solutions);
  expect_monte_carlo_agrees(rules, optimal, &random, 1);
  expect_monte_carlo_agrees(rules, random, &optimal, 2);
  expect_monte_carlo_agrees(rules, optimal, nullptr, 3);
}

TEST(BattleEvaluation, MonteCarloAgreesInTheSimultaneousGame) {
  const Rules rules{10, 100, Turns::simultaneous};
  Solutions solutions(rules);
  const Policy optimal = optimal_policy(rules, solutions);
  const Policy blind = compile(rules, {{"family", "blind"}}, solutions);
  expect_monte_carlo_agrees(rules, optimal, &blind, 4);
  expect_monte_carlo_agrees(rules, optimal, &optimal, 5);
  // A small goal within reach of one throw: both pass it in the same turn often.
  const Rules short_race{6, 20, Turns::simultaneous};
  Solutions short_solutions(short_race);
  const Policy short_optimal = optimal_policy(short_race, short_solutions);
  const Policy six = compile(short_race, {{"family", "fixed"}, {"dice", 6}}, short_solutions);
  expect_monte_carlo_agrees(short_race, short_optimal, &six, 6);
  EXPECT_GT(evaluate(short_race, short_optimal, &six).tie, 0.001);
}

std::string fixed6(double x) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(6) << x;
  return out.str();
}

TEST(BattleCli, CheckOfTheSequentialConfigPasses) {
  testing::TempDir dir;
  const auto result = testing::dicesim("check " + testing::source_path("configs/battle_sequential.json") + " -o " +
                                       dir.file("battle.h5") + " --games 100000 --quiet");
  ASSERT_EQ(result.exit_code, 0) << result.out;
  EXPECT_NE(result.out.find(", 0 beyond |z| > 5"), std::string::npos) << result.out;
  h5::Reader r(dir.file("battle.h5"));
  EXPECT_EQ(r.strings("/measures/name", h5::kAnyShape), (std::vector<std::string>{"score", "turns"}));
  const std::vector<std::string> names = r.strings("/checks/name", h5::kAnyShape);
  // Every ordered pair's win rate, and the turns of every seat, are
  // checked, and so is the head start table of optimal against itself.
  EXPECT_EQ(std::count_if(names.begin(), names.end(), [](const std::string& n) { return n.find("/win/") != n.npos; }),
            2 * 5 * 4 + 2);
  EXPECT_GE(std::count_if(names.begin(), names.end(),
                          [](const std::string& n) { return n.find("/turns/distribution") != n.npos; }),
            2 * 5 * 4 + 5 + 2);
  EXPECT_EQ(std::count(names.begin(), names.end(),
                       R"(sequential["optimal",{"head_start":4,"strategy":"optimal"}]/win/optimal/seat1)"),
            1);
}

TEST(BattleCli, SolvePrintsTheSolversNumbers) {
  const auto result = testing::dicesim("solve battle --max-dice 6 --goal 40");
  ASSERT_EQ(result.exit_code, 0) << result.out;
  const Rules rules{6, 40, Turns::sequential};
  const SequentialSolution sequential = solve_sequential(rules);
  EXPECT_NE(result.out.find("EG(0,0) = " + fixed6(sequential.expected_gain(0, 0))), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("P(the first player wins) = " + fixed6(sequential.first_player_wins())), std::string::npos);
  EXPECT_NE(result.out.find("blind d* = " + std::to_string(blind_dice(6))), std::string::npos);
  EXPECT_NE(result.out.find("1600 states solved"), std::string::npos);
  EXPECT_EQ(testing::dicesim("solve battle --max-dice 21").exit_code, 2);
  EXPECT_EQ(testing::dicesim("solve battle --goal 0").exit_code, 2);
}

TEST(BattleCli, SimultaneousTablesPlayTheSameGameInBothContests) {
  // headtohead is allowed with simultaneous turns, and one seat plays alone.
  testing::TempDir dir;
  const std::string config = dir.write("sim.json", R"J({"game": "battle", "games": 20000,
    "rules": {"turns": "simultaneous", "goal": 30, "max_dice": 5},
    "strategies": [{"name": "optimal", "family": "optimal"}, {"name": "two", "family": "fixed", "dice": 2}],
    "contests": {"distributions": true, "headtohead": true, "nway": [["two", "optimal"]]}})J");
  const auto result = testing::dicesim("check " + config + " -o " + dir.file("out.h5") + " --quiet");
  ASSERT_EQ(result.exit_code, 0) << result.out;
  EXPECT_NE(result.out.find(", 0 beyond |z| > 5"), std::string::npos) << result.out;
}

}  // namespace
}  // namespace dicesim::battle
