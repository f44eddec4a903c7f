// Pig: optimal_win and policy evaluation against independent state-by-state
// iterations, the Monte Carlo hot loop against the exact evaluation, and
// `dicesim solve pig` and `check` on the shipped configs.
#include "games/pig/pig_exact.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <iomanip>
#include <numeric>
#include <sstream>
#include <tuple>

#include "games/pig/pig.h"
#include "games/pig/pig_strategies.h"
#include "math/stats.h"
#include "pig_test_util.h"
#include "test_util.h"

namespace dicesim::pig {
namespace {

using helpers::rules_of;

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
