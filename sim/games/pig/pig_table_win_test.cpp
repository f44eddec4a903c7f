// Win-optimal Pig at tables of two to four seats (games/pig/pig_table_win.h):
// the two-player solver's values at two seats, odds summing to 1, an
// equilibrium (no seat gains by playing anything else alone), plain value
// iteration's values, and the exact odds against Monte Carlo play of the
// solved decisions.
#include "games/pig/pig_table_win.h"

#include <gtest/gtest.h>
#include <oneapi/tbb/global_control.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "config/json_input.h"
#include "engine/rng.h"
#include "games/pig/pig_exact.h"
#include "math/equilibrium.h"
#include "math/score_tuples.h"
#include "math/stats.h"
#include "test_util.h"

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

// An independent solve: plain value iteration over every state (mover,
// scores, turn total), sweeping until nothing moves, each mover taking the
// better of holding and throwing for itself (indifference holds, as in the
// solver). No ordering by score sums, no policy iteration.
class BruteForceTable {
 public:
  BruteForceTable(const Rules& rules, int seats) : rules_(rules), seats_(seats) {
    std::size_t states = seats;
    for (int s = 0; s < seats; ++s) states *= rules.goal;
    values_.assign(states * rules.goal, SeatOdds{});
    for (double change = 1; change > 1e-15;) change = sweep();
  }
  const SeatOdds& start(int mover, const int* scores) const { return at(mover, scores, 0); }

 private:
  std::size_t index(int mover, const int* scores, int total) const {
    std::size_t i = mover;
    for (int s = 0; s < seats_; ++s) i = i * rules_.goal + scores[s];
    return i * rules_.goal + total;
  }
  const SeatOdds& at(int mover, const int* scores, int total) const { return values_[index(mover, scores, total)]; }
  SeatOdds won(int mover) const {
    SeatOdds odds{};
    odds[mover] = 1;
    return odds;
  }
  // The turn passes on at these scores.
  const SeatOdds& next_turn(int mover, const int* scores) const { return at((mover + 1) % seats_, scores, 0); }
  SeatOdds throw_on(int mover, const int* scores, int total) const {
    SeatOdds value{};
    const auto add = [&](double p, const SeatOdds& v) {
      for (int s = 0; s < seats_; ++s) value[s] += p * v[s];
    };
    const int faces = rules_.dice == 1 ? 6 : 36;
    for (int face = 0; face < faces; ++face) {
      const int a = face % 6 + 1, b = rules_.dice == 1 ? 0 : face / 6 + 1;
      const double p = 1.0 / faces;
      if (a == 1 && b == 1) {  // two 1s: the banked score back to 0
        int reset[kMostTableSeats];
        std::copy(scores, scores + seats_, reset);
        reset[mover] = 0;
        add(p, next_turn(mover, reset));
      } else if (a == 1 || b == 1) {
        add(p, next_turn(mover, scores));
      } else if (scores[mover] + total + a + b >= rules_.goal) {
        add(p, won(mover));
      } else {
        add(p, at(mover, scores, total + a + b));
      }
    }
    return value;
  }
  double sweep() {
    double change = 0;
    int scores[kMostTableSeats] = {};
    const std::size_t tuples = values_.size() / seats_ / rules_.goal;
    for (int mover = 0; mover < seats_; ++mover)
      for (std::size_t tuple = 0; tuple < tuples; ++tuple) {
        for (int s = seats_ - 1, rest = static_cast<int>(tuple); s >= 0; --s, rest /= rules_.goal)
          scores[s] = rest % rules_.goal;
        for (int total = rules_.goal - 1 - scores[mover]; total >= 0; --total) {
          SeatOdds value = throw_on(mover, scores, total);
          if (total > 0) {
            int held[kMostTableSeats];
            std::copy(scores, scores + seats_, held);
            held[mover] += total;
            const SeatOdds& hold = next_turn(mover, held);
            if (hold[mover] >= value[mover]) value = hold;
          }
          SeatOdds& slot = values_[index(mover, scores, total)];
          for (int s = 0; s < seats_; ++s) change = std::max(change, std::abs(value[s] - slot[s]));
          slot = value;
        }
      }
    return change;
  }

  Rules rules_;
  int seats_;
  std::vector<SeatOdds> values_;
};

TEST(PigTableWin, AgreesWithPlainValueIterationOverEveryState) {
  for (int dice : {1, 2}) {
    const Rules rules{dice, dice == 1 ? 20 : 16};
    const TableWin table = solve_table_win(rules, 3);
    const BruteForceTable brute(rules, 3);
    double worst = 0;
    for (int mover = 0; mover < 3; ++mover)
      for (int a = 0; a < rules.goal; ++a)
        for (int b = 0; b < rules.goal; ++b)
          for (int c = 0; c < rules.goal; ++c) {
            const int scores[3] = {a, b, c};
            for (int s = 0; s < 3; ++s)
              worst = std::max(worst, std::abs(table.value(mover, scores)[s] - brute.start(mover, scores)[s]));
          }
    EXPECT_LT(worst, 1e-9) << dice << (dice == 1 ? " die" : " dice");
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
          // (where the seat randomises, it holds with the solve's chance)
          if (const double hold = table.hold_chance(mover, scores, t);
              hold >= 1 || (hold > 0 && double(rng() >> 11) * 0x1.0p-53 < hold)) {
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

// Passes that settle never return to earlier decisions; passes that cycle
// (A B A B ...) do, and are stopped at the third return.
TEST(PigTableWin, PassHistoryCallsRepeatedReturnsACycle) {
  PassHistory settling;
  for (std::uint64_t hash : {1, 2, 3, 4, 4, 4, 5, 6, 7, 8, 9, 10, 11, 12, 12})
    EXPECT_FALSE(settling.cycles_after(hash));
  EXPECT_EQ(settling.returns(), 0);
  PassHistory cycling;
  for (std::uint64_t hash : {1, 2, 3, 4, 5, 4, 5}) EXPECT_FALSE(cycling.cycles_after(hash));
  EXPECT_EQ(cycling.returns(), 2);
  EXPECT_TRUE(cycling.cycles_after(4));
  PassHistory long_ago;  // a return further back than kRecall passes is not seen
  for (std::uint64_t hash = 1; hash <= RoundHistory::kRecall + 1; ++hash) long_ago.cycles_after(hash);
  long_ago.cycles_after(1);
  EXPECT_EQ(long_ago.returns(), 0);
}

// At the solved decisions no seat gains by a best reply; where a seat's play
// is fixed to something worse, its best reply gains.
TEST(PigTableWin, DeviationGainsAreZeroAtTheEquilibriumOnly) {
  for (int dice : {1, 2}) {
    const Rules rules{dice, 20};
    const TableWin optimal = solve_table_win(rules, 3);
    EXPECT_FALSE(optimal.cycle);
    for (double gain : deviation_gains(rules, optimal)) EXPECT_NEAR(gain, 0.0, 1e-12) << dice;
    const TableWin hold_at_4 = solve_table_win(rules, 3, {hold_at_decision(4)});
    const std::vector<double> gains = deviation_gains(rules, hold_at_4);
    EXPECT_GT(gains[0], 1e-3) << dice;  // hold at 4 is far from a best reply
    EXPECT_NEAR(gains[1], 0.0, 1e-12);  // the others already reply best to it
    EXPECT_NEAR(gains[2], 0.0, 1e-12);
  }
}

// Where best replies cycle within a score tuple, the seats randomise: one
// die, three seats, goal 70 (at 50 and 60 the rounds cycle at a few tuples
// too, but a pure profile on the best-turn paths settles them).
class PigCyclingTable : public ::testing::Test {
 protected:
  static constexpr int kGoal = 70;
  static const Rules& rules() {
    static const Rules rules{1, kGoal};
    return rules;
  }
  static const TableWin& table() {
    static const TableWin solved = solve_table_win(rules(), 3);
    return solved;
  }
  // The first state (in tuple order) where a seat randomises.
  struct MixedState {
    int scores[kMostTableSeats] = {};
    int mover = -1, total = 0;
    double hold = 0;
  };
  static MixedState first_mixed_state() {
    MixedState found;
    for (std::size_t tuple = 0; tuple < std::size_t(kGoal * kGoal * kGoal); ++tuple) {
      decode_tuple(tuple, 3, kGoal, found.scores);
      for (int m = 0; m < 3; ++m)
        for (int t = 1; t < kGoal - found.scores[m]; ++t)
          if (const double h = table().hold_chance(m, found.scores, t); h > 0 && h < 1) {
            found.mover = m, found.total = t, found.hold = h;
            return found;
          }
    }
    return found;
  }
  // What each seat gains, at the start and at `scores` (every mover's
  // turn there), by switching alone to its best reply to `profile`.
  static std::vector<double> gains(const Decision& profile, const int* scores) {
    const TableWin played = solve_table_win(rules(), 3, std::vector<Decision>(3, profile));
    const int start[kMostTableSeats] = {};
    std::vector<double> gains;
    for (int seat = 0; seat < 3; ++seat) {
      std::vector<Decision> others(3, profile);
      others[std::size_t(seat)] = nullptr;
      const TableWin reply = solve_table_win(rules(), 3, others);
      double gain = reply.value(0, start)[seat] - played.value(0, start)[seat];
      for (int m = 0; m < 3; ++m) gain = std::max(gain, reply.value(m, scores)[seat] - played.value(m, scores)[seat]);
      gains.push_back(gain);
    }
    return gains;
  }
};

// Every tuple settles, pure or mixed, and no seat gains by switching alone
// to anything (within 1e-12), at the start or at a tuple where a seat
// randomises, where the same decisions made pure (the randomised one
// rounded) leave a seat a gain there.
TEST_F(PigCyclingTable, TheSeatsRandomiseToAnEquilibrium) {
  EXPECT_GT(table().mixed_tuples, 0u);
  EXPECT_GE(table().cycled_tuples, table().mixed_tuples);
  EXPECT_EQ(table().unsettled_tuples, 0u);
  EXPECT_LE(table().most_cycled_gain, 1e-14);
  const MixedState mixed = first_mixed_state();
  ASSERT_GE(mixed.mover, 0) << "no state randomises";
  const std::vector<double> mixed_gains = gains(table().decision(), mixed.scores);
  EXPECT_TRUE(is_equilibrium(mixed_gains)) << deviation_gain_lines(mixed_gains, "");
  const Decision rounded = [&](int seat, const int* scores, int total) {
    return std::round(table().hold_chance(seat, scores, total));
  };
  const std::vector<double> pure_gains = gains(rounded, mixed.scores);
  EXPECT_FALSE(is_equilibrium(pure_gains)) << deviation_gain_lines(pure_gains, "");
}

// The rounds cycle at a few tuples at goal 50, and `solve` says how they
// were settled beside the deviation gains; at goal 20 none cycles.
TEST(PigTableWin, TuplesWhoseRoundsCycleAreReported) {
  const TableWin table = solve_table_win(Rules{1, 50}, 3);
  ASSERT_GT(table.cycled_tuples, 0u);  // the tuples the line is to report
  const auto solved = testing::dicesim("solve pig --optimal --seats 3 --goal 50");
  EXPECT_EQ(solved.exit_code, 0) << solved.out;
  const std::string cycled = "cycled: at " + std::to_string(table.cycled_tuples) + " score tuple";
  EXPECT_NE(solved.out.find(cycled), std::string::npos) << solved.out;
  EXPECT_NE(solved.out.find("an equilibrium: no seat gains by switching alone"), std::string::npos) << solved.out;
  const auto settled = testing::dicesim("solve pig --optimal --seats 3 --goal 20");
  EXPECT_NE(settled.out.find("settled: every score tuple's decisions"), std::string::npos) << settled.out;
  EXPECT_EQ(settled.out.find("cycled"), std::string::npos) << settled.out;
}

// At a state where a seat randomises, play_turn banks at that total with
// the chance of reaching it times the chance of holding there (a z test
// over many turns): the engine plays the mix, not a pure rounding of it.
// A solve of the decisions fixed gives the table's values back.
TEST_F(PigCyclingTable, PlayRandomisesWhereTheSolveMixes) {
  const MixedState mixed = first_mixed_state();
  ASSERT_GE(mixed.mover, 0) << "no state randomises";
  std::vector<double> reach(std::size_t(kGoal) + 6, 0.0);  // without busting or holding first
  reach[0] = 1;
  for (int t = 0; t < mixed.total; ++t) {
    const double on = t == 0 ? 1 : 1 - table().hold_chance(mixed.mover, mixed.scores, t);
    for (int points = 2; points <= 6; ++points) reach[std::size_t(t + points)] += reach[std::size_t(t)] * on / 6;
  }
  const double banks_there = reach[std::size_t(mixed.total)] * mixed.hold;
  Rng rng(31);
  ThrowStream<1> dice(rng);
  constexpr std::uint64_t kTurns = 1000000;
  const int there = mixed.scores[mixed.mover] + mixed.total;
  std::uint64_t count = 0;
  for (std::uint64_t turn = 0; turn < kTurns; ++turn)
    count += table().play_turn(mixed.mover, mixed.scores, dice) == there;
  EXPECT_LT(std::abs(stats::rate_z(count, kTurns, banks_there)), 5.0)
      << count << " of " << kTurns << " turns banked at " << there << ", expected " << banks_there;
  const TableWin again = solve_table_win(rules(), 3, std::vector<Decision>(3, table().decision()));
  for (int m = 0; m < 3; ++m)
    for (int seat = 0; seat < 3; ++seat)
      EXPECT_NEAR(again.value(m, mixed.scores)[seat], table().value(m, mixed.scores)[seat], 1e-15);
}

TEST(PigTableWin, TablesPastTheMemoryLimitAreRefusedBeforeAllocating) {
  EXPECT_NE(table_win_refusal(Rules{1, 200}, 4), "");
  EXPECT_NE(table_win_refusal(Rules{1, 100}, 5), "");
  EXPECT_NE(table_win_refusal(Rules{2, 100}, 4), "");  // two dice keep every value: 17 GiB
  EXPECT_EQ(table_win_refusal(Rules{1, 100}, 3), "");
  EXPECT_EQ(table_win_refusal(Rules{1, 100}, 4), "");  // one die drops the sums no longer read: 12 GiB
  EXPECT_TRUE(drops_values(Rules{1, 100}, 4));
  EXPECT_FALSE(drops_values(Rules{1, 100}, 3));
  EXPECT_LT(table_win_bytes(Rules{1, 100}, 4), std::uint64_t(13) << 30);
  EXPECT_THROW(solve_table_win(Rules{1, 200}, 4), InputError);
}

// Dropping the values no longer read changes nothing that is kept: the same
// decisions at every state and the same values, bit for bit, at every tuple
// summing below the goal; a dropped value is an error, not a wrong number.
TEST(PigTableWin, DroppingTheSumsNoLongerReadKeepsEveryDecisionAndTheValuesBelowTheGoal) {
  const Rules rules{1, 14};
  const TableWin whole = solve_table_win(rules, 4, {}, {.keep_decisions = true, .drop_values = false});
  const TableWin dropped = solve_table_win(rules, 4, {}, {.keep_decisions = true, .drop_values = true});
  EXPECT_EQ(dropped.kept_below_sum(), rules.goal);
  int kept = 0, gone = 0;
  int scores[kMostTableSeats] = {};
  for (scores[0] = 0; scores[0] < rules.goal; ++scores[0])
    for (scores[1] = 0; scores[1] < rules.goal; ++scores[1])
      for (scores[2] = 0; scores[2] < rules.goal; ++scores[2])
        for (scores[3] = 0; scores[3] < rules.goal; ++scores[3])
          for (int mover = 0; mover < 4; ++mover) {
            for (int total = 1; total < rules.goal - scores[mover]; ++total)
              ASSERT_EQ(dropped.holds(mover, scores, total), whole.holds(mover, scores, total));
            const int sum = scores[0] + scores[1] + scores[2] + scores[3];
            ASSERT_EQ(dropped.has_value(scores), sum < rules.goal);
            if (sum < rules.goal) {
              ++kept;
              for (int s = 0; s < 4; ++s) ASSERT_EQ(dropped.value(mover, scores)[s], whole.value(mover, scores)[s]);
            } else {
              ++gone;
              EXPECT_THROW(dropped.value(mover, scores), std::logic_error);
            }
          }
  EXPECT_GT(kept, 0);
  EXPECT_GT(gone, kept);
}

// The tuples of one sum are solved in parallel: one thread and many give
// the same values and decisions, bit for bit.
TEST(PigTableWin, OneThreadAndManyGiveTheSameSolve) {
  for (int dice : {1, 2}) {
    const Rules rules{dice, dice == 1 ? 30 : 16};
    const TableWin many = solve_table_win(rules, 3);
    const TableWin one = [&] {
      tbb::global_control single(tbb::global_control::max_allowed_parallelism, 1);
      return solve_table_win(rules, 3);
    }();
    for (int a = 0; a < rules.goal; ++a)
      for (int b = 0; b < rules.goal; ++b)
        for (int c = 0; c < rules.goal; ++c) {
          const int scores[kMostTableSeats] = {a, b, c};
          for (int mover = 0; mover < 3; ++mover) {
            for (int s = 0; s < 3; ++s) ASSERT_EQ(one.value(mover, scores)[s], many.value(mover, scores)[s]) << dice;
            for (int total = 1; total < rules.goal - scores[mover]; ++total)
              ASSERT_EQ(one.holds(mover, scores, total), many.holds(mover, scores, total)) << dice;
          }
        }
  }
}

}  // namespace
}  // namespace dicesim::pig
