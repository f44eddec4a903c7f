// Win-optimal Pig at tables of two to four seats (games/pig/pig_table_win.h):
// the two-player solver's values at two seats, odds summing to 1, an
// equilibrium (no seat gains by playing anything else alone) and the exact
// odds against Monte Carlo play of the solved decisions.
#include "games/pig/pig_table_win.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "config/json_input.h"
#include "engine/rng.h"
#include "games/pig/pig_exact.h"
#include "math/stats.h"

namespace dicesim::pig {
namespace {

double total(const SeatOdds& odds, int seats) { return std::accumulate(odds.begin(), odds.begin() + seats, 0.0); }

TEST(PigTableWin, TwoSeatsAreTheTwoPlayerSolution) {
  for (int dice : {1, 2}) {
    const Rules rules{dice, 40};
    const WinSolution two = solve_optimal_win(rules);
    const TableWin table = solve_table_win(rules, 2);
    for (int i = 0; i < rules.goal; i += 3)
      for (int j = 0; j < rules.goal; j += 5) {
        const int scores[2] = {i, j};
        EXPECT_NEAR(table.value(0, scores)[0], two.win(i, j), 1e-11) << dice << " " << i << " " << j;
      }
  }
}

TEST(PigTableWin, EverySeatsOddsSumToOne) {
  for (int dice : {1, 2})
    for (int seats : {3, 4}) {
      const Rules rules{dice, seats == 3 ? 25 : 12};
      const TableWin table = solve_table_win(rules, seats);
      const int start[kMostTableSeats] = {};
      EXPECT_NEAR(total(table.value(0, start), seats), 1.0, 1e-12) << dice << " " << seats;
      const int late[kMostTableSeats] = {rules.goal - 1, 3, rules.goal / 2, 1};
      for (int m = 0; m < seats; ++m) EXPECT_NEAR(total(table.value(m, late), seats), 1.0, 1e-12);
    }
}

// No seat gains by switching alone to any hold_at, or to the two-player
// optimal_win answering the leading other seat: the solved play is an
// equilibrium, not only a fixed point. Each deviation is valued exactly by
// the same solver, the other seats keeping the solved decisions.
TEST(PigTableWin, NoSeatGainsByPlayingAnythingElseAlone) {
  for (int dice : {1, 2}) {
    const Rules rules{dice, dice == 1 ? 30 : 20};
    const TableWin optimal = solve_table_win(rules, 3);
    const WinSolution two = solve_optimal_win(rules);
    const Decision two_player = [&](int seat, const int* scores, int t) {
      const int leader = std::max(scores[(seat + 1) % 3], scores[(seat + 2) % 3]);
      return two.policy.hold(0, scores[seat], leader, t);
    };
    const int start[kMostTableSeats] = {};
    for (int seat = 0; seat < 3; ++seat) {
      const double value = optimal.value(0, start)[seat];
      std::vector<Decision> others(3, optimal.decision());
      for (int h = 1; h < rules.goal; h += 3) {
        others[seat] = hold_at_decision(h);
        EXPECT_LE(solve_table_win(rules, 3, others).value(0, start)[seat], value + 1e-12) << "hold_at " << h;
      }
      others[seat] = two_player;
      const double two_value = solve_table_win(rules, 3, others).value(0, start)[seat];
      EXPECT_LE(two_value, value + 1e-12) << "two-player optimal_win in seat " << seat;
    }
  }
}

// The solved decisions, played out game by game, win as often as the
// solver says (|z| < 5 for each seat).
TEST(PigTableWin, MonteCarloPlayOfTheSolvedDecisionsAgrees) {
  for (int dice : {1, 2}) {
    const Rules rules{dice, 30};
    const TableWin table = solve_table_win(rules, 3);
    Rng rng(2024 + dice);
    constexpr std::uint64_t kGames = 200000;
    std::array<std::int64_t, 3> wins{};
    for (std::uint64_t g = 0; g < kGames; ++g) {
      int scores[kMostTableSeats] = {};
      for (int mover = 0;; mover = (mover + 1) % 3) {
        int t = 0;
        bool won = false;
        for (;;) {
          const int a = int(uniform_below(rng, 6)) + 1, b = dice == 2 ? int(uniform_below(rng, 6)) + 1 : 0;
          const int points = throw_points(dice, a, b);
          if (points == kReset) scores[mover] = 0;
          if (points <= 0) break;
          t += points;
          if (scores[mover] + t >= rules.goal) {
            won = true;
            break;
          }
          if (table.holds(mover, scores, t)) {
            scores[mover] += t;
            break;
          }
        }
        if (won) {
          ++wins[std::size_t(mover)];
          break;
        }
      }
    }
    const int start[kMostTableSeats] = {};
    for (int seat = 0; seat < 3; ++seat)
      EXPECT_LT(std::abs(stats::rate_z(wins[std::size_t(seat)], kGames, table.value(0, start)[seat])), 5.0)
          << dice << " seat " << seat;
  }
}

TEST(PigTableWin, TablesPastTheMemoryLimitAreRefusedBeforeAllocating) {
  EXPECT_NE(table_win_refusal(Rules{1, 200}, 4), "");
  EXPECT_NE(table_win_refusal(Rules{1, 100}, 5), "");
  EXPECT_EQ(table_win_refusal(Rules{1, 100}, 3), "");
  EXPECT_THROW(solve_table_win(Rules{1, 200}, 4), InputError);
}

}  // namespace
}  // namespace dicesim::pig
