// TurnSampler (sim/games/tenk/tenk_turn_sampler.h): whole turns drawn at once must follow
// the exact distribution of a turn, played throw by throw, whatever the
// banked score, the rules, the window and the dice budget.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <utility>

#include "games/tenk/tenk.h"
#include "games/tenk/tenk_exact.h"
#include "games/tenk/tenk_game_loop.h"
#include "games/tenk/tenk_strategies.h"
#include "math/stats.h"
#include "tenk_test_util.h"
#include "test_util.h"

namespace dicesim::tenk {
namespace {

using helpers::compile;
using helpers::rules_from;

// |z| of the sampler's turns from `banked` against `exact`: the larger of
// the chi-square's (pooled bins) and the mean's. optimal_win's turns start
// from (seat, banked, theirs).
double sampled_turns_z(const Scoring& scoring, const Policy& policy, const TurnSampler& sampler, int banked,
                       const std::vector<double>& exact, std::uint64_t seed, int seat = 0, int theirs = 0) {
  constexpr std::int64_t kTurns = 100000;
  Rng rng = block_rng(seed, static_cast<std::uint64_t>(banked), 0);
  std::vector<std::int64_t> counts(exact.size(), 0);
  double sum = 0;
  for (std::int64_t t = 0; t < kTurns; ++t) {
    const int units = sampler.play_turn(scoring, policy, seat, banked, theirs, rng).score / kPoint;
    ++counts[std::min<std::size_t>(units, exact.size() - 1)];
    sum += units;
  }
  const stats::ChiSquare chi = stats::chi_square(counts, exact);
  const double mean_z = stats::mean_z(sum / kTurns, kTurns, stats::exact_moments(exact, 0));
  return std::max(std::abs(stats::z_for_tail(chi.p_value)), std::abs(mean_z));
}

// The banked scores worth looking at: nothing, just above high_from (IV.2's
// second regime), the far side of the window (shared tables), its edge, and
// ever nearer the target.
std::vector<int> banked_scores(const Rules& rules, int window) {
  std::vector<int> out{0};
  if (const int high = rules.high_from / kPoint * kPoint + kPoint; high < rules.target) out.push_back(high);
  for (int to_go : {window + kPoint, window, 1000, 300, kPoint})
    if (rules.target - to_go >= 0) out.push_back(rules.target - to_go);
  return out;
}

void expect_sampler_matches_exact(const Rules& rules, const json& strategy, int window, int budget) {
  const Scoring scoring(rules);
  const Policy policy = compile(scoring, strategy);
  const std::unique_ptr<TurnSampler> sampler = TurnSampler::build(scoring, policy, window, budget);
  ASSERT_NE(sampler, nullptr);
  EXPECT_LE(sampler->dice_budget(), budget);
  EXPECT_GE(sampler->dice_budget(), rules.dice);
  for (int banked : banked_scores(rules, window))
    EXPECT_LT(sampled_turns_z(scoring, policy, *sampler, banked, turn_distribution(scoring, policy, banked), 11), 5)
        << rules_json(rules).dump() << " " << strategy.dump() << " window " << window << " budget " << budget
        << " banked " << banked;
}

// Every rule that a turn's decisions read: the presets, IV.1, IV.2 (two
// regimes of bank minimum), IV.3 (exact target), IV.5 (the banked position
// kept), a short target (every banked score near it).
std::vector<Rules> rule_sets() {
  return {preset("seed000"),
          preset("seed003"),
          rules_from({{"no_stop_on_hot_dice", true}}),
          rules_from({{"high_bank_minimum", 1000}, {"high_from", 3000}}),
          rules_from({{"exact_target", true}}),
          rules_from({{"continue_previous", true}, {"preset", "seed003"}}),
          rules_from({{"target", 2000}})};
}

TEST(TenkTurnSampler, WholeTurnsFollowTheExactDistribution) {
  for (const Rules& rules : rule_sets())
    for (const json& strategy : {json{{"family", "ev_heuristic"}}, json{{"family", "optimal_expected"}}})
      expect_sampler_matches_exact(rules, strategy, TurnSampler::kWindow, TurnSampler::kDiceBudget);
}

// A narrow window and a small dice budget send many turns down the
// "decide" path, which must join play_turn seamlessly.
TEST(TenkTurnSampler, TurnsLeftToDecideStayExact) {
  for (const Rules& rules : rule_sets())
    expect_sampler_matches_exact(rules, {{"family", "bank_at"}, {"total", 1000}}, 400, rules.dice + 2);
}

// The comparison sees a die that shows 1 with 2/7 instead of 1/6.
TEST(TenkTurnSampler, TheComparisonCatchesABiasedDie) {
  const Scoring fair(preset("seed000"));
  const Scoring biased(preset("seed000"), loaded_die());
  const json strategy = {{"family", "ev_heuristic"}};
  const Policy policy = compile(biased, strategy);
  const std::unique_ptr<TurnSampler> sampler = TurnSampler::build(biased, policy);
  ASSERT_NE(sampler, nullptr);
  EXPECT_GT(sampled_turns_z(biased, policy, *sampler, 0, turn_distribution(fair, compile(fair, strategy), 0), 3), 5);
}

// Under IV.5 the next player may take over the banked position: the sampler
// must hand on the same positions as play_turn (dice left, pending face).
TEST(TenkTurnSampler, BankedPositionsMatchPlayUnderIV5) {
  const Scoring scoring(rules_from({{"continue_previous", true}, {"preset", "seed003"}}));
  const Policy policy = compile(scoring, {{"family", "ev_heuristic"}});
  const std::unique_ptr<TurnSampler> sampler = TurnSampler::build(scoring, policy);
  ASSERT_NE(sampler, nullptr);
  constexpr int kTurns = 200000;
  // (dice, pending) of banked positions, sampled against played.
  std::vector<std::int64_t> sampled(kDiceSlots * kDiceSlots, 0), played(kDiceSlots * kDiceSlots, 0);
  Rng a = block_rng(5, 0, 0), b = block_rng(5, 1, 0);
  for (int t = 0; t < kTurns; ++t) {
    const TurnResult s = sampler->play_turn(scoring, policy, 0, a);
    const TurnResult p = play_turn(scoring, policy, 0, 0, 0, {0, scoring.rules().dice, kNoPending}, -1, b);
    if (s.score > 0) {
      ++sampled[s.position.dice * kDiceSlots + s.position.pending];
      ASSERT_EQ(s.position.total, s.score);
    }
    if (p.score > 0) ++played[p.position.dice * kDiceSlots + p.position.pending];
  }
  const stats::ChiSquare chi = stats::chi_square_two_samples(sampled, played);
  EXPECT_LT(std::abs(stats::z_for_tail(chi.p_value)), 5) << "chi2 " << chi.statistic << " dof " << chi.dof;
  EXPECT_GT(chi.dof, 3);  // positions with pending faces and fewer dice are banked
}

// The game loops for tables whose every seat draws whole turns
// (TurnLoop::whole and whole_by_score, whose two-seat loop is written
// apart; the engine's choices for them) leave out only what taken-over
// positions need: from the same stream they play the same games as the
// general loop, turn for turn, last-turn chases (thrown) and seats that do
// not chase included, and games cut at max_rounds.
TEST(TenkTurnSampler, TheWholeTurnLoopPlaysTheGeneralLoopsGames) {
  for (const Rules& rules :
       {preset("seed000"), preset("seed003"), rules_from({{"last_turn", true}}),
        rules_from({{"exact_target", true}, {"target", 2000}}),
        rules_from({{"high_bank_minimum", 1000}, {"high_from", 3000}}), rules_from({{"max_rounds", 22}})}) {
    const Scoring scoring(rules);
    const Policy ev = compile(scoring, {{"family", "ev_heuristic"}});
    const Policy at = compile(scoring, {{"family", "bank_at"}, {"total", 400}});
    const Policy no_chase = compile(scoring, {{"family", "ev_heuristic"}, {"chase", false}});
    const std::unique_ptr<TurnSampler> ev_turns = TurnSampler::build(scoring, ev),
                                       at_turns = TurnSampler::build(scoring, at),
                                       no_chase_turns = TurnSampler::build(scoring, no_chase);
    const Policy* in_order[] = {&at, &ev, &no_chase};
    const TurnSampler* in_order_samplers[] = {at_turns.get(), ev_turns.get(), no_chase_turns.get()};
    const Policy* turned[] = {&no_chase, &at, &ev};
    const TurnSampler* turned_samplers[] = {no_chase_turns.get(), at_turns.get(), ev_turns.get()};
    const Policy* last_seat_stays[] = {&ev, &no_chase, &at};  // at two seats, the second does not chase
    const TurnSampler* last_seat_stays_samplers[] = {ev_turns.get(), no_chase_turns.get(), at_turns.get()};
    const auto plays_as_the_general_loop = [&](auto lean_loop, const Policy* const* seats,
                                               const TurnSampler* const* samplers, int players) {
      Rng lean = block_rng(17, static_cast<std::uint64_t>(players), 0), general = lean;
      int chases = 0, capped = 0;
      for (int game = 0; game < 3000; ++game) {
        std::vector<int> lean_turns, general_turns;
        GameResult a, b;
        play_game<decltype(lean_loop)::value>(
            scoring, seats, players, lean, a, [&](int seat, int units) { lean_turns.push_back(seat * 100000 + units); },
            samplers);
        play_game<TurnLoop::general>(
            scoring, seats, players, general, b,
            [&](int seat, int units) { general_turns.push_back(seat * 100000 + units); }, samplers);
        ASSERT_EQ(lean_turns, general_turns) << rules_json(rules).dump() << " game " << game;
        for (int s = 0; s < players; ++s) {
          ASSERT_EQ(a.score[s], b.score[s]);
          ASSERT_EQ(a.turns[s], b.turns[s]);
          ASSERT_EQ(a.first_turn[s], b.first_turn[s]);
          ASSERT_EQ(a.place[s], b.place[s]);
        }
        ASSERT_EQ(a.capped, b.capped);
        capped += a.capped;
        // Where the last seat did not win, someone reached the target
        // before its turn (or, with last turns, everyone else's): it chased.
        chases += (a.place[players - 1] != 1 && !a.capped) || rules.last_turn;
      }
      EXPECT_TRUE(lean == general);  // the same draws in all
      EXPECT_GT(chases, 100) << rules_json(rules).dump();
      if (rules.max_rounds < 100) {
        EXPECT_GT(capped, 100);
      }
    };
    for (const auto& [seats, samplers] : {std::pair{in_order, in_order_samplers}, std::pair{turned, turned_samplers},
                                          std::pair{last_seat_stays, last_seat_stays_samplers}})
      for (int players : {2, 3}) {
        plays_as_the_general_loop(std::integral_constant<TurnLoop, TurnLoop::whole>{}, seats, samplers, players);
        plays_as_the_general_loop(std::integral_constant<TurnLoop, TurnLoop::whole_by_score>{}, seats, samplers,
                                  players);
      }
  }
}

// One table per banked score within the window of the target, and one per
// bank-minimum regime beyond it (seed 000: 0..5000 and 5050..6950 share).
TEST(TenkTurnSampler, BankedScoresFarFromTheTargetShareATable) {
  const Scoring scoring(preset("seed000"));
  const Policy policy = compile(scoring, {{"family", "ev_heuristic"}});
  EXPECT_EQ(TurnSampler::build(scoring, policy, 3000)->tables(), 3000 / kPoint + 2);
  EXPECT_EQ(TurnSampler::build(scoring, policy, 6000)->tables(), 6000 / kPoint + 1);  // 4000..5000 all regime 0
  const Scoring flat(rules_from({{"high_from", 10000}}));                             // one regime
  EXPECT_EQ(TurnSampler::build(flat, compile(flat, {{"family", "ev_heuristic"}}), 3000)->tables(), 3000 / kPoint + 1);
}

// The most fair dice whose ordered outcomes stay below 2^52: the fewest a
// sampler counts. A table has few columns (a code per units banked below
// the window), which leaves room for more dice (fewer turns left to
// decide); a smaller cap is kept.
int dice_within_52_bits() {
  int dice = 0;
  for (double outcomes = 6; outcomes < std::ldexp(1.0, 52); outcomes *= 6) ++dice;
  return dice;
}

TEST(TenkTurnSampler, TablesByScoreCountMoreDiceThanFitIn52Bits) {
  const Scoring scoring(preset("seed000"));
  const Policy policy = compile(scoring, {{"family", "ev_heuristic"}});
  const int within_52_bits = dice_within_52_bits();
  EXPECT_GT(TurnSampler::build(scoring, policy)->dice_budget(), within_52_bits);
  EXPECT_EQ(TurnSampler::build(scoring, policy, TurnSampler::kWindow, within_52_bits)->dice_budget(), within_52_bits);
}

// Without IV.5 a table's code is the units banked, which the whole-turn
// loops read as they are (through ByScore in the two-seat loop): the same
// scores from the same stream as the general loop, which decodes the code.
// Under IV.5 a code also holds the position left (building the sampler
// checks that every ending's code decodes to it; BankedPositionsMatchPlay
// UnderIV5 checks the positions drawn).
TEST(TenkTurnSampler, CodesAreTheUnitsBankedWithoutIV5) {
  const Scoring plain(preset("seed003")), kept(rules_from({{"continue_previous", true}, {"preset", "seed003"}}));
  const json ev = {{"family", "ev_heuristic"}};
  const Policy policy = compile(plain, ev);
  const std::unique_ptr<TurnSampler> units = TurnSampler::build(plain, policy),
                                     positions = TurnSampler::build(kept, compile(kept, ev));
  ASSERT_NE(units, nullptr);
  ASSERT_NE(positions, nullptr);
  EXPECT_TRUE(units->whole_turns());
  EXPECT_FALSE(positions->whole_turns());
  Rng rng = block_rng(23, 0, 0);
  for (int turn = 0; turn < 4000; ++turn) {
    const int banked = (turn % 190) * kPoint;
    Rng general = rng, by_score = rng;
    const int drawn = units->turn_units(plain, policy, 0, banked / kPoint, 0, rng);
    ASSERT_EQ(drawn * kPoint, units->play_turn(plain, policy, banked, general).score) << "turn " << turn;
    ASSERT_EQ(drawn, units->turn_units<true>(plain, policy, 0, banked / kPoint, 0, by_score)) << "turn " << turn;
    ASSERT_TRUE(general == rng);
    ASSERT_TRUE(by_score == rng);
  }
}

TEST(TenkTurnSampler, NoSamplerWhereTurnsDependOnMoreThanTheBankedScore) {
  const Scoring partial(rules_from({{"partial_set_aside", true}}));
  EXPECT_EQ(TurnSampler::build(partial, compile(partial, {{"family", "ev_heuristic"}})), nullptr);
  const Scoring scoring(preset("seed000"));
  Policy win = compile(scoring, {{"family", "ev_heuristic"}});
  win.plays_to_win = true;
  EXPECT_EQ(TurnSampler::build(scoring, win), nullptr);
}

// optimal_win (two seats), its solution solved into a fresh cache
// directory: a turn's decisions depend on (seat, mine, theirs).
struct SolvedWin {
  explicit SolvedWin(const Rules& rules) : scoring(rules) {
    ::setenv("DICESIM_CACHE_DIR", cache.path().c_str(), 1);
    Solutions solutions(scoring);
    policy = compile_strategy(JsonNode(json{{"family", "optimal_win"}}, "test"), scoring, solutions);
    solutions.attach_win(policy);
    ::unsetenv("DICESIM_CACHE_DIR");
  }
  int units() const { return scoring.rules().target / kPoint; }

  testing::TempDir cache;
  const Scoring scoring;
  Policy policy;
};

Rules short_game(const Rules& base, int target) {
  Rules rules = base;
  rules.target = target;
  rules.high_from = std::min(rules.high_from, target / 2);
  return rules;
}

// The turn starts worth looking at: nothing banked, either seat far behind
// or far ahead, both near the target (where the solved decisions differ
// most from turn start to turn start).
std::vector<std::array<int, 3>> turn_starts(int units) {
  return {{0, 0, 0},
          {1, 0, 0},
          {0, 0, units - 1},
          {1, units - 1, 0},
          {0, units / 2, units - 3},
          {1, units - 4, units - 2},
          {0, units - 2, units - 1}};
}

// optimal_win's sampler (a table per distinct row of decisions) draws the
// exact distribution of a turn played throw by throw from each turn start,
// with the full window and with a narrow one and a small dice budget that
// leave many turns to decide.
TEST(TenkTurnSampler, OptimalWinTurnsFollowTheExactDistributionOfEachTurnStart) {
  const Rules seed000 = preset("seed000");
  Rules exact = short_game(seed000, 1500), bank_at_target = exact, hot = exact;
  exact.exact_target = true;
  bank_at_target.bank_at_target = true;
  bank_at_target.last_turn = true;
  hot.no_stop_on_hot_dice = true;
  for (const Rules& rules :
       {short_game(seed000, 2000), short_game(preset("seed003"), 1500), exact, bank_at_target, hot}) {
    const SolvedWin win(rules);
    for (const auto& [window, budget] :
         {std::pair(TurnSampler::kWindow, TurnSampler::kDiceBudget), std::pair(400, rules.dice + 2)}) {
      const std::unique_ptr<TurnSampler> sampler = TurnSampler::build(win.scoring, win.policy, window, budget);
      ASSERT_NE(sampler, nullptr);
      EXPECT_TRUE(sampler->per_turn_start());
      EXPECT_GT(sampler->tables(), 1);
      for (const auto& [seat, mine, theirs] : turn_starts(win.units())) {
        const std::vector<double> exact_turns =
            turn_distribution(win.scoring, win.policy, mine * kPoint, -1, seat, theirs * kPoint);
        EXPECT_LT(
            sampled_turns_z(win.scoring, win.policy, *sampler, mine * kPoint, exact_turns, 13, seat, theirs * kPoint),
            5)
            << rules_json(rules).dump() << " window " << window << " budget " << budget << " seat " << seat << " mine "
            << mine << " theirs " << theirs;
      }
    }
  }
}

// optimal_win's tables too count more dice than fit in 52 bits of level
// where they draw well: a column per code (the window's units and
// "decide") leaves room for the level of 21 dice.
TEST(TenkTurnSampler, OptimalWinTablesCountMoreDiceThanFitIn52Bits) {
  const SolvedWin win(short_game(preset("seed000"), 2000));
  const int within_52_bits = dice_within_52_bits();
  EXPECT_GT(TurnSampler::build(win.scoring, win.policy)->dice_budget(), within_52_bits);
  EXPECT_EQ(TurnSampler::build(win.scoring, win.policy, TurnSampler::kWindow, within_52_bits)->dice_budget(),
            within_52_bits);
}

// Past its bytes the sampler builds no more tables: the turn starts of the
// rows met later are played throw by throw, exactly too.
TEST(TenkTurnSampler, OptimalWinTurnStartsWithoutATableStayExact) {
  const SolvedWin win(short_game(preset("seed000"), 2000));
  const std::unique_ptr<TurnSampler> sampler =
      TurnSampler::build(win.scoring, win.policy, TurnSampler::kWindow, TurnSampler::kDiceBudget, 1);
  ASSERT_NE(sampler, nullptr);
  EXPECT_EQ(sampler->tables(), 1);  // the first turn start's row alone
  for (const auto& [seat, mine, theirs] : turn_starts(win.units()))
    EXPECT_LT(sampled_turns_z(win.scoring, win.policy, *sampler, mine * kPoint,
                              turn_distribution(win.scoring, win.policy, mine * kPoint, -1, seat, theirs * kPoint), 13,
                              seat, theirs * kPoint),
              5)
        << "seat " << seat << " mine " << mine << " theirs " << theirs;
}

// The comparison above tells turn starts apart: a seat far behind throws on
// where one level with the other banks, and drawing the one's turns against
// the other's distribution fails.
TEST(TenkTurnSampler, OptimalWinTurnsOfAnotherTurnStartFail) {
  const SolvedWin win(short_game(preset("seed000"), 2000));
  const std::unique_ptr<TurnSampler> sampler = TurnSampler::build(win.scoring, win.policy);
  ASSERT_NE(sampler, nullptr);
  const int behind = (win.units() - 1) * kPoint;  // the other seat is one throw from the target
  EXPECT_GT(sampled_turns_z(win.scoring, win.policy, *sampler, 0, turn_distribution(win.scoring, win.policy, 0), 13, 0,
                            behind),
            5);
  EXPECT_GT(sampled_turns_z(win.scoring, win.policy, *sampler, 0,
                            turn_distribution(win.scoring, win.policy, 0, -1, 0, behind), 13, 0, 0),
            5);
}

// With optimal_win at the table the lean loop and the general one draw the
// same games, turn for turn (the sampler reads both seats' scores): at
// either seat, against ev_heuristic (whose seat draws by banked score) and
// against itself.
TEST(TenkTurnSampler, TheWholeTurnLoopPlaysTheGeneralLoopsGamesWithOptimalWin) {
  Rules last_turn = short_game(preset("seed000"), 2000);
  last_turn.last_turn = true;
  for (const Rules& rules : {short_game(preset("seed000"), 2000), last_turn}) {
    const SolvedWin win(rules);
    const Policy ev = compile(win.scoring, {{"family", "ev_heuristic"}});
    const std::unique_ptr<TurnSampler> win_turns = TurnSampler::build(win.scoring, win.policy),
                                       ev_turns = TurnSampler::build(win.scoring, ev);
    const std::pair<const Policy*, const TurnSampler*> win_seat{&win.policy, win_turns.get()},
        ev_seat{&ev, ev_turns.get()};
    for (const auto& [first, second] :
         {std::pair{win_seat, ev_seat}, std::pair{ev_seat, win_seat}, std::pair{win_seat, win_seat}}) {
      const Policy* seats[] = {first.first, second.first};
      const TurnSampler* samplers[] = {first.second, second.second};
      Rng lean = block_rng(19, seats[0] == &ev, seats[1] == &ev), general = lean;
      for (int game = 0; game < 3000; ++game) {
        std::vector<int> lean_turns, general_turns;
        GameResult a, b;
        play_game<TurnLoop::whole>(
            win.scoring, seats, 2, lean, a, [&](int seat, int units) { lean_turns.push_back(seat * 100000 + units); },
            samplers);
        play_game<TurnLoop::general>(
            win.scoring, seats, 2, general, b,
            [&](int seat, int units) { general_turns.push_back(seat * 100000 + units); }, samplers);
        ASSERT_EQ(lean_turns, general_turns) << rules_json(rules).dump() << " game " << game;
        for (int s = 0; s < 2; ++s) ASSERT_EQ(a.place[s], b.place[s]);
      }
      EXPECT_TRUE(lean == general);
    }
  }
}

}  // namespace
}  // namespace dicesim::tenk
