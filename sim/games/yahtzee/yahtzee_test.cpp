// Yahtzee: the dice multisets against every ordered throw, each box's rule,
// the joker rules, the published solitaire optima, the optimum's exact
// distribution against its own values, the turn tables against turns thrown
// die by die, and the odds of a table against brute force.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <numeric>
#include <set>

#include "games/yahtzee/yahtzee_exact.h"
#include "games/yahtzee/yahtzee_game.h"
#include "games/yahtzee/yahtzee_heuristics.h"
#include "games/yahtzee/yahtzee_optimum.h"
#include "games/yahtzee/yahtzee_rules.h"
#include "games/yahtzee/yahtzee_strategies.h"
#include "games/yahtzee/yahtzee_turn.h"
#include "math/stats.h"
#include "test_util.h"

namespace dicesim::yahtzee {
namespace {

FaceCounts counts_of(std::initializer_list<int> faces) {
  FaceCounts c{};
  for (int f : faces) ++c[f - 1];
  return c;
}

int roll_of(std::initializer_list<int> faces) { return keepers().roll_of(keepers().index(counts_of(faces))); }

// The optima are shared by several tests: each solved once.
const Optimum& optimum_of(const Rules& rules) {
  static std::map<std::string, Optimum> solved;
  const std::string key = std::to_string(int(rules.card)) + std::to_string(rules.rolls) +
                          std::to_string(rules.yahtzee_bonus) + std::to_string(int(rules.joker)) + "/" +
                          std::to_string(rules.upper_bonus) + "/" + std::to_string(rules.bonus_threshold);
  auto found = solved.find(key);
  if (found == solved.end()) found = solved.emplace(key, solve_optimum(rules)).first;
  return found->second;
}

TEST(YahtzeeDice, KeepersAndRollsMatchEveryOrderedThrow) {
  const Keepers& k = keepers();
  // Every ordered throw of five dice lands on one roll: ways() counts them.
  std::map<int, std::uint32_t> seen;
  for (int n = 0; n < 7776; ++n) {
    FaceCounts c{};
    for (int d = 0, m = n; d < kDice; ++d, m /= 6) ++c[m % 6];
    ++seen[k.roll_of(k.index(c))];
  }
  ASSERT_EQ(seen.size(), std::size_t(kRolls));
  for (const auto& [roll, ways] : seen) EXPECT_EQ(k.ways(roll), ways) << roll;
  // Sub-multisets of each roll, by brute force over the 2^5 choices of dice.
  for (int r = 0; r < kRolls; ++r) {
    std::set<int> subs;
    std::vector<int> dice;
    const FaceCounts& c = k.counts(k.roll_keeper(r));
    for (int f = 0; f < kFaces; ++f)
      for (int i = 0; i < c[f]; ++i) dice.push_back(f);
    for (int mask = 0; mask < 32; ++mask) {
      FaceCounts sub{};
      for (int d = 0; d < kDice; ++d)
        if (mask >> d & 1) ++sub[dice[d]];
      subs.insert(k.index(sub));
    }
    EXPECT_EQ(std::set<int>(k.keeps_of(r).begin(), k.keeps_of(r).end()), subs) << r;
  }
}

TEST(YahtzeeRules, EachBoxScoresByItsRule) {
  using enum Box;
  const FaceCounts full = counts_of({3, 3, 3, 5, 5}), yahtzee_roll = counts_of({4, 4, 4, 4, 4});
  EXPECT_EQ(box_points(threes, full), 9);
  EXPECT_EQ(box_points(three_kind, full), 19);
  EXPECT_EQ(box_points(four_kind, full), 0);
  EXPECT_EQ(box_points(full_house, full), 25);
  EXPECT_EQ(box_points(full_house, yahtzee_roll), 0);  // five of a kind is no full house without the joker
  EXPECT_EQ(box_points(four_kind, yahtzee_roll), 20);
  EXPECT_EQ(box_points(yahtzee, yahtzee_roll), 50);
  EXPECT_EQ(box_points(small_straight, counts_of({1, 2, 3, 4, 6})), 30);
  EXPECT_EQ(box_points(small_straight, counts_of({1, 2, 3, 5, 6})), 0);
  EXPECT_EQ(box_points(large_straight, counts_of({2, 3, 4, 5, 6})), 40);
  EXPECT_EQ(box_points(large_straight, counts_of({1, 2, 3, 4, 6})), 0);
  EXPECT_EQ(box_points(chance, counts_of({1, 2, 3, 4, 6})), 16);
  // Yatzy's boxes.
  EXPECT_EQ(box_points(one_pair, counts_of({2, 2, 5, 5, 6})), 10);
  EXPECT_EQ(box_points(two_pairs, counts_of({2, 2, 5, 5, 6})), 14);
  EXPECT_EQ(box_points(two_pairs, counts_of({5, 5, 5, 5, 6})), 0);  // two different pairs
  EXPECT_EQ(box_points(yatzy_three_kind, full), 9);
  EXPECT_EQ(box_points(yatzy_four_kind, yahtzee_roll), 16);
  EXPECT_EQ(box_points(yatzy_small_straight, counts_of({1, 2, 3, 4, 5})), 15);
  EXPECT_EQ(box_points(yatzy_small_straight, counts_of({2, 3, 4, 5, 6})), 0);
  EXPECT_EQ(box_points(yatzy_large_straight, counts_of({2, 3, 4, 5, 6})), 20);
  EXPECT_EQ(box_points(yatzy_full_house, full), 19);
  // The highest scores the cards allow (Yatzy: 105 + 50 + 219, as its rules say).
  Rules yatzy;
  yatzy.card = CardKind::yatzy, yatzy.upper_bonus = 50, yatzy.yahtzee_bonus = false;
  EXPECT_EQ(yatzy.max_score(), 374);
}

// Where a Yahtzee of fours may go when the Yahtzee box holds 50.
std::map<int, int> scorings(Joker joker, std::uint32_t filled) {
  Rules rules;
  rules.joker = joker;
  const ScoreTable table(rules);
  std::map<int, int> out;
  for_each_scoring(table, Card{filled, 0, true}, roll_of({4, 4, 4, 4, 4}), [&](const Outcome& o) {
    EXPECT_TRUE(o.yahtzee_bonus);
    out[o.box] = o.points;
  });
  return out;
}

TEST(YahtzeeRules, TheJokerRulesPlaceAYahtzeeAsTheyDescribe) {
  const std::uint32_t y = 1u << 11, fours = 1u << 3, ones = 1u;
  // Forced: the fours' box while open.
  EXPECT_EQ(scorings(Joker::forced, y), (std::map<int, int>{{3, 20}}));
  // Forced, fours filled: every open lower box, full house and straights in full.
  const auto lower = scorings(Joker::forced, y | fours);
  EXPECT_EQ(lower.size(), 6u);
  EXPECT_EQ(lower.at(8), 25);
  EXPECT_EQ(lower.at(9), 30);
  EXPECT_EQ(lower.at(10), 40);
  EXPECT_EQ(lower.at(12), 20);
  // Forced, the lower section and the fours filled: an upper box for 0.
  const std::uint32_t lower_all = ((1u << 13) - 1) & ~((1u << 6) - 1);
  EXPECT_EQ(scorings(Joker::forced, lower_all | fours | ones), (std::map<int, int>{{1, 0}, {2, 0}, {4, 0}, {5, 0}}));
  // Free: any open box; the full house pays only once the fours' box is filled.
  EXPECT_EQ(scorings(Joker::free, y).size(), 12u);
  EXPECT_EQ(scorings(Joker::free, y).at(8), 0);
  EXPECT_EQ(scorings(Joker::free, y | fours).at(8), 25);
  // None: the full house never pays for five of a kind.
  EXPECT_EQ(scorings(Joker::none, y | fours).at(8), 0);
}

TEST(YahtzeeOptimum, MatchesThePublishedSolitaireOptima) {
  Rules published;
  published.joker = Joker::free;
  // Verhoeff (1999), Glenn (2006), Woodward (2003): 254.5896.
  EXPECT_NEAR(optimum_of(published).expected(), 254.5896, 0.5e-4);
  Rules plain;
  plain.yahtzee_bonus = false, plain.joker = Joker::none;
  EXPECT_NEAR(optimum_of(plain).expected(), 245.87, 0.5e-2);  // without the bonus and the joker
  // The official forced joker differs in the third decimal.
  const double forced = optimum_of(Rules{}).expected();
  EXPECT_GT(std::abs(forced - optimum_of(published).expected()), 1e-3);
  EXPECT_LT(std::abs(forced - optimum_of(published).expected()), 1e-2);
}

TEST(YahtzeeOptimum, ItsExactDistributionHasItsMeanAndSumsToOne) {
  const Optimum& optimum = optimum_of(Rules{});
  const std::vector<double> p = score_distribution(optimum.rules, optimal_plan(optimum));
  EXPECT_NEAR(std::accumulate(p.begin(), p.end(), 0.0), 1.0, 1e-12);
  EXPECT_NEAR(mean_of(p), optimum.expected(), 1e-9);
}

TEST(YahtzeeOptimum, NoRuleOfThumbBeatsItsMean) {
  const Rules rules;
  const Optimum& optimum = optimum_of(rules);
  for (const StrategyFamily& family : families()) {
    if (family.name == "optimal_mean") continue;
    Solutions solutions(rules);
    const PlanOf plan = plan_of(JsonNode(json{{"family", family.name}}, "test"), rules, solutions);
    const std::vector<double> p = score_distribution(rules, plan);
    EXPECT_NEAR(std::accumulate(p.begin(), p.end(), 0.0), 1.0, 1e-12) << family.name;
    EXPECT_LE(mean_of(p), optimum.expected() + 1e-9) << family.name;
  }
}

// One turn from `card` thrown die by die with `plan`: its outcome code.
std::uint32_t throw_turn(const TurnPlan& plan, int rolls, Rng& rng) {
  const Keepers& k = keepers();
  int keeper = k.empty();
  for (int s = 0;; ++s) {
    FaceCounts c = k.counts(keeper);
    for (int d = k.size(keeper); d < kDice; ++d) ++c[uniform_below64(rng, 6)];
    const int roll = k.roll_of(k.index(c));
    if (s + 1 == rolls) return plan.outcome[roll];
    keeper = plan.keep[s][roll];
  }
}

TEST(YahtzeeTurns, TheTablesWeighTurnsAsDiceThrownOneByOne) {
  const Rules rules;
  const ScoreTable table(rules);
  Heuristic h;
  h.aim = Heuristic::Aim::best_box;
  h.yahtzee_from = 3;
  for (const Card& card : {Card{}, Card{0b1100000111001, 12, true}}) {
    TurnPlan plan;
    heuristic_plan(table, h, card, plan);
    const OutcomeWeights w = turn_weights(plan, rules.rolls, fair_die());
    const double total = double(fair_die().outcomes(15));
    double sum = 0;
    for (const auto& [code, weight] : w) sum += double(weight);
    EXPECT_EQ(sum, total);
    std::map<std::uint32_t, std::uint64_t> seen;
    Rng rng(7, 1);
    const std::uint64_t n = 200000;
    for (std::uint64_t g = 0; g < n; ++g) ++seen[throw_turn(plan, rules.rolls, rng)];
    for (const auto& [code, weight] : w) {
      const double z = stats::rate_z(seen[code], n, double(weight) / total);
      EXPECT_LT(std::abs(z), 5) << "outcome " << code;
      seen.erase(code);
    }
    EXPECT_TRUE(seen.empty()) << "a turn thrown die by die ended on an outcome the table lacks";
  }
  // The loaded test die's weights sum to its own total.
  TurnPlan plan;
  heuristic_plan(table, h, Card{}, plan);
  std::uint64_t loaded = 0;
  for (const auto& [code, weight] : turn_weights(plan, rules.rolls, loaded_die())) loaded += weight;
  EXPECT_EQ(loaded, loaded_die().outcomes(15));
}

TEST(YahtzeeOdds, ATableOfIndependentSeatsMatchesBruteForce) {
  const std::vector<double> a = {0.2, 0.5, 0.3}, b = {0.6, 0.1, 0.3}, c = {0.1, 0.1, 0.8};
  const TableOdds odds = highest_score_odds({&a, &b, &c});
  std::vector<double> win(3, 0.0);
  double tie = 0;
  for (int x = 0; x < 3; ++x)
    for (int y = 0; y < 3; ++y)
      for (int z = 0; z < 3; ++z) {
        const double p = a[x] * b[y] * c[z];
        const int top = std::max({x, y, z});
        const int holders = (x == top) + (y == top) + (z == top);
        if (holders > 1)
          tie += p;
        else
          win[x == top ? 0 : y == top ? 1 : 2] += p;
      }
  for (int s = 0; s < 3; ++s) EXPECT_NEAR(odds.win[s], win[s], 1e-15) << s;
  EXPECT_NEAR(odds.tie, tie, 1e-15);
}

TEST(YahtzeeConfig, YatzysCardHasItsOwnDefaultsAndNoJoker) {
  const Rules yatzy = read_rules(JsonNode(json{{"rules", {{"card", "yatzy"}}}}, "test.json"));
  EXPECT_EQ(yatzy.upper_bonus, 50);
  EXPECT_FALSE(yatzy.has_yahtzee_bonus());
  EXPECT_FALSE(yatzy.has_joker());
  EXPECT_THROW(read_rules(JsonNode(json{{"rules", {{"card", "yatzy"}, {"joker", "free"}}}}, "test.json")), InputError);
}

}  // namespace
}  // namespace dicesim::yahtzee
