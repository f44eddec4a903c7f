// 10,000: whole games (the target, places, last turns, the round cap, IV.5's
// taking over, exact targets), the rules as a config gives them (presets,
// overrides, errors naming the path), and `solve tenk` with `check` on a
// config.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "games/tenk/tenk.h"
#include "games/tenk/tenk_exact.h"
#include "games/tenk/tenk_game_loop.h"
#include "games/tenk/tenk_rules.h"
#include "games/tenk/tenk_strategies.h"
#include "math/stats.h"
#include "tenk_test_util.h"
#include "test_util.h"

namespace dicesim::tenk {
namespace {

using helpers::compile;
using helpers::rules_from;

GameResult play_one(const Scoring& s, const std::vector<const Policy*>& seats, Rng& rng, int& turns_seen) {
  GameResult r;
  turns_seen = 0;
  play_game(s, seats.data(), static_cast<int>(seats.size()), rng, r, [&](int, int) { ++turns_seen; });
  return r;
}

TEST(TenkGame, GamesEndWithAWinnerAtTheTarget) {
  const Scoring s(preset("seed000"));
  const Policy ev = compile(s, {{"family", "ev_heuristic"}});
  const Policy at = compile(s, {{"family", "bank_at"}, {"total", 350}});
  Rng rng(7);
  for (int g = 0; g < 2000; ++g) {
    int turns = 0;
    const GameResult r = play_one(s, {&ev, &at, &ev, &at}, rng, turns);
    EXPECT_FALSE(r.capped);
    int winners = 0, total_turns = 0;
    for (int seat = 0; seat < 4; ++seat) {
      winners += r.place[seat] == 1;
      total_turns += r.turns[seat];
      if (r.place[seat] == 1) {
        EXPECT_GE(r.score[seat], 10000);
      }
      EXPECT_EQ(r.score[seat] % kPoint, 0);
    }
    EXPECT_GE(winners, 1);
    EXPECT_EQ(total_turns, turns);
    // The round is played out: seats play equally often, or the seats
    // before the finisher once more.
    EXPECT_LE(r.turns[0] - r.turns[3], 1);
  }
}

// Seed 000, III: the order in which the target was reached, then the
// score within a round; with last turns (seed 003), the score alone.
TEST(TenkGame, PlacesGoByTheRoundTheTargetWasReachedThenByScore) {
  GameResult r{};
  const int scores[] = {10450, 10050, 10400, 9900};
  std::copy(std::begin(scores), std::end(scores), r.score);
  const int reached_round[] = {6, 5, 5, -1};
  assign_places(preset("seed000"), 4, reached_round, r);
  EXPECT_EQ(std::vector<int>(r.place, r.place + 4), (std::vector<int>{3, 2, 1, 4}));
  Rules last_turn = preset("seed000");
  last_turn.last_turn = true;
  assign_places(last_turn, 4, reached_round, r);
  EXPECT_EQ(std::vector<int>(r.place, r.place + 4), (std::vector<int>{1, 3, 2, 4}));
  r.score[2] = 10050;  // the same round and the same score: a shared place
  assign_places(preset("seed000"), 4, reached_round, r);
  EXPECT_EQ(std::vector<int>(r.place, r.place + 4), (std::vector<int>{3, 1, 1, 4}));
}

TEST(TenkGame, EveryoneElseGetsALastTurn) {
  const Scoring s(rules_from({{"last_turn", true}}));
  const Policy at = compile(s, {{"family", "bank_at"}, {"total", 350}});
  Rng rng(8);
  for (int g = 0; g < 500; ++g) {
    int turns = 0;
    const GameResult r = play_one(s, {&at, &at, &at}, rng, turns);
    int finisher_turns = 0;
    for (int seat = 0; seat < 3; ++seat)
      if (r.place[seat] == 1) finisher_turns = r.turns[seat];
    for (int seat = 0; seat < 3; ++seat) EXPECT_GE(r.turns[seat], finisher_turns - 1);
  }
}

TEST(TenkGame, AGameThatCannotEndIsCappedNotHung) {
  const Scoring s(rules_from({{"max_rounds", 3}}));
  const Policy at = compile(s, {{"family", "bank_at"}, {"total", 350}});
  Rng rng(9);
  int turns = 0;
  const GameResult r = play_one(s, {&at, &at}, rng, turns);
  EXPECT_TRUE(r.capped);
  EXPECT_EQ(turns, 6);
}

// One seat's first turns in two-player games of one round (the rules must
// say max_rounds 1): their mean z and P(zero) z against turn_distribution.
struct FirstTurnZ {
  double mean, zero;
};
FirstTurnZ first_turn_z(const Scoring& s, const Policy& first, const Policy& second, int seat, int games,
                        std::uint64_t seed) {
  const std::vector<double> p = turn_distribution(s, seat == 0 ? first : second);
  const Policy* seats[] = {&first, &second};
  Rng rng(seed);
  double sum = 0;
  int zeros = 0;
  GameResult r;
  for (int g = 0; g < games; ++g) {
    play_game(s, seats, 2, rng, r, [](int, int) {});
    sum += r.first_turn[seat] / kPoint;
    zeros += r.first_turn[seat] == 0;
  }
  return {stats::mean_z(sum / games, games, stats::exact_moments(p, 0)), stats::rate_z(zeros, games, p[0])};
}

// IV.5 at the table: one round, bank_at 350 first, the optimum second. The
// second seat's first turn is a fresh turn (its exact distribution) unless
// it may take over the first seat's banked position, which pays.
double second_seat_first_turn_z(bool continue_previous) {
  const Scoring s(rules_from({{"continue_previous", continue_previous}, {"max_rounds", 1}}));
  const Policy first = compile(s, {{"family", "bank_at"}, {"total", 350}});
  const Policy second = compile(s, {{"family", "optimal_expected"}});
  return first_turn_z(s, first, second, 1, 100000, 11).mean;
}

TEST(TenkGame, TakingOverThePreviousPositionPays) {
  EXPECT_LT(std::abs(second_seat_first_turn_z(false)), 5);
  EXPECT_GT(second_seat_first_turn_z(true), 5);
}

// What `check` relies on: the first seat's first turn at a table is a
// fresh turn with nothing banked, so its exact distribution is
// turn_distribution's, under any rules. Taking over a position (IV.5) can
// only happen from the second turn of a game on; a small or exact target
// ends or busts a turn the same way in both.
TEST(TenkGame, TheFirstSeatsFirstTurnIsOneTurnOfItsPolicyUnderEveryRule) {
  for (const json& rules : {json{{"continue_previous", true}}, json{{"target", 300}, {"bank_minimum", 0}},
                            json{{"exact_target", true}, {"target", 1000}},
                            json{{"partial_set_aside", true}, {"no_stop_on_hot_dice", true}},
                            json{{"preset", "seed003"}, {"continue_previous", true}, {"last_turn", true}}}) {
    json one_round = rules;
    one_round["max_rounds"] = 1;  // only the first round matters
    const Scoring s(rules_from(one_round));
    const Policy first = compile(s, {{"family", "optimal_expected"}});
    const Policy second = compile(s, {{"family", "ev_heuristic"}});
    const FirstTurnZ z = first_turn_z(s, first, second, 0, 50000, 12);
    EXPECT_LT(std::abs(z.mean), 5) << rules;
    EXPECT_LT(std::abs(z.zero), 5) << rules;
  }
}

TEST(TenkGame, ExactTargetIsHitExactly) {
  const Scoring s(rules_from({{"exact_target", true}, {"target", 2000}}));
  const Policy ev = compile(s, {{"family", "ev_heuristic"}});
  Rng rng(10);
  for (int g = 0; g < 300; ++g) {
    int turns = 0;
    const GameResult r = play_one(s, {&ev, &ev}, rng, turns);
    if (r.capped) continue;
    for (int seat = 0; seat < 2; ++seat) {
      EXPECT_LE(r.score[seat], 2000);
      if (r.place[seat] == 1) {
        EXPECT_EQ(r.score[seat], 2000);
      }
    }
  }
}

TEST(TenkRules, OptionalConstraintsOfSeed000) {
  const Rules r = rules_from({{"no_stop_on_hot_dice", true}, {"high_bank_minimum", 500}, {"exact_target", true}});
  EXPECT_TRUE(may_bank(r, 0, 400, false));
  EXPECT_FALSE(may_bank(r, 0, 400, true));      // IV.1: the next throw would use all six dice
  EXPECT_FALSE(may_bank(r, 5050, 400, false));  // IV.2: 500 above 5000
  EXPECT_TRUE(may_bank(r, 5000, 400, false));
  EXPECT_TRUE(may_bank(r, 9900, 100, true));  // IV.3: the exact target needs no minimum
  // IV.5: the optimum takes over a good position; bank_at 350 never wants
  // to throw on from a position someone banked at 350.
  const Scoring s(rules_from({{"continue_previous", true}}));
  const Policy optimal = compile(s, {{"family", "optimal_expected"}});
  EXPECT_TRUE(optimal.takes_over(0, 0, 6, 350));
  EXPECT_FALSE(optimal.takes_over(0, 0, 1, 350));
  EXPECT_FALSE(compile(s, {{"family", "bank_at"}, {"total", 350}}).takes_over(0, 0, 6, 350));
}

TEST(TenkRules, PresetsCanBeOverriddenKeyByKey) {
  const Rules r = rules_from({{"preset", "seed003"}, {"straight", 1500}, {"single", {{"5", 100}}}});
  EXPECT_EQ(r.straight, 1500);
  EXPECT_EQ(r.three_pairs, 750);
  EXPECT_EQ(r.single[5], 100);
  EXPECT_EQ(r.single[1], 100);
  EXPECT_TRUE(r.add_to_triple);
  EXPECT_EQ(rules_from(rules_json(r)).straight, 1500);  // rules() round-trips
}

TEST(TenkRules, BadRulesNameThePath) {
  const auto error = [](const json& rules) {
    try {
      rules_from(rules);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(error({{"dice", 5}, {"straight", 2000}}),
            "test: /straight: straight needs six dice, more than the game has (5)");
  EXPECT_EQ(error({{"dice", 4}, {"of_a_kind", {{"5", 3}}}}),
            "test: /of_a_kind/5: 5 of a kind needs more dice than the game has (4)");
  EXPECT_EQ(error({{"bank_minimum", 20000}}), "test: /bank_minimum: bank minimum 20000 is above the target 10000");
  EXPECT_EQ(error({{"preset", "seed001"}}),
            "test: /preset: unknown preset \"seed001\" (known: game_of_dice (or seed000), ai_blog (or seed003))");
  EXPECT_EQ(error({{"triple", {{"2", 210}}}}), "test: /triple/2: points must be a multiple of 50");
  EXPECT_EQ(error({{"target", 1000000}}), "accepted");  // a target may pass any one combination's points
  EXPECT_EQ(rules_from({{"target", 250000}}).target, 250000);
  EXPECT_EQ(error({{"target", 0}}), "test: /target: expected an integer from 50 to 1000000, got 0");
  EXPECT_EQ(error({{"target", 1000050}}), "test: /target: expected an integer from 50 to 1000000, got 1000050");
  const Scoring every_face_scores(rules_from({{"single", {{"2", 50}, {"3", 50}, {"4", 50}, {"6", 50}}}}));
  EXPECT_THROW(compile(every_face_scores, {{"family", "ev_heuristic"}}), InputError);
  EXPECT_THROW(compile(every_face_scores, {{"family", "critical_score"}}), InputError);
}

// The presets go by the names of their sources, and by their documents'
// file names as older configs give them: the same rules either way.
TEST(TenkRules, PresetsByNameAndByTheirDocumentsFileName) {
  for (const PresetName& p : kPresets) {
    EXPECT_EQ(rules_json(rules_from({{"preset", std::string(p.name)}})),
              rules_json(rules_from({{"preset", std::string(p.file_name)}})))
        << p.name;
    EXPECT_EQ(testing::dicesim("solve tenk --rules " + std::string(p.name)).out,
              testing::dicesim("solve tenk --rules " + std::string(p.file_name)).out)
        << p.name;
  }
  EXPECT_NE(rules_json(rules_from({{"preset", "ai_blog"}})), rules_json(rules_from({{"preset", "game_of_dice"}})));
}

// The table of `solve tenk` against the compiled policies: each printed total
// is the first one (in steps of kPoint, below the target) where play_turn
// would bank in a fresh turn, "-" when there is none; under a bank minimum
// (seed 000), a high one, no stop on hot dice and a small target.
TEST(TenkCli, TheBankTableShowsWhatEachCompiledPolicyDoes) {
  const json strategies = json::array({{{"name", "critical_score"}, {"family", "critical_score"}},
                                       {{"name", "ev_heuristic"}, {"family", "ev_heuristic"}},
                                       {{"name", "optimal_expected"}, {"family", "optimal_expected"}},
                                       {{"name", "bank_at"}, {"family", "bank_at"}, {"total", 100}}});
  const std::vector<json> all_rules = {{{"preset", "seed000"}},
                                       {{"preset", "seed003"}},
                                       {{"preset", "seed000"}, {"bank_minimum", 500}, {"no_stop_on_hot_dice", true}},
                                       {{"preset", "seed000"}, {"target", 2000}}};
  testing::TempDir dir;
  for (const json& rules_json : all_rules) {
    const std::string config = dir.write("c.json", json{{"game", "tenk"},
                                                        {"games", 1},
                                                        {"rules", rules_json},
                                                        {"strategies", strategies},
                                                        {"contests", {{"distributions", false}, {"sequential", true}}}}
                                                       .dump());
    const auto solve = testing::dicesim("solve tenk --config " + config);
    ASSERT_EQ(solve.exit_code, 0) << solve.out;
    const std::size_t table = solve.out.find("Banks first at this turn total");
    ASSERT_NE(table, std::string::npos) << solve.out;
    std::istringstream lines(solve.out.substr(table));
    std::string line;
    std::getline(lines, line);  // title
    std::getline(lines, line);  // header
    const Rules rules = rules_from(rules_json);
    const Scoring scoring(rules);
    for (const json& spec : strategies) {
      ASSERT_TRUE(std::getline(lines, line)) << solve.out;
      std::istringstream cells(line);
      std::string name;
      cells >> name;
      EXPECT_EQ(name, spec["name"]);
      const Policy policy = compile(scoring, spec);
      for (int n = 1; n <= rules.dice; ++n) {
        std::string printed;
        cells >> printed;
        const bool hot = n == rules.dice;
        int first = -1;
        for (int total = kPoint; total < rules.target && first < 0; total += kPoint)
          if (may_bank(rules, 0, total, hot) && !policy.throws(0, kNoPending, n, total)) first = total;
        EXPECT_EQ(printed, first < 0 ? "-" : std::to_string(first)) << rules_json << " " << name << " n=" << n;
      }
    }
  }
}

TEST(TenkCli, SolvePrintsTheSeedTablesAndCheckPassesOnAConfig) {
  const auto solve = testing::dicesim("solve tenk --rules seed000");
  ASSERT_EQ(solve.exit_code, 0) << solve.out;
  EXPECT_NE(solve.out.find("22454.28"), std::string::npos) << solve.out;  // Cs(6)
  const auto seed003 = testing::dicesim("solve tenk --rules seed003");
  ASSERT_EQ(seed003.exit_code, 0) << seed003.out;
  EXPECT_NE(seed003.out.find("45576"), std::string::npos);
  testing::TempDir dir;
  const auto check = testing::dicesim("check " + testing::source_path("configs/tenk_seed003.json") +
                                      " --games 20000 --output " + dir.file("t.h5"));
  EXPECT_EQ(check.exit_code, 0) << check.out;
  EXPECT_NE(check.out.find("0 beyond |z| > 5"), std::string::npos) << check.out;
}

}  // namespace
}  // namespace dicesim::tenk
