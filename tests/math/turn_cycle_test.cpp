// The turns around a score tuple (math/turn_cycle.h): the cycle closes to
// the values that repeated turns reach, and where no pure profile is an
// equilibrium, a mixed one is found at which no seat gains.
#include "math/turn_cycle.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace dicesim {
namespace {

constexpr std::size_t N = 4;

// A random lottery: nonnegative chances that, with the bust, sum to 1.
TurnLottery<N> random_lottery(std::mt19937_64& rng, int seats, double bust) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  TurnLottery<N> turn;
  turn.bust = bust;
  double total = 0;
  for (int k = 0; k < seats; ++k) total += turn.constant[k] = unit(rng);
  for (int k = 0; k < seats; ++k) turn.constant[k] *= (1 - bust) / total;
  return turn;
}

TEST(TurnCycle, ClosingTheCycleGivesWhatTheTurnsRepeatedReach) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> unit(0.0, 0.9);
  for (int seats = 2; seats <= 4; ++seats) {
    std::array<TurnLottery<N>, N> turns{};
    for (int m = 0; m < seats; ++m) turns[m] = random_lottery(rng, seats, unit(rng));
    const CycleValues<N> closed = close_turn_cycle(turns, seats);
    // v_m = c_m + b_m v_(m+1), iterated from 0 until nothing moves.
    CycleValues<N> iterated{};
    for (int sweep = 0; sweep < 2000; ++sweep)
      for (int m = seats - 1; m >= 0; --m)
        for (int k = 0; k < seats; ++k)
          iterated[m][k] = turns[m].constant[k] + turns[m].bust * iterated[(m + 1) % seats][k];
    for (int m = 0; m < seats; ++m) {
      double sum = 0;
      for (int k = 0; k < seats; ++k) {
        EXPECT_NEAR(closed[m][k], iterated[m][k], 1e-14) << seats << " seats";
        sum += closed[m][k];
      }
      EXPECT_NEAR(sum, 1.0, 1e-14);  // someone leaves the tuple, surely
    }
  }
}

// A seat's path of best turns: each next one busts more and takes over
// from the one before at the next of `thresholds` (increasing), their
// lines for the seat crossing there; the seat's other chances random.
TurnPath<N> random_path(std::mt19937_64& rng, int seat, int seats, const std::vector<double>& thresholds) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (;;) {
    TurnPath<N> path;
    path.thresholds = thresholds;
    double bust = 0.4 * unit(rng), own = 0.3 + 0.4 * unit(rng);
    bool fits = true;
    for (std::size_t k = 0; k <= thresholds.size() && fits; ++k) {
      if (k > 0) {
        const double next = bust + (0.95 - bust) * unit(rng) / 2;
        own -= (next - bust) * thresholds[k - 1];  // the lines cross at the threshold
        bust = next;
      }
      fits = own >= 0 && own + bust <= 1;
      TurnLottery<N> turn = random_lottery(rng, seats, bust);
      double others = 0;
      for (int j = 0; j < seats; ++j) others += j == seat ? 0 : turn.constant[j];
      for (int j = 0; j < seats; ++j) turn.constant[j] = j == seat ? own : turn.constant[j] * (1 - bust - own) / others;
      path.nodes.push_back(turn);
    }
    if (fits) return path;
  }
}

// Random tables of two to four seats, each with a path of two to four best
// turns: where no pure profile is an equilibrium (best replies cycle), a
// mixed one is found, some seat randomising strictly at its threshold, and
// no seat gains by another turn.
TEST(TurnCycle, WhereNoPureProfileIsAnEquilibriumAMixedOneIsFound) {
  std::mt19937_64 rng(2026);
  std::uniform_real_distribution<double> unit(0.05, 0.6);
  int cycling = 0, longer = 0;
  for (int table = 0; table < 4000; ++table) {
    const int seats = 2 + table % 3;
    std::array<TurnPath<N>, N> paths{};
    std::array<std::pair<double, double>, N> watched{};
    for (int m = 0; m < seats; ++m) {
      std::vector<double> thresholds(std::size_t(1 + table / 3 % 3));
      for (double& t : thresholds) t = unit(rng);
      std::sort(thresholds.begin(), thresholds.end());
      paths[m] = random_path(rng, m, seats, thresholds), watched[m] = {0.0, 1.0};
    }
    // Every pure profile, and whether any is an equilibrium.
    bool pure = false;
    std::array<int, N> nodes{};
    for (bool more = true; more && !pure;) {
      std::array<CyclePlay, N> plays{};
      std::array<TurnLottery<N>, N> turns{};
      for (int m = 0; m < seats; ++m) plays[m].node = nodes[m], turns[m] = paths[m].nodes[nodes[m]];
      pure = most_cycle_gain(paths, plays, close_turn_cycle(turns, seats), seats) == 0;
      more = false;
      for (int m = 0; m < seats && !more; ++m)
        if (++nodes[m] < int(paths[m].nodes.size()))
          more = true;
        else
          nodes[m] = 0;
    }
    if (pure) continue;
    ++cycling;
    longer += paths[0].nodes.size() > 2;
    const auto found = settle_cycle(paths, seats, watched);
    ASSERT_TRUE(found) << "table " << table << ", " << seats << " seats";
    bool randomises = false;
    for (int m = 0; m < seats; ++m) {
      const CyclePlay play = found->plays[m];
      randomises |= play.toward_next > 0 && play.toward_next < 1;
      if (play.toward_next > 0) {  // a mixing seat sits at its threshold
        EXPECT_NEAR(bust_worth(found->values, m, seats), paths[m].thresholds[play.node], 1e-13);
      }
    }
    EXPECT_TRUE(randomises) << "table " << table;
    // The values are those of the plays, closed around the cycle again.
    std::array<TurnLottery<N>, N> turns{};
    for (int m = 0; m < seats; ++m) turns[m] = played(paths[m], found->plays[m]);
    EXPECT_EQ(close_turn_cycle(turns, seats), found->values);
    EXPECT_LE(most_cycle_gain(paths, found->plays, found->values, seats), kMostCycleGain);
  }
  EXPECT_GT(cycling, 20);  // the random tables do cycle, now and then
  EXPECT_GT(longer, 5);    // and some of those with longer paths
}

// Rounds that return to the decisions of a round 2 to kRecall before are a
// cycle; rounds that keep changing, or return only from further back, are not.
TEST(TurnCycle, RoundHistoryCallsAReturnACycle) {
  RoundHistory changing;
  for (std::uint64_t round = 1; round <= 50; ++round) EXPECT_FALSE(changing.returned(round));
  RoundHistory flipping;
  EXPECT_FALSE(flipping.returned(7));
  EXPECT_FALSE(flipping.returned(8));
  EXPECT_TRUE(flipping.returned(7));
  RoundHistory long_ago;
  for (std::uint64_t round = 1; round <= RoundHistory::kRecall + 1; ++round) EXPECT_FALSE(long_ago.returned(round));
  EXPECT_FALSE(long_ago.returned(1));  // kRecall + 1 rounds before: forgotten
}

}  // namespace
}  // namespace dicesim
