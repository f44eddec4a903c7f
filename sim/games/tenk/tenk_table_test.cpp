// Exact odds of 10,000 tables of any size (tenk_table.h): at two seats they
// are the two-player solver's numbers; at three to eight they add up to 1
// and agree with the Monte Carlo (`dicesim check`) under every rule switch
// that they follow, which a loaded die fails.
#include "games/tenk/tenk_table.h"

#include <gtest/gtest.h>

#include <numeric>

#include "games/tenk/tenk_win.h"
#include "tenk_test_util.h"
#include "test_util.h"

namespace dicesim::tenk {
namespace {

using helpers::compile;
using helpers::rules_from;

// At two seats the races give evaluate_win's and game_shape's numbers.
constexpr double kSameNumbers = 1e-12;

double total(const std::vector<double>& p) { return std::accumulate(p.begin(), p.end(), 0.0); }

void expect_same_distribution(std::vector<double> a, std::vector<double> b, const std::string& what) {
  const std::size_t size = std::max(a.size(), b.size());
  a.resize(size, 0.0), b.resize(size, 0.0);
  for (std::size_t k = 0; k < size; ++k) ASSERT_NEAR(a[k], b[k], kSameNumbers) << what << " bin " << k;
}

// Rules under which both solvers apply, with strategies that chase and one
// that does not.
const std::vector<json> kRuleSets = {
    json::object(),
    {{"target", 3000}, {"last_turn", true}},
    {{"target", 2000}, {"exact_target", true}},
    {{"target", 2000}, {"exact_target", true}, {"last_turn", true}},
    {{"target", 3000}, {"no_stop_on_hot_dice", true}, {"high_bank_minimum", 1000}, {"high_from", 1500}},
    {{"target", 2000}, {"partial_set_aside", true}, {"last_turn", true}},
    {{"preset", "ai_blog"}, {"target", 3000}},
};

TEST(TenkTable, TwoSeatsGiveTheTwoPlayerSolversNumbers) {
  const json strategies[][2] = {
      {{{"family", "ev_heuristic"}}, {{"family", "bank_at"}, {"total", 350}}},
      {{{"family", "bank_at"}, {"total", 500}, {"chase", false}}, {{"family", "critical_score"}}},
  };
  for (const json& rule_set : kRuleSets)
    for (const auto& pair : strategies) {
      const Rules rules = rules_from(rule_set);
      const Scoring scoring(rules);
      const Policy a = compile(scoring, pair[0]), b = compile(scoring, pair[1]);
      const std::string what = rule_set.dump() + " " + pair[0].dump() + " vs " + pair[1].dump();
      const TableOutcome races = evaluate_table(scoring, {&a, &b});
      const PolicyRule first(rules, a), second(rules, b);
      const WinSolution game = evaluate_win(scoring, first, second);
      EXPECT_NEAR(races.win[0], game.first_wins(), kSameNumbers) << what;
      EXPECT_NEAR(races.win[1], game.second_wins(), kSameNumbers) << what;
      EXPECT_NEAR(races.tie, game.tie(), kSameNumbers) << what;
      const GameShape shape = game_shape(scoring, first, second);
      for (int seat = 0; seat < 2; ++seat) {
        const std::string where = what + " seat " + std::to_string(seat);
        if (!shape.first_turn[seat].empty())
          expect_same_distribution(races.first_turn[seat], shape.first_turn[seat], where + " first turn");
        if (!shape.turns[seat].empty())
          expect_same_distribution(races.turns[seat], shape.turns[seat], where + " turns");
      }
    }
}

TEST(TenkTable, OddsAtEverySizeAddUpToOne) {
  const Rules rules = rules_from({{"target", 3000}, {"last_turn", true}});
  const Scoring scoring(rules);
  const json families[] = {{{"family", "ev_heuristic"}},
                           {{"family", "bank_at"}, {"total", 350}},
                           {{"family", "bank_at"}, {"total", 1000}, {"chase", false}},
                           {{"family", "critical_score"}}};
  std::vector<Policy> policies;
  for (const json& spec : families) policies.push_back(compile(scoring, spec));
  for (int seats = 3; seats <= kMaxPlayers; ++seats) {
    std::vector<const Policy*> table;
    for (int s = 0; s < seats; ++s) table.push_back(&policies[s % policies.size()]);
    const TableOutcome odds = evaluate_table(scoring, table);
    EXPECT_NEAR(total(odds.win) + odds.tie, 1, 1e-12) << seats << " seats";
    for (int s = 0; s < seats; ++s) {
      EXPECT_NEAR(total(odds.turns[s]), 1, 1e-12) << seats << " seats, seat " << s;
      EXPECT_NEAR(total(odds.first_turn[s]), 1, 1e-12) << seats << " seats, seat " << s;
    }
  }
}

// At three seats every place is followed: each seat's places add up to 1,
// its first place is its win alone plus its share of the ties, and where
// seats may tie for the win (an exact target, a seat that does not chase)
// the shares come to between two and three times the tie's chance.
TEST(TenkTable, AtThreeSeatsThePlacesAddUpAndTheFirstIsTheWin) {
  for (const json& rule_set : kRuleSets) {
    const Rules rules = rules_from(rule_set);
    const Scoring scoring(rules);
    const Policy ev = compile(scoring, {{"family", "ev_heuristic"}});
    const Policy b350 = compile(scoring, {{"family", "bank_at"}, {"total", 350}});
    const Policy no_chase = compile(scoring, {{"family", "bank_at"}, {"total", 500}, {"chase", false}});
    const TableOutcome odds = evaluate_table(scoring, {&no_chase, &ev, &b350});
    ASSERT_EQ(odds.place.size(), 3u) << rule_set;
    double shares = 0;
    for (int s = 0; s < 3; ++s) {
      EXPECT_NEAR(total(odds.place[s]), 1, 1e-12) << rule_set << " seat " << s;
      const double share = odds.place[s][0] - odds.win[s];
      EXPECT_GE(share, -1e-12) << rule_set << " seat " << s;
      EXPECT_LE(share, odds.tie + 1e-12) << rule_set << " seat " << s;
      shares += share;
    }
    EXPECT_GE(shares, 2 * odds.tie - 1e-12) << rule_set;
    EXPECT_LE(shares, 3 * odds.tie + 1e-12) << rule_set;
  }
  // Past three seats the places after the first are not followed.
  const Scoring scoring(rules_from(json::object()));
  const Policy ev = compile(scoring, {{"family", "ev_heuristic"}});
  EXPECT_TRUE(evaluate_table(scoring, {&ev, &ev, &ev, &ev}).place.empty());
}

TEST(TenkTable, AJoinedGameIsRefusedWithItsStateCount) {
  const Rules rules = rules_from({{"continue_previous", true}});
  const Scoring scoring(rules);
  const Policy ev = compile(scoring, {{"family", "ev_heuristic"}});
  const std::optional<std::string> why = table_refusal(rules, {&ev, &ev, &ev});
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("IV.5"), std::string::npos) << *why;
  EXPECT_NE(why->find("2.4e+07 turn starts"), std::string::npos) << *why;  // 3 x 200^3
  EXPECT_FALSE(table_refusal(rules_from(json::object()), {&ev, &ev, &ev}));
}

// `dicesim check` of tables of three, four and six seats under each rule
// set: every number the races give agrees with the games at |z| < 5, and a
// loaded die fails.
class TenkTableRules : public ::testing::TestWithParam<json> {};

TEST_P(TenkTableRules, MonteCarloAgrees) {
  const json& rule_set = GetParam();
  const testing::TempDir dir;
  const json strategies = json::array({
      {{"name", "ev"}, {"family", "ev_heuristic"}},
      {{"name", "b350"}, {"family", "bank_at"}, {"total", 350}},
      {{"name", "b1000"}, {"family", "bank_at"}, {"total", 1000}},
      {{"name", "critical"}, {"family", "critical_score"}},
      {{"name", "no_chase"}, {"family", "bank_at"}, {"total", 500}, {"chase", false}},
      {{"name", "expected"}, {"family", "optimal_expected"}},
  });
  const json tables = {{"ev", "b350", "no_chase"},
                       {"b1000", "critical", "no_chase", "ev"},
                       {"no_chase", "b350", "expected", "b1000", "ev", "critical"}};
  // Games within seconds: exact targets end games quickly; IV.1 and IV.4
  // play throw by throw.
  const bool slow = rule_set.contains("partial_set_aside") || rule_set.contains("no_stop_on_hot_dice");
  const double games = rule_set.contains("exact_target") ? 1e6 : slow ? 1e5 : 3e5;
  const json config = {{"game", "tenk"},
                       {"games", games},
                       {"rules", rule_set},
                       {"strategies", strategies},
                       {"contests", {{"distributions", false}, {"sequential_tables", tables}}}};
  const std::string file = dir.write("config.json", config.dump());
  const auto fair = testing::dicesim("check " + file + " -o " + dir.file("fair.h5"));
  EXPECT_EQ(fair.exit_code, 0) << fair.out;
  EXPECT_NE(fair.out.find("0 beyond |z| > 5"), std::string::npos) << fair.out;
  EXPECT_NE(fair.out.find("places after the first"), std::string::npos) << fair.out;  // what is left out is named
  EXPECT_NE(fair.out.find("sequential[\"ev\",\"b350\",\"no_chase\"]/no_chase/place/distribution"), std::string::npos)
      << fair.out;  // every place at three seats
  const auto loaded = testing::dicesim("check " + file + " --test-biased-die --games 1e5 -o " + dir.file("loaded.h5"));
  EXPECT_EQ(loaded.exit_code, 1) << loaded.out;
}

// The default target's games are long: the shipped configs' tables (the
// shared suite) and the two-seat comparison cover it.
INSTANTIATE_TEST_SUITE_P(RuleSets, TenkTableRules, ::testing::ValuesIn(kRuleSets.begin() + 1, kRuleSets.end()));

}  // namespace
}  // namespace dicesim::tenk
