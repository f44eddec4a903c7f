// Sixers rules, the strategy families on hand-picked rolls, and the exact
// solver against brute force and small cases worked by hand.
#include "games/sixers/sixers.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <numeric>
#include <tuple>

#include "games/sixers/sixers_exact.h"
#include "games/sixers/sixers_strategies.h"
#include "math/stats.h"

namespace dicesim::sixers {
namespace {

Policy compile(const Hands& hands, const json& spec) {
  Solutions solutions(hands);
  return compile_strategy(JsonNode(spec, "test"), hands, solutions);
}

json family(const char* name, std::vector<int> per_roll) { return {{"family", name}, {"per_roll", per_roll}}; }

TEST(SixersRules, ThreeScoresZeroOtherFacesTheirValue) {
  const Rules rules;
  EXPECT_EQ(rules.face_score(3), 0);
  for (int face : {1, 2, 4, 5, 6}) EXPECT_EQ(rules.face_score(face), face);
  EXPECT_EQ(rules.max_score(), 36);
  EXPECT_EQ((Rules{5, 5, 6}).max_score(), 25);  // five dice, a 6 scores 0: 5s are the worst
}

TEST(SixersHands, KeptScoreAddsTheLowestDice) {
  const Hands hands(Rules{});
  const int hand = hands.hand_of({1, 3, 4, 4, 6, 6});  // the paper's first roll
  EXPECT_EQ(hands.sorted_scores(hand), (std::vector<int>{0, 1, 4, 4, 6, 6}));
  EXPECT_EQ(hands.kept_score(hand, 1), 0);
  EXPECT_EQ(hands.kept_score(hand, 2), 1);
  EXPECT_EQ(hands.kept_score(hand, 6), 21);
}

TEST(SixersFamilies, KeepRulesOnTheFirstRollOfThePaper) {
  const Hands hands(Rules{});
  const int hand = hands.hand_of({1, 3, 4, 4, 6, 6});                                     // scores 0 1 4 4 6 6
  EXPECT_EQ(compile(hands, family("dice_value_threshold", {2, 2})).keep(0, 0, hand), 2);  // 0 and 1
  EXPECT_EQ(compile(hands, family("dice_value_threshold", {4, 2})).keep(0, 0, hand), 4);
  EXPECT_EQ(compile(hands, family("dice_number_kept", {3, 2})).keep(0, 0, hand), 3);
  EXPECT_EQ(compile(hands, family("turn_score_threshold", {5, 5})).keep(0, 0, hand), 3);  // 0+1+4 <= 5
  EXPECT_EQ(compile(hands, family("turn_score_threshold", {4, 5})).keep(0, 0, hand), 2);
}

TEST(SixersFamilies, AlwaysKeepAtLeastTheLowestDie) {
  const Hands hands(Rules{});
  const int hand = hands.hand_of({4, 5, 5, 6});  // the paper's second roll: nothing scores 2 or less
  EXPECT_EQ(compile(hands, family("dice_value_threshold", {2, 2})).keep(1, 0, hand), 1);
  EXPECT_EQ(compile(hands, family("turn_score_threshold", {5, 3})).keep(1, 0, hand), 1);
  EXPECT_EQ(compile(hands, family("dice_number_kept", {2, 6})).keep(1, 0, hand), 4);  // all it has
}

TEST(SixersFamilies, TheLastRollKeepsEverything) {
  const Hands hands(Rules{});
  const Policy policy = compile(hands, family("dice_number_kept", {1, 1}));
  const int hand = hands.hand_of({1, 3, 4});
  EXPECT_EQ(policy.keep(2, 0, hand), 3);
  EXPECT_EQ(policy.decision(2, 0, hand) >> 8, 5);  // the paper's third roll adds 1 + 0 + 4
}

// An independent reference: every ordered outcome of every roll, scored
// from the rules, with the dice to keep chosen by a rule written here from
// the paper's definitions (not the strategy tables under test).
using Chooser = std::function<int(int roll, const std::vector<int>& ascending_scores)>;

template <class Visit>
void for_each_roll(const Rules& rules, int dice, Visit visit) {
  std::vector<int> faces(dice, 1);
  for (;;) {
    std::vector<int> scores;
    for (int f : faces) scores.push_back(rules.face_score(f));
    std::sort(scores.begin(), scores.end());
    visit(scores);
    int i = 0;
    while (i < dice && faces[i] == 6) faces[i++] = 1;
    if (i == dice) return;
    ++faces[i];
  }
}

std::vector<double> brute_force_distribution(const Rules& rules, const Chooser& choose) {
  std::vector<double> distribution(rules.max_score() + 1, 0.0);
  std::function<void(int, int, int, double)> play = [&](int roll, int dice, int score, double p) {
    if (dice == 0) {
      distribution[score] += p;
      return;
    }
    const double each = p / std::pow(6.0, dice);
    for_each_roll(rules, dice, [&](const std::vector<int>& scores) {
      const int keep = roll + 1 == rules.rolls ? dice : std::max(1, choose(roll, scores));
      play(roll + 1, dice - keep, score + std::accumulate(scores.begin(), scores.begin() + keep, 0), each);
    });
  };
  play(0, rules.dice, 0, 1.0);
  return distribution;
}

// Calls visit(kept, sum) for every non-empty subset of the rolled dice, not
// only the lowest k (after the last roll, only the whole hand).
template <class Visit>
void for_each_subset(const std::vector<int>& scores, bool last, Visit visit) {
  const int dice = static_cast<int>(scores.size());
  for (int subset = last ? (1 << dice) - 1 : 1; subset < (1 << dice); ++subset) {
    int kept = 0, sum = 0;
    for (int d = 0; d < dice; ++d)
      if (subset >> d & 1) ++kept, sum += scores[d];
    visit(kept, sum);
  }
}

// The least expected score still to come, over every choice of dice.
double brute_mean(const Rules& rules, int roll, int dice, std::map<std::pair<int, int>, double>& memo) {
  if (dice == 0) return 0;
  if (auto it = memo.find({roll, dice}); it != memo.end()) return it->second;
  double total = 0;
  for_each_roll(rules, dice, [&](const std::vector<int>& scores) {
    double best = 1e300;
    for_each_subset(scores, roll + 1 == rules.rolls, [&](int kept, int sum) {
      best = std::min(best, sum + brute_mean(rules, roll + 1, dice - kept, memo));
    });
    total += best;
  });
  return memo[{roll, dice}] = total / std::pow(6.0, dice);
}

// The best chance that the dice still to come add at most `allowance`.
double brute_chance(const Rules& rules, int roll, int dice, int allowance,
                    std::map<std::tuple<int, int, int>, double>& memo) {
  if (allowance < 0) return 0;
  if (dice == 0) return 1;
  const auto key = std::make_tuple(roll, dice, allowance);
  if (auto it = memo.find(key); it != memo.end()) return it->second;
  double total = 0;
  for_each_roll(rules, dice, [&](const std::vector<int>& scores) {
    double best = 0;
    for_each_subset(scores, roll + 1 == rules.rolls, [&](int kept, int sum) {
      best = std::max(best, brute_chance(rules, roll + 1, dice - kept, allowance - sum, memo));
    });
    total += best;
  });
  return memo[key] = total / std::pow(6.0, dice);
}

Chooser reference_rule(const std::string& family, std::vector<int> per_roll) {
  return [family, per_roll](int roll, const std::vector<int>& scores) {
    const int parameter = per_roll[roll];
    int keep = 0, sum = 0;
    for (int score : scores) {
      if (family == "dice_value_threshold" && score > parameter) break;
      if (family == "dice_number_kept" && keep == parameter) break;
      if (family == "turn_score_threshold" && sum + score > parameter) break;
      sum += score;
      ++keep;
    }
    return keep;
  };
}

TEST(SixersExact, FamilyDistributionsMatchBruteForce) {
  for (const Rules rules : {Rules{3, 3, 3}, Rules{4, 2, 6}, Rules{2, 4, 0}}) {
    const Hands hands(rules);
    for (const char* name : {"dice_value_threshold", "dice_number_kept", "turn_score_threshold"}) {
      std::vector<int> per_roll = {2, 1, std::min(3, rules.dice)};  // dn keeps at most the dice there are
      per_roll.resize(rules.rolls - 1);
      const std::vector<double> exact = score_distribution(hands, compile(hands, family(name, per_roll)));
      const std::vector<double> brute = brute_force_distribution(rules, reference_rule(name, per_roll));
      for (std::size_t s = 0; s < exact.size(); ++s) EXPECT_NEAR(exact[s], brute[s], 1e-12) << name << " score " << s;
    }
  }
}

TEST(SixersExact, OptimalMeanEqualsTheBestOverEverySubset) {
  for (const Rules rules : {Rules{3, 3, 3}, Rules{4, 2, 6}, Rules{3, 2, 0}}) {
    std::map<std::pair<int, int>, double> memo;
    EXPECT_NEAR(solve_mean_optimum(Hands(rules)).mean, brute_mean(rules, 0, rules.dice, memo), 1e-12);
  }
}

TEST(SixersExact, TargetAwareEqualsTheBestChanceOverEverySubset) {
  for (const Rules rules : {Rules{3, 3, 3}, Rules{4, 2, 6}}) {
    const Hands hands(rules);
    Solutions solutions(hands);
    std::map<std::tuple<int, int, int>, double> memo;
    for (int target = 0; target <= rules.max_score() + 1; ++target) {
      const std::vector<double> p = score_distribution(hands, solutions.target_aware(), target);
      EXPECT_NEAR(std::accumulate(p.begin(), p.begin() + target, 0.0),
                  brute_chance(rules, 0, rules.dice, target - 1, memo), 1e-12)
          << "target " << target;
    }
  }
}

TEST(SixersExact, OneDieOneRollIsUniformOverTheFaceScores) {
  const Hands hands(Rules{1, 1, 3});
  const std::vector<double> p = score_distribution(hands, Policy(hands, 1));
  for (int score : {0, 1, 2, 4, 5, 6}) EXPECT_NEAR(p[score], 1.0 / 6, 1e-15);
  EXPECT_EQ(p[3], 0.0);
  EXPECT_NEAR(solve_mean_optimum(hands).mean, 18.0 / 6, 1e-15);  // (0+1+2+4+5+6) / 6
}

TEST(SixersExact, TwoDiceTwoRollsOptimumWorkedByHand) {
  // After the first roll, with scores x <= y, keep both (x + y) or only x and
  // reroll one die (x + 3, the mean of one die): keep both when y <= 3, a
  // tie keeping more. The total is x + min(y, 3).
  // E[min(y, 3)]: of the 36 ordered rolls, y = 0 once, y = 1 three times,
  // y = 2 five times, y >= 4 the other 27: (0 + 3 + 10 + 81) / 36 = 94/36.
  // E[x] = sum over s >= 1 of P(x >= s) = P(both dice score >= s):
  // (25 + 16 + 9 + 9 + 4 + 1) / 36 = 64/36 for s = 1..6.
  const Hands hands(Rules{2, 2, 3});
  const MeanOptimum optimum = solve_mean_optimum(hands);
  EXPECT_NEAR(optimum.mean, (64.0 + 94.0) / 36, 1e-12);
  EXPECT_EQ(optimum.policy.keep(0, 0, hands.hand_of({1, 4})), 1);
  EXPECT_EQ(optimum.policy.keep(0, 0, hands.hand_of({1, 2})), 2);
}

TEST(SixersExact, OptimalMeanIsNoWorseThanAnyFamilyMember) {
  const Hands hands(Rules{});
  const double optimum = solve_mean_optimum(hands).mean;
  for (const char* name : {"dice_value_threshold", "turn_score_threshold"})
    for (int a = 0; a <= 8; ++a)
      for (int b = 0; b <= 8; ++b) {
        if (std::string(name) == "dice_value_threshold" && (a > 6 || b > 6)) continue;
        const Policy policy = compile(hands, family(name, {a, b}));
        EXPECT_GE(stats::exact_moments(score_distribution(hands, policy), 0).mean, optimum - 1e-12);
      }
}

TEST(SixersExact, TargetAwareMaximisesTheChanceToBeatEveryTarget) {
  const Hands hands(Rules{});
  Solutions solutions(hands);
  std::vector<Policy> others = {solutions.mean().policy, compile(hands, family("dice_value_threshold", {1, 2})),
                                compile(hands, family("dice_value_threshold", {4, 4})),
                                compile(hands, family("turn_score_threshold", {5, 5}))};
  const auto below = [](const std::vector<double>& p, int target) {
    return std::accumulate(p.begin(), p.begin() + std::max(target, 0), 0.0);
  };
  for (int target = 0; target <= 37; ++target) {
    const double aware = below(score_distribution(hands, solutions.target_aware(), target), target);
    for (const Policy& other : others)
      EXPECT_GE(aware, below(score_distribution(hands, other, target), target) - 1e-12);
  }
  // With a middling target it gambles more than the mean-optimal policy does.
  EXPECT_GT(below(score_distribution(hands, solutions.target_aware(), 6), 6),
            below(score_distribution(hands, solutions.mean().policy), 6) + 1e-3);
}

TEST(SixersExact, TableOddsOfIndependentPairAddUp) {
  const Hands hands(Rules{});
  const Policy a = compile(hands, family("dice_value_threshold", {2, 2}));
  const Policy b = compile(hands, family("turn_score_threshold", {5, 5}));
  const TableOdds odds = table_odds(hands, {&a, &b}, false);
  const std::vector<double> pa = score_distribution(hands, a), pb = score_distribution(hands, b);
  double a_wins = 0, tie = 0;
  for (std::size_t x = 0; x < pa.size(); ++x)
    for (std::size_t y = 0; y < pb.size(); ++y) {
      if (x < y) a_wins += pa[x] * pb[y];
      if (x == y) tie += pa[x] * pb[y];
    }
  EXPECT_NEAR(odds.win[0], a_wins, 1e-12);
  EXPECT_NEAR(odds.tie, tie, 1e-12);
  EXPECT_NEAR(odds.win[0] + odds.win[1] + odds.tie, 1, 1e-12);
  // Players who ignore the score to beat play the same sequentially.
  const TableOdds sequential = table_odds(hands, {&a, &b}, true);
  EXPECT_NEAR(sequential.win[1], odds.win[1], 1e-12);
}

TEST(SixersExact, SecondSeatTargetAwareBeatsItsBlindSelf) {
  const Hands hands(Rules{});
  Solutions solutions(hands);
  const Policy& mean = solutions.mean().policy;
  const TableOdds blind = table_odds(hands, {&mean, &mean}, true);
  const TableOdds aware = table_odds(hands, {&mean, &solutions.target_aware()}, true);
  EXPECT_NEAR(blind.win[0], blind.win[1], 1e-12);
  EXPECT_GT(aware.win[1], blind.win[1] + 0.005);
}

}  // namespace
}  // namespace dicesim::sixers
