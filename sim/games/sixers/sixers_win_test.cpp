// Sixers optimal_win: the win-optimal seats of a sequential table, against
// target_aware, an exhaustive search over a small case, and Monte Carlo.
#include <gtest/gtest.h>

#include <cmath>

#include "games/game.h"
#include "games/registry.h"
#include "games/sixers/sixers.h"
#include "games/sixers/sixers_exact.h"
#include "games/sixers/sixers_strategies.h"

namespace dicesim::sixers {
namespace {

// Every (dice in hand, score so far) a turn can reach: the score of the
// dice already kept, each at most the highest face score.
bool reachable(const Rules& rules, int dice, int score) {
  return score <= rules.max_score() / rules.dice * (rules.dice - dice);
}

TEST(SixersOptimalWin, LastOfTwoSeatsIsTargetAware) {
  const Hands hands(Rules{});
  Solutions solutions(hands);
  const Policy& last = solutions.optimal_win(0).policy;
  const Policy& aware = solutions.target_aware();
  const int top = hands.rules().max_score();
  for (int target = -1; target <= top + 1; ++target) {
    const int t = target < 0 ? kNoTarget : target;
    for (int score = 0; score <= top; ++score)
      for (int roll = 0; roll + 1 < hands.rules().rolls; ++roll)
        for (int hand = hands.first(1); hand < hands.count(); ++hand)
          if (reachable(hands.rules(), hands.dice_of(hand), score)) {
            ASSERT_EQ(last.keep(roll, last.slot(t, score), hand), aware.keep(roll, aware.slot(t, score), hand))
                << "target " << target << " score " << score << " roll " << roll << " hand " << hand;
          }
  }
  const Policy& first = solutions.optimal_win(1).policy;
  const TableOdds win = table_odds(hands, {&first, &last}, true);
  const TableOdds with_aware = table_odds(hands, {&first, &aware}, true);
  EXPECT_DOUBLE_EQ(win.win[1], with_aware.win[1]);
  EXPECT_DOUBLE_EQ(win.win[0], with_aware.win[0]);
  EXPECT_GT(win.win[1], win.win[0]);  // the second seat knows the score to beat
}

// The seat's values add up with the ties to 1, and the solver's own value of
// the first seat is what the table's exact odds give it.
TEST(SixersOptimalWin, SeatValuesAndTiesSumToOne) {
  const Hands hands(Rules{});
  Solutions solutions(hands);
  for (int players = 2; players <= 8; ++players) {
    std::vector<const Policy*> seats;
    for (int seat = 0; seat < players; ++seat) seats.push_back(&solutions.optimal_win(players - 1 - seat).policy);
    const TableOdds odds = table_odds(hands, seats, true);
    double total = odds.tie;
    for (double w : odds.win) total += w;
    EXPECT_NEAR(total, 1.0, 1e-12) << players << " players";
    EXPECT_NEAR(odds.win[0], solutions.optimal_win(players - 1).first_value, 1e-12) << players << " players";
  }
}

// A copy of `policy` in which the turn facing `target` plays a slot of its
// own from the first roll on (its score so far is 0 there), so that one
// decision can be changed without touching other targets.
Policy with_own_slot(const Hands& hands, const Policy& policy, int target) {
  Policy out(hands, policy.slots() + 1);
  const int top = hands.rules().max_score();
  for (int roll = 0; roll < hands.rules().rolls; ++roll)
    for (int hand = 0; hand < hands.count(); ++hand) {
      for (int slot = 0; slot < policy.slots(); ++slot) out.set_keep(roll, slot, hand, policy.keep(roll, slot, hand));
      out.set_keep(roll, policy.slots(), hand, policy.keep(roll, policy.slot(target, 0), hand));
    }
  for (int t = -1; t <= top + 1; ++t)
    for (int score = 0; score <= top; ++score) {
      const int code = t < 0 ? kNoTarget : t;
      out.set_slot(code, score, policy.slot(code, score));
    }
  out.set_slot(target, 0, policy.slots());
  return out;
}

// 3 dice, 2 rolls, 3 players: the only choices are on the first roll, one
// per (score to beat, hand), and a seat's chance of winning adds up over
// them. So trying every choice of every (seat, score to beat, hand) against
// the others' optimal_win play searches every deterministic policy of each
// seat: none beats the backward induction. The exact odds of the table are
// the judge, not the solver's own values.
TEST(SixersOptimalWin, NoSeatGainsByAnyOtherPolicyThreeDiceTwoRollsThreePlayers) {
  const Hands hands(Rules{3, 2, 3});
  Solutions solutions(hands);
  constexpr int kPlayers = 3;
  std::vector<const Policy*> seats;
  for (int seat = 0; seat < kPlayers; ++seat) seats.push_back(&solutions.optimal_win(kPlayers - 1 - seat).policy);
  const TableOdds best = table_odds(hands, seats, true);
  int worse = 0;
  for (int seat = 0; seat < kPlayers; ++seat) {
    std::vector<int> targets = {kNoTarget};
    if (seat > 0)
      for (int t = 0; t <= hands.rules().max_score(); ++t) targets.push_back(t);
    for (int target : targets) {
      Policy deviation = with_own_slot(hands, *seats[seat], target);
      std::vector<const Policy*> table = seats;
      table[seat] = &deviation;
      const int slot = deviation.slot(target, 0);
      for (int hand = hands.first(3); hand < hands.first(4); ++hand) {
        const int chosen = deviation.keep(0, slot, hand);
        for (int keep = 1; keep <= 3; ++keep) {
          if (keep == chosen) continue;
          deviation.set_keep(0, slot, hand, keep);
          const double value = table_odds(hands, table, true).win[seat];
          ASSERT_LE(value, best.win[seat] + 1e-12) << "seat " << seat << " target " << target << " hand " << hand;
          worse += value < best.win[seat] - 1e-12;
        }
        deviation.set_keep(0, slot, hand, chosen);
      }
    }
  }
  EXPECT_GT(worse, 100);  // the search is not blind: most other choices lose
}

// Monte Carlo of a sequential table with optimal_win in three seats (each
// playing its own seat's policy) against the exact odds, as z-scores.
TEST(SixersOptimalWin, MonteCarloOfASequentialTableMatchesTheExactOdds) {
  const json config = {{"game", "sixers"},
                       {"strategies",
                        {{{"name", "win"}, {"family", "optimal_win"}},
                         {{"name", "dv(2,2)"}, {"family", "dice_value_threshold"}, {"per_roll", {2, 2}}}}}};
  const std::unique_ptr<Game> game = find_game("sixers")->load(JsonNode(config, "test"), fair_die());
  for (bool sequential : {true, false}) {
    const Table table{{0, 1, 0, 0}, sequential};
    const int players = static_cast<int>(table.seats.size());
    const std::vector<int> bins = game->measure_bins();
    std::vector<std::int64_t> data(TableCounts::size(players, bins), 0);
    constexpr std::uint64_t kGames = 400'000;
    Rng rng = block_rng(3, 1, 4);
    game->play(table, kGames, rng, TableCounts(data.data(), players, bins));
    const TableCountsView counts(data.data(), players, bins);
    const TableOdds odds = *game->exact(table);
    for (int seat = 0; seat < players; ++seat) {
      const double p = odds.win[seat];
      const double z = (double(counts.wins(seat)) - kGames * p) / std::sqrt(kGames * p * (1 - p));
      EXPECT_LT(std::abs(z), 5) << "seat " << seat << (sequential ? " sequential" : " blind");
    }
  }
}

// At a sequential table each optimal_win seat plays its own policy; blind,
// every one plays the first seat's.
TEST(SixersOptimalWin, EachSeatPlaysThePolicyOfTheSeatsAfterIt) {
  const Hands hands(Rules{});
  Solutions solutions(hands);
  const json config = {{"game", "sixers"}, {"strategies", {{{"name", "win"}, {"family", "optimal_win"}}}}};
  const std::unique_ptr<Game> game = find_game("sixers")->load(JsonNode(config, "test"), fair_die());
  std::vector<const Policy*> seats;
  for (int seat = 0; seat < 4; ++seat) seats.push_back(&solutions.optimal_win(3 - seat).policy);
  const TableOdds expected = table_odds(hands, seats, true);
  const TableOdds got = *game->exact(Table{{0, 0, 0, 0}, true});
  for (int seat = 0; seat < 4; ++seat) EXPECT_DOUBLE_EQ(got.win[seat], expected.win[seat]);
  const TableOdds blind = *game->exact(Table{{0, 0}, false});
  const Policy& first = solutions.optimal_win(1).policy;
  EXPECT_DOUBLE_EQ(blind.win[0], table_odds(hands, {&first, &first}, false).win[0]);
}

}  // namespace
}  // namespace dicesim::sixers
