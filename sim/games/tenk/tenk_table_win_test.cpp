// Win-optimal 10,000 at tables of n seats (games/tenk/tenk_table_win.h):
// the two-player solver's values at two seats, odds summing to 1, an
// equilibrium (no seat gains by switching alone to any bank_at), Monte Carlo
// play of the solved decisions, and a plain value iteration over every
// state of small games.
#include "games/tenk/tenk_table_win.h"

#include <gtest/gtest.h>
#include <oneapi/tbb/global_control.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <map>
#include <numeric>
#include <utility>

#include "config/json_input.h"
#include "engine/rng.h"
#include "games/tenk/tenk.h"
#include "games/tenk/tenk_decision_runs.h"
#include "games/tenk/tenk_game_loop.h"
#include "games/tenk/tenk_strategies.h"
#include "games/tenk/tenk_table.h"
#include "games/tenk/tenk_table_lanes.h"
#include "games/tenk/tenk_win.h"
#include "math/equilibrium.h"
#include "math/stats.h"
#include "test_util.h"

namespace dicesim::tenk {
namespace {

Rules small_rules(int target, bool last_turn = false, bool exact = false) {
  Rules rules = preset("game_of_dice");
  rules.target = target;
  rules.high_from = target / 2;
  rules.last_turn = last_turn;
  rules.exact_target = exact;
  return rules;
}

// Two dice (singles and pairs of 1s and 5s), short turns: every state of a
// table of three can be swept by brute force.
Rules two_dice_rules(bool last_turn, bool exact) {
  Rules rules = small_rules(300, last_turn, exact);
  rules.dice = 2;
  rules.bank_minimum = rules.high_bank_minimum = 100;
  return rules;
}

double total(const TableWinOdds& odds, int seats, double tie) {
  return std::accumulate(odds.win.begin(), odds.win.begin() + seats, 0.0) + tie;
}

TEST(TenkTableWin, TwoSeatsAreTheTwoPlayerSolution) {
  for (const bool last_turn : {false, true})
    for (const bool exact : {false, true}) {
      const Scoring scoring(small_rules(1000, last_turn, exact));
      const WinSolution two = solve_win(scoring);
      const TableWin table = solve_table_win(scoring, 2);
      for (int i = 0; i < table.units(); i += 3)
        for (int j = 0; j < table.units(); j += 2) {
          const int scores[2] = {i, j};
          for (int mover = 0; mover < 2; ++mover) {
            const WinValue& v = two.at(mover, scores[mover], scores[1 - mover]);
            EXPECT_NEAR(table.value(mover, scores).utility[mover], v.utility(), 1e-9)
                << last_turn << exact << " " << i << " " << j << " " << mover;
            EXPECT_NEAR(table.value(mover, scores).win[mover], v.win, 1e-9);
          }
        }
    }
}

TEST(TenkTableWin, EverySeatsOddsSumToOne) {
  for (const bool last_turn : {false, true})
    for (const bool exact : {false, true}) {
      const TableWin table = solve_table_win(Scoring(small_rules(500, last_turn, exact)), 3);
      EXPECT_NEAR(total(table.start(), 3, table.tie()), 1.0, 1e-12);
      double shares = 0;
      for (int k = 0; k < 3; ++k) shares += table.start().utility[k];
      EXPECT_NEAR(shares, 1.0, 1e-12) << last_turn << exact;  // a tie's chance is shared out whole
      EXPECT_EQ(table.tie() > 1e-9, exact);                   // ties only with an exact target
      const int late[3] = {table.units() - 1, 3, table.units() / 2};
      for (int m = 0; m < 3; ++m) {
        double sum = 0;
        for (int k = 0; k < 3; ++k) sum += table.value(m, late).utility[k];
        EXPECT_NEAR(sum, 1.0, 1e-12);
      }
    }
}

// No seat gains by switching alone to any bank_at or to the two-player
// optimal_win: each deviation is valued
// exactly by the same solver, the other seats keeping their solved race
// decisions (and answering win-optimally).
TEST(TenkTableWin, NoSeatGainsBySwitchingAloneToBankAtOrTheTwoPlayerPolicy) {
  for (const bool last_turn : {false, true}) {
    const Scoring scoring(small_rules(500, last_turn, false));
    const TableWin table = solve_table_win(scoring, 3, {}, true);
    std::vector<std::optional<FixedSeat>> solved(3, table.fixed_seat());
    const TableWin replay = solve_table_win(scoring, 3, solved);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(replay.start().utility[k], table.start().utility[k], 1e-12);
    for (int seat = 0; seat < 3; ++seat)
      for (int points = 300; points <= 2000; points += 50) {
        // Past the target every bank_at banks only on reaching it: one play.
        if (points > scoring.rules().target + kPoint) continue;
        std::vector<std::optional<FixedSeat>> fixed = solved;
        fixed[seat] = bank_at_seat(scoring.rules(), points);
        const TableWin deviation = solve_table_win(scoring, 3, fixed);
        EXPECT_LE(deviation.start().utility[seat], table.start().utility[seat] + 1e-9)
            << last_turn << " seat " << seat << " bank_at " << points;
      }
    // The two-player optimal_win, reading the leading other score (as the
    // seat that is answered, unless it is the last seat without last turns).
    const WinSolution two = solve_win(scoring);
    for (int seat = 0; seat < 3; ++seat) {
      const int as = seat == 2 && !last_turn ? 1 : 0;
      const auto leader = [seat](const int* scores) {
        return std::max(scores[(seat + 1) % 3], scores[(seat + 2) % 3]);
      };
      FixedSeat two_player;
      two_player.banks = [&two, as, leader](int mover, const int* scores, int t, int kind) {
        return two.policy.banks(as, scores[mover], leader(scores), t, kind);
      };
      two_player.top = [&two, as, leader](int mover, const int* scores) {
        return two.policy.top(as, scores[mover], leader(scores));
      };
      std::vector<std::optional<FixedSeat>> fixed = solved;
      fixed[seat] = two_player;
      EXPECT_LE(solve_table_win(scoring, 3, fixed).start().utility[seat], table.start().utility[seat] + 1e-9)
          << last_turn << " seat " << seat << " two-player optimal_win";
    }
  }
}

// Under the house rule bank_at_target nobody pads (the race's tops stop at
// the target), and still no bank_at gains.
TEST(TenkTableWin, UnderTheHouseRuleNoSeatGainsBySwitchingToBankAt) {
  Rules house = small_rules(500);
  house.bank_at_target = true;
  const Scoring house_scoring(house);
  const TableWin house_table = solve_table_win(house_scoring, 3, {}, true);
  const Landings landings(house);
  for (int a = 0; a < house_table.units(); a += 3)
    for (int b = 0; b < house_table.units(); b += 2) {
      const int scores[3] = {a, b, house_table.units() - 1};
      for (int kind = 0; kind < landings.count(); ++kind)
        for (int t = 1; t <= 3 * house_table.units(); ++t) {
          // Where banking is allowed (the bank minimum at each seat's
          // score), the race banks on reaching the target, an answer (seat
          // 1's to seat 0) as soon as it is past it.
          const auto may_bank = [&](int seat) { return t * kPoint >= house.bank_minimum_at(scores[seat] * kPoint); };
          if (may_bank(0) && scores[0] + t >= house_table.units()) {
            EXPECT_TRUE(house_table.banks(0, scores, t, kind)) << t;
          }
          if (may_bank(1) && scores[1] + t > house_table.units()) {
            EXPECT_TRUE(house_table.answer_banks(0, scores, 0, t, kind)) << t;
          }
        }
    }
  for (int seat = 0; seat < 3; ++seat)
    for (int points = 300; points <= 550; points += 50) {
      std::vector<std::optional<FixedSeat>> fixed(3, house_table.fixed_seat());
      fixed[seat] = bank_at_seat(house, points);
      EXPECT_LE(solve_table_win(house_scoring, 3, fixed).start().utility[seat],
                house_table.start().utility[seat] + 1e-9)
          << "bank_at_target seat " << seat << " bank_at " << points;
    }
}

// A seat's place at the end of a game (1: first, alone or shared), counted.
using PlaceCounts = std::array<std::array<std::int64_t, 3>, 3>;  // [seat][place - 1]

// Each seat's chance of every place by the place solve, the first from
// the win solve `win` where no tie can happen.
std::array<std::array<double, 3>, 3> solved_places(const Scoring& scoring, const std::vector<FixedSeat>& seats,
                                                   const TableWin& win) {
  const std::array<int, kMostTableWinSeats> start{};
  const TablePlaceOdds places = solve_table_places(scoring, seats, start.data());
  std::array<std::array<double, 3>, 3> p{};
  for (int k = 0; k < 3; ++k) p[k] = places.of(k, win.start().win[k], scoring.rules().exact_target);
  return p;
}

// The engine's games (play_game) of a table of three, the solved play in
// the seats `solved` marks, bank_at 350 in the others: every seat's wins,
// the ties and every seat's places against the table solve and the place
// solve with those seats fixed (the solved seats keep the equilibrium's
// decisions, race and answers).
void expect_play_agrees(const Rules& rules, std::array<bool, 3> solved, std::uint64_t seed) {
  const Scoring scoring(rules);
  Solutions solutions(scoring);
  const auto compile = [&](const json& spec) { return compile_strategy(JsonNode(spec, "test"), scoring, solutions); };
  Policy solved_policy = compile({{"family", "optimal_win"}, {"seats", 3}});
  const Policy fixed_policy = compile({{"family", "bank_at"}, {"total", 350}});
  solutions.attach_win(solved_policy);
  const Policy* seats[3];
  std::vector<std::optional<FixedSeat>> fixed;
  for (int k = 0; k < 3; ++k) {
    seats[k] = solved[k] ? &solved_policy : &fixed_policy;
    fixed.push_back(solved[k] ? solved_policy.table->fixed_seat() : policy_seat(rules, fixed_policy));
  }
  const TableWin exact = solve_table_win(scoring, 3, fixed);
  std::vector<FixedSeat> every_fixed;
  for (const std::optional<FixedSeat>& seat : fixed) every_fixed.push_back(*seat);
  const auto places = solved_places(scoring, every_fixed, exact);
  Rng rng(seed);
  constexpr std::int64_t kGames = 200000;
  std::array<std::int64_t, 3> wins{};
  std::int64_t ties = 0;
  PlaceCounts placed{};
  GameResult result;
  for (std::int64_t g = 0; g < kGames; ++g) {
    play_game(scoring, seats, 3, rng, result, [](int, int) {});
    for (int k = 0; k < 3; ++k) ++placed[std::size_t(k)][std::size_t(result.place[k] - 1)];
    const int winners = int(std::count(result.place, result.place + 3, 1));
    if (winners > 1)
      ++ties;
    else
      ++wins[std::size_t(std::find(result.place, result.place + 3, 1) - result.place)];
  }
  for (int seat = 0; seat < 3; ++seat)
    EXPECT_LT(std::abs(stats::rate_z(wins[std::size_t(seat)], kGames, exact.start().win[seat])), 5.0)
        << "seat " << seat << " solved " << solved[seat];
  EXPECT_LT(std::abs(stats::rate_z(ties, kGames, exact.tie())), 5.0);
  for (int seat = 0; seat < 3; ++seat)
    for (int place = 0; place < 3; ++place)
      EXPECT_LT(std::abs(stats::rate_z(placed[seat][place], kGames, places[seat][place])), 5.0)
          << "seat " << seat << " place " << place + 1 << " solved " << solved[seat];
}

// The place solve of a table of fixed strategies against the race
// (tenk_table.h), which follows every seat's place by another road: each
// seat's scores alone, the answers by their final scores.
TEST(TenkTableWin, PlacesAgreeWithTheRaceAtEveryPlace) {
  for (const bool last_turn : {false, true})
    for (const bool exact : {false, true}) {
      SCOPED_TRACE(::testing::Message() << "last_turn " << last_turn << " exact " << exact);
      const Rules rules = small_rules(600, last_turn, exact);
      const Scoring scoring(rules);
      Solutions solutions(scoring);
      const auto compile = [&](const json& spec) {
        return compile_strategy(JsonNode(spec, "test"), scoring, solutions);
      };
      const Policy low = compile({{"family", "bank_at"}, {"total", 300}});
      const Policy high = compile({{"family", "bank_at"}, {"total", 500}});
      const Policy expected = compile({{"family", "optimal_expected"}});
      const std::vector<const Policy*> policies = {&low, &high, &expected};
      const TableOutcome race = evaluate_table(scoring, policies);
      std::vector<FixedSeat> seats;
      std::vector<std::optional<FixedSeat>> fixed;
      for (const Policy* policy : policies) {
        seats.push_back(policy_seat(rules, *policy));
        fixed.push_back(seats.back());
      }
      const auto places = solved_places(scoring, seats, solve_table_win(scoring, 3, fixed));
      for (int seat = 0; seat < 3; ++seat)
        for (int place = 0; place < 3; ++place)
          EXPECT_NEAR(places[seat][place], race.place[seat][place], 1e-12) << "seat " << seat << " place " << place + 1;
    }
}

TEST(TenkTableWin, TheEnginesPlayOfTheSolvedSeatsAgreesWithTheSolve) {
  for (const bool last_turn : {false, true})
    for (const bool exact : {false, true}) {
      SCOPED_TRACE(::testing::Message() << "last_turn " << last_turn << " exact " << exact);
      expect_play_agrees(small_rules(600, last_turn, exact), {true, true, true}, 77 + 2 * last_turn + exact);
    }
  Rules house = small_rules(600, true);
  house.bank_at_target = true;
  SCOPED_TRACE("bank_at_target");
  expect_play_agrees(house, {true, true, true}, 81);
}

TEST(TenkTableWin, TheEnginesPlayOfSolvedAndFixedSeatsAgreesWithTheSolve) {
  for (const bool last_turn : {false, true}) {
    SCOPED_TRACE(::testing::Message() << "last_turn " << last_turn);
    expect_play_agrees(small_rules(600, last_turn), {true, false, false}, 91 + last_turn);
    expect_play_agrees(small_rules(600, last_turn), {false, true, true}, 93 + last_turn);
  }
}

// Plain value iteration: sweeps over every turn start in index order until
// nothing moves, each turn worked out throw by throw, padding allowed up to
// the horizon; the answers to a reached score by plain recursion over (best
// score, the seats holding it), one turn at a time.
class BruteForce {
 public:
  BruteForce(const Scoring& scoring, int horizon)
      : rules_(scoring.rules()),
        throws_(throw_outcomes(scoring)),
        landings_(rules_),
        units_(rules_.target / kPoint),
        horizon_(units_ + horizon),
        values_(std::size_t(3 * units_ * units_ * units_)) {
    for (const ThrowOutcomes& t : throws_)
      for (const ThrowOption& o : t.options) most_points_ = std::max(most_points_, o.points);
  }

  const TableWinOdds& value(int mover, const int* scores) const { return values_[index(mover, scores)]; }

  void solve() {
    for (int sweep = 0; sweep < 100000; ++sweep) {
      double change = 0;
      for (int mover = 0; mover < 3; ++mover)
        for (int a = 0; a < units_; ++a)
          for (int b = 0; b < units_; ++b)
            for (int c = 0; c < units_; ++c) {
              int scores[3] = {a, b, c};
              const TableWinOdds now = race_turn(mover, scores);
              TableWinOdds& old = values_[index(mover, scores)];
              for (int k = 0; k < 3; ++k) change = std::max(change, std::abs(now.utility[k] - old.utility[k]));
              old = now;
            }
      if (change < 1e-15) return;
    }
    ADD_FAILURE() << "no convergence";
  }

 private:
  using Row = std::vector<TableWinOdds>;  // [kind]
  std::size_t index(int mover, const int* scores) const {
    return ((std::size_t(mover) * units_ + scores[0]) * units_ + scores[1]) * units_ + scores[2];
  }
  int minimum(int score) const { return (rules_.bank_minimum_at(score * kPoint) + kPoint - 1) / kPoint; }
  int full_hand() const { return landings_.of(rules_.dice, kNoPending, false); }
  static void add(TableWinOdds& to, const TableWinOdds& from, double p) {
    for (int k = 0; k < 3; ++k) to.win[k] += p * from.win[k], to.utility[k] += p * from.utility[k];
  }
  TableWinOdds shared(unsigned holders) const {
    TableWinOdds odds;
    for (int k = 0; k < 3; ++k)
      if (holders >> k & 1) odds.utility[k] = 1.0 / std::popcount(holders), odds.win[k] = std::popcount(holders) == 1;
    return odds;
  }
  std::vector<int> answerers(int reacher) const {
    std::vector<int> order;
    for (int s = reacher + 1; s < (rules_.last_turn ? reacher + 3 : 3); ++s) order.push_back(s % 3);
    return order;
  }

  // A turn of `seat` from `own`: landing at total t as kind gives
  // at(t, kind, on) (on: the value of throwing on), a bust gives `bust`,
  // passing an exact target busts; totals past `cap` bank.
  template <class At>
  TableWinOdds turn(int own, int cap, const TableWinOdds& bust, At at) const {
    const int kinds = landings_.count(), states = landings_.states();
    std::vector<Row> rows(std::size_t(cap + most_points_ + 1), Row(kinds));
    std::vector<TableWinOdds> go(states);
    for (int t = cap + most_points_; t >= 0; --t) {
      for (int s = 0; s < states; ++s) {
        const ThrowOutcomes& o = throws_[landings_.dice(s) * kDiceSlots + landings_.pending(s)];
        go[s] = TableWinOdds{};
        add(go[s], bust, o.bust);
        for (const ThrowGroup& g : o.groups) {
          const ThrowOption& opt = o.options[g.first];
          const int to = t + opt.points;
          const bool past = rules_.exact_target && own + to > units_;
          add(go[s],
              past ? bust
                   : rows[std::min<std::size_t>(to, rows.size() - 1)][landings_.of(opt.dice, opt.pending, opt.hot)],
              g.probability);
        }
      }
      if (t == 0) return go[full_hand()];
      for (int kind = 0; kind < kinds; ++kind)
        rows[t][kind] = at(t, kind, go[kind == landings_.hot() ? full_hand() : kind]);
    }
    return {};
  }

  TableWinOdds race_turn(int mover, int* scores) const {
    const int own = scores[mover];
    const TableWinOdds& bust = value((mover + 1) % 3, scores);
    const int cap = rules_.exact_target ? units_ - own : horizon_ - own;
    return turn(own, cap, bust, [&](int t, int, const TableWinOdds& on) {
      const int score = own + t;
      const bool hits = rules_.exact_target && score == units_;
      if (!hits && t < minimum(own)) return on;
      TableWinOdds bank;
      if (score >= units_) {
        bank = answer(mover, 0, score, 1u << mover, scores);
      } else {
        scores[mover] = score;
        bank = value((mover + 1) % 3, scores);
        scores[mover] = own;
      }
      return bank.utility[mover] >= on.utility[mover] ? bank : on;
    });
  }

  TableWinOdds answer(int reacher, int i, int best, unsigned holders, const int* scores) const {
    const std::vector<int> order = answerers(reacher);
    if (i == int(order.size()) || (!rules_.exact_target && best >= horizon_)) return shared(holders);
    const int seat = order[i], own = scores[seat];
    const auto key = std::tuple(reacher, i, best, holders, scores[order.back()], own);
    if (const auto found = memo_.find(key); found != memo_.end()) return found->second;
    const TableWinOdds fail = answer(reacher, i + 1, best, holders, scores);
    const int cap = rules_.exact_target ? units_ - own : horizon_ - own;
    const TableWinOdds value = turn(own, cap, fail, [&](int t, int, const TableWinOdds& on) {
      const int score = own + t;
      if (rules_.exact_target) return score == units_ ? answer(reacher, i + 1, best, holders | 1u << seat, scores) : on;
      if (score <= best || t < minimum(own)) return on;
      const TableWinOdds bank = answer(reacher, i + 1, score, 1u << seat, scores);
      return bank.utility[seat] >= on.utility[seat] ? bank : on;
    });
    return memo_[key] = value;
  }

  Rules rules_;
  std::vector<ThrowOutcomes> throws_;
  Landings landings_;
  int units_, horizon_, most_points_ = 0;
  std::vector<TableWinOdds> values_;
  mutable std::map<std::tuple<int, int, int, unsigned, int, int>, TableWinOdds> memo_;
};

TEST(TenkTableWin, AgreesWithPlainValueIterationOverEveryState) {
  for (const bool last_turn : {false, true})
    for (const bool exact : {false, true}) {
      const Scoring scoring(two_dice_rules(last_turn, exact));
      const TableWin table = solve_table_win(scoring, 3);
      BruteForce brute(scoring, table.stats.horizon);
      brute.solve();
      for (int a = 0; a < table.units(); ++a)
        for (int b = 0; b < table.units(); ++b)
          for (int c = 0; c < table.units(); ++c)
            for (int mover = 0; mover < 3; ++mover) {
              const int scores[3] = {a, b, c};
              for (int k = 0; k < 3; ++k) {
                EXPECT_NEAR(table.value(mover, scores).utility[k], brute.value(mover, scores).utility[k], 1e-9)
                    << last_turn << exact << " " << a << b << c << " mover " << mover << " seat " << k;
                EXPECT_NEAR(table.value(mover, scores).win[k], brute.value(mover, scores).win[k], 1e-9);
              }
            }
    }
}

TEST(TenkTableWin, RulesItCannotSolveAreRefusedBeforeAllocating) {
  Rules rules = small_rules(1000);
  EXPECT_EQ(table_win_refusal(rules, 3), std::nullopt);
  EXPECT_NE(table_win_refusal(rules, 5), std::nullopt);
  rules.partial_set_aside = true;
  EXPECT_NE(table_win_refusal(rules, 3), std::nullopt);
  EXPECT_THROW(solve_table_win(Scoring(rules), 3), InputError);
  rules = small_rules(1000);
  rules.continue_previous = true;
  EXPECT_NE(table_win_refusal(rules, 3), std::nullopt);
  rules = small_rules(1000000);
  EXPECT_NE(table_win_refusal(rules, 3), std::nullopt);
}

// The decisions a table solve keeps, as runs, read back the same, one by
// one and a turn at a time (past a turn's own top every landing banks),
// kinds that flip alike sharing one list; tops on both sides of 255 (lists
// in bytes, then in words).
TEST(TenkTableWin, DecisionRunsReadBackEveryDecision) {
  Rng rng(7, 0);
  constexpr int kKinds = 7;  // odd: the last list number is alone in its word
  constexpr std::size_t kTurns = 44;
  const auto top_of = [](std::size_t turn) {
    constexpr std::array<int, 4> kAround256 = {249, 255, 256, 258};
    return turn < 40 ? int(turn % 13) * 3 : kAround256[turn - 40];
  };
  DecisionRuns runs;
  runs.resize(kTurns, kKinds);
  std::vector<std::vector<std::uint8_t>> turns;
  for (std::size_t turn = 0; turn < kTurns; ++turn) {
    const int top = top_of(turn);
    std::vector<std::uint8_t>& banks = turns.emplace_back(std::size_t(top) * kKinds);
    for (std::uint8_t& b : banks) b = uniform_below(rng, 4) == 0;  // flips often: the worst case
    // Every kind flips at the top itself (255 the last total a byte holds).
    for (int kind = 0; kind < kKinds && top > 1; ++kind)
      banks[std::size_t(top - 1) * kKinds + std::size_t(kind)] =
          !banks[std::size_t(top - 2) * kKinds + std::size_t(kind)];
    // Every other turn, kinds 3 and 6 flip as kind 1 does.
    for (int t = 0; t < top && turn % 2 == 0; ++t)
      for (int kind : {3, 6}) banks[std::size_t(t) * kKinds + std::size_t(kind)] = banks[std::size_t(t) * kKinds + 1];
    std::vector<std::uint16_t> encoded;
    DecisionRuns::encode(banks.data(), top, kKinds, encoded);
    runs.store(turn, encoded.data(), encoded.size());
  }
  // A turn whose kinds all flip alike keeps one list: top, 1, the list numbers, the list.
  std::vector<std::uint8_t> alike(std::size_t(10) * kKinds, 0);
  std::fill(alike.begin() + 4 * kKinds, alike.end(), std::uint8_t{1});
  std::vector<std::uint16_t> one;
  DecisionRuns::encode(alike.data(), 10, kKinds, one);
  EXPECT_EQ(one.size(), std::size_t(2 + DecisionRuns::index_words(kKinds, 1) + 1));  // one word: one flip, at 5
  EXPECT_EQ(DecisionRuns::index_words(kKinds, 1), 1);                                // a bit a kind
  for (std::size_t turn = 0; turn < kTurns; ++turn) {
    const int top = top_of(turn);
    EXPECT_EQ(runs.top(turn), top);
    std::vector<std::uint8_t> decoded(std::size_t(top + 4) * kKinds);
    runs.decode(turn, top + 4, kKinds, decoded.data());
    for (int t = 1; t <= top + 4; ++t)
      for (int kind = 0; kind < kKinds; ++kind) {
        const bool expected = t > top || turns[turn][std::size_t(t - 1) * kKinds + kind] != 0;
        EXPECT_EQ(runs.banks(turn, t, kind), expected) << turn << " " << t << " " << kind;
        EXPECT_EQ(decoded[std::size_t(t - 1) * kKinds + kind] != 0, expected) << turn << " " << t << " " << kind;
      }
  }
  // A turn never stored (a table solved without keep_decisions) is an error, not a read past the runs.
  DecisionRuns none;
  none.resize(2, kKinds);
  EXPECT_THROW(none.banks(1, 1, 0), std::logic_error);
  EXPECT_THROW(none.top(5), std::logic_error);
}

// A turn's list numbers take 1, 2, 4 or 8 bits as its count of distinct
// lists asks: turns with each count from 1 to 40, under 7, 25 and 40
// kinds, their lists in bytes (top 12) or words (top 300), read back every
// decision, and take the words the format says.
TEST(TenkTableWin, DecisionRunsNumberTheirListsInAsFewBitsAsTheyNeed) {
  Rng rng(8, 0);
  const std::array<std::pair<int, int>, 5> kKindsAndTops = {{{7, 12}, {25, 12}, {40, 12}, {7, 300}, {25, 300}}};
  for (const auto& [kinds, top] : kKindsAndTops) {
    DecisionRuns runs;
    runs.resize(std::size_t(kinds), kinds);
    std::vector<std::vector<std::uint8_t>> turns;
    for (int distinct = 1; distinct <= kinds; ++distinct) {
      // `distinct` ways to flip (way w banks at total t where bit t - 1 of
      // w is set), kinds drawn among them, each way used at least once.
      std::vector<std::uint8_t>& banks = turns.emplace_back(std::size_t(top) * std::size_t(kinds), 0);
      for (int kind = 0; kind < kinds; ++kind) {
        const int way = kind < distinct ? kind : int(uniform_below(rng, std::uint64_t(distinct)));
        for (int t = 1; t <= top; ++t)
          banks[std::size_t(t - 1) * std::size_t(kinds) + std::size_t(kind)] = t <= 12 && ((way >> (t - 1)) & 1);
      }
      std::vector<std::uint16_t> encoded;
      DecisionRuns::encode(banks.data(), top, kinds, encoded);
      ASSERT_EQ(encoded[1], distinct) << kinds << " kinds";
      const int bits = distinct <= 2 ? 1 : distinct <= 4 ? 2 : distinct <= 16 ? 4 : 8;
      EXPECT_EQ(DecisionRuns::index_words(kinds, distinct), (kinds * bits + 15) / 16);
      // Each list its count, then its flips: in bytes below a top of 256, else in words.
      const std::size_t index_end = 2 + std::size_t(DecisionRuns::index_words(kinds, distinct));
      std::size_t list_values = 0;
      if (top < 256) {
        const auto* bytes = reinterpret_cast<const std::uint8_t*>(encoded.data() + index_end);
        for (int list = 0; list < distinct; ++list) list_values += 1 + bytes[list_values];
        EXPECT_EQ(encoded.size(), index_end + (list_values + 1) / 2);
      } else {
        for (int list = 0; list < distinct; ++list) list_values += 1 + encoded[index_end + list_values];
        EXPECT_EQ(encoded.size(), index_end + list_values);
      }
      runs.store(std::size_t(distinct - 1), encoded.data(), encoded.size());
    }
    for (int distinct = 1; distinct <= kinds; ++distinct) {
      std::vector<std::uint8_t> decoded(std::size_t(top) * std::size_t(kinds));
      runs.decode(std::size_t(distinct - 1), top, kinds, decoded.data());
      const std::vector<std::uint8_t>& banks = turns[std::size_t(distinct - 1)];
      for (int t = 1; t <= top; ++t)
        for (int kind = 0; kind < kinds; ++kind) {
          const std::size_t i = std::size_t(t - 1) * std::size_t(kinds) + std::size_t(kind);
          EXPECT_EQ(runs.banks(std::size_t(distinct - 1), t, kind), banks[i] != 0) << kinds << " " << distinct;
          EXPECT_EQ(decoded[i], banks[i]) << kinds << " " << distinct;
        }
    }
  }
}

// A throw's value sums its outcomes in four interleaved sums (the kernel of
// tenk_table_lanes.h): the same as a plain sum to rounding, at every width.
template <int L>
void expect_throw_row_is_the_plain_sum() {
  Rng rng(11, L);
  std::vector<Lanes<L>> from(64);
  for (Lanes<L>& lanes : from)
    for (double& x : lanes.v) x = uniform_below(rng, 1000) / 1000.0;
  const std::vector<int> first = {0, 1, 7, 20}, offset = [&] {
    std::vector<int> o;
    for (int i = 0; i < 20; ++i) o.push_back(static_cast<int>(uniform_below(rng, 64)));
    return o;
  }();
  std::vector<double> probability, bust = {0.5, 0.25, 0.125};
  for (int i = 0; i < 20; ++i) probability.push_back(uniform_below(rng, 1000) / 20000.0);
  std::vector<Lanes<L>> go(3);
  throw_row(from.data(), ThrowArrays{3, first.data(), offset.data(), probability.data(), bust.data()}, go.data());
  for (int s = 0; s < 3; ++s)
    for (int lane = 0; lane < L; ++lane) {
      double plain = lane == L - 1 ? bust[std::size_t(s)] : 0;
      for (int o = first[std::size_t(s)]; o < first[std::size_t(s) + 1]; ++o)
        plain += probability[std::size_t(o)] * from[std::size_t(offset[std::size_t(o)])].v[std::size_t(lane)];
      EXPECT_NEAR(go[std::size_t(s)].v[std::size_t(lane)], plain, 1e-15) << L << " " << s << " " << lane;
    }
}
TEST(TenkTableWin, AThrowsValueIsThePlainSumOfItsOutcomesAtEveryWidth) {
  expect_throw_row_is_the_plain_sum<4>();
  expect_throw_row_is_the_plain_sum<8>();
  expect_throw_row_is_the_plain_sum<12>();
}

// The score tuples of one sum are solved in parallel: one thread and many
// give the same values, bit for bit, and the same decisions.
TEST(TenkTableWin, OneThreadAndManyGiveTheSameSolve) {
  const Scoring scoring(small_rules(700, true));
  const TableWin many = solve_table_win(scoring, 3, {}, true);
  const TableWin one = [&] {
    const tbb::global_control single(tbb::global_control::max_allowed_parallelism, 1);
    return solve_table_win(scoring, 3, {}, true);
  }();
  const int units = many.units();
  for (int a = 0; a < units; ++a)
    for (int b = 0; b < units; ++b)
      for (int c = 0; c < units; ++c) {
        const int scores[3] = {a, b, c};
        for (int m = 0; m < 3; ++m) {
          EXPECT_EQ(one.value(m, scores).utility, many.value(m, scores).utility);
          for (int t = 1; t <= units - scores[m] + 2; ++t)
            ASSERT_EQ(one.banks(m, scores, t, 0), many.banks(m, scores, t, 0)) << a << b << c << m << t;
        }
      }
}

// Where the rounds of best replies cycle (at target 1,000 one tuple does,
// with seed 000's rules as they are and with high_from at 500),
// the seats play an equilibrium of the tuple's turns, randomising there:
// no seat gains by switching alone to its best reply, at the start or at
// that tuple (within 1e-12), where the same play made pure (the more
// likely plan always) leaves a seat a gain there. The engine draws the
// other plan as often as its chance says (|z| < 5), and `solve` says where
// the rounds cycled beside the deviation gains.
TEST(TenkTableWin, WhereBestRepliesCycleTheSeatsRandomiseToAnEquilibrium) {
  const Scoring scoring(small_rules(1000));
  const TableWin table = solve_table_win(scoring, 3, {}, true);
  EXPECT_EQ(table.stats.unsettled_tuples, 0u);
  EXPECT_GT(table.stats.mixed_tuples, 0u);
  EXPECT_GE(table.stats.cycled_tuples, table.stats.mixed_tuples);
  EXPECT_LE(table.stats.most_cycled_gain, 1e-14);
  int scores[3] = {}, mover = -1;
  for (int tuple = 0; tuple < table.units() * table.units() * table.units() && mover < 0; ++tuple) {
    scores[0] = tuple % table.units(), scores[1] = tuple / table.units() % table.units();
    scores[2] = tuple / table.units() / table.units();
    for (int m = 0; m < 3 && mover < 0; ++m)
      if (table.mix_chance(m, scores) > 0) mover = m;
  }
  ASSERT_GE(mover, 0) << "no seat randomises";
  // Each seat's gain by its best reply to `profile`, at the start and at the mixed tuple.
  const auto gains_against = [&](const FixedSeat& profile) {
    const TableWin played = solve_table_win(scoring, 3, std::vector<std::optional<FixedSeat>>(3, profile));
    std::vector<double> gains;
    for (int seat = 0; seat < 3; ++seat) {
      std::vector<std::optional<FixedSeat>> others(3, profile);
      others[std::size_t(seat)].reset();
      const TableWin reply = solve_table_win(scoring, 3, others);
      double gain = reply.start().utility[seat] - played.start().utility[seat];
      for (int m = 0; m < 3; ++m)
        gain = std::max(gain, reply.value(m, scores).utility[seat] - played.value(m, scores).utility[seat]);
      gains.push_back(gain);
    }
    return gains;
  };
  const std::vector<double> mixed_gains = gains_against(table.fixed_seat());
  EXPECT_TRUE(is_equilibrium(mixed_gains)) << deviation_gain_lines(mixed_gains, "");
  FixedSeat pure = table.fixed_seat();
  pure.alternative = [base = pure.alternative](int seat, const int* at) -> std::optional<FixedSeat::Alternative> {
    std::optional<FixedSeat::Alternative> other = base(seat, at);
    if (!other || other->chance < 0.5) return std::nullopt;
    other->chance = 1;
    return other;
  };
  const std::vector<double> pure_gains = gains_against(pure);
  EXPECT_FALSE(is_equilibrium(pure_gains)) << deviation_gain_lines(pure_gains, "");
  // The engine's draw of the plan, and the plans differ.
  const int plan = [&] {
    Rng draws(45);
    for (;;)
      if (const int p = table.plan(mover, scores, draws); p >= 0) return p;
  }();
  bool differ = false;
  for (int t = 1; t <= table.units() && !differ; ++t)
    for (int kind = 0; kind < table.kinds() && !differ; ++kind)
      differ = table.alternative_banks(plan, t, kind) != table.banks(mover, scores, t, kind);
  EXPECT_TRUE(differ);
  Rng rng(44);
  constexpr std::uint64_t kTurns = 200000;
  std::uint64_t others = 0;
  for (std::uint64_t turn = 0; turn < kTurns; ++turn) others += table.plan(mover, scores, rng) >= 0;
  EXPECT_LT(std::abs(stats::rate_z(others, kTurns, table.mix_chance(mover, scores))), 5.0) << others;
  const auto solved = testing::dicesim("solve tenk --win --seats 3 --target 1000 --json");
  ASSERT_EQ(solved.exit_code, 0) << solved.out;
  const json out = json::parse(solved.out);
  EXPECT_EQ(out.at("unsettled_tuples"), 0);
  EXPECT_GT(out.at("mixed_tuples").get<int>(), 0);
  EXPECT_EQ(out.at("equilibrium"), true);
  ASSERT_EQ(out.at("deviation_gains").size(), 3u);
  for (const json& gain : out.at("deviation_gains")) EXPECT_LE(std::abs(gain.get<double>()), 1e-12);
}

// The table solve values every score tuple, so a table that plays it is
// checked from its head starts: Monte Carlo agrees with the solve there.
TEST(TenkTableWin, AHeadStartIsValuedWhereItStarts) {
  const testing::TempDir dir;
  const json config = json::parse(R"({"game": "tenk", "games": 40000, "rules": {"preset": "seed000", "target": 600},
    "strategies": [{"name": "opt", "family": "optimal_win", "seats": 3}],
    "contests": {"distributions": false,
                 "sequential_tables": [["opt", {"strategy": "opt", "head_start": 200}, "opt"]]}})");
  const auto checked = testing::dicesim("check " + dir.write("t.json", config.dump()) + " -o " + dir.file("t.h5"));
  EXPECT_EQ(checked.exit_code, 0) << checked.out;
  EXPECT_NE(checked.out.find(R"(sequential["opt",{"head_start":200,"strategy":"opt"},"opt"]/win/opt/seat1)"),
            std::string::npos)
      << checked.out;
}

}  // namespace
}  // namespace dicesim::tenk
