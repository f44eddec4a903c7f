// The turns around a score tuple (math/turn_cycle.h): the cycle closes to
// the values that repeated turns reach, and where no pure profile is an
// equilibrium, a mixed one is found at which no seat gains.
#include "math/turn_cycle.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <utility>
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

// The supports in the order a plain odometer over each seat's options
// gives (seat 0 turning fastest), kept where the count of mixing seats is
// `mixing`: the order find_cycle_equilibrium promises, written the obvious
// way, every start as it tries them.
std::optional<CycleEquilibrium<N>> odometer_search(const std::array<TurnPath<N>, N>& paths, int seats) {
  std::array<std::vector<int>, N> options;
  for (int m = 0; m < seats; ++m)
    for (int node = 0; node < int(paths[m].nodes.size()); ++node) {
      options[m].push_back(2 * node);
      if (node + 1 < int(paths[m].nodes.size())) options[m].push_back(2 * node + 1);
    }
  for (int mixing = 0; mixing <= seats; ++mixing) {
    std::array<std::size_t, N> pick{};
    for (bool more = true; more;) {
      cycle_detail::Support<N> support;
      for (int m = 0; m < seats; ++m) {
        support.plays[m].node = options[m][pick[m]] / 2;
        if (options[m][pick[m]] % 2) support.mixing[std::size_t(support.count++)] = m;
      }
      for (int t = 0; support.count == mixing && t < (mixing == 0 ? 1 : mixing == 1 ? 3 : 1 + (1 << mixing)); ++t) {
        const std::array<double, 3> starts = {0.5, 0.1, 0.9};
        std::array<double, N> start{};
        for (int j = 0; j < mixing; ++j) start[j] = t == 0 ? starts[0] : starts[1 + ((t - 1) >> j & 1)];
        cycle_detail::Support<N> at = support;
        if (mixing > 0 && !cycle_detail::settle_mixes(paths, seats, at, start)) continue;
        std::array<TurnLottery<N>, N> turns{};
        for (int m = 0; m < seats; ++m) turns[m] = played(paths[m], at.plays[m]);
        CycleEquilibrium<N> candidate{at.plays, close_turn_cycle(turns, seats), 0};
        candidate.gain = most_cycle_gain(paths, candidate.plays, candidate.values, seats);
        if (candidate.gain <= kMostCycleGain) return candidate;
      }
      more = false;
      for (int m = 0; m < seats && !more; ++m)
        if (++pick[m] < options[m].size())
          more = true;
        else
          pick[m] = 0;
    }
  }
  return std::nullopt;
}

// Which equilibrium a tuple plays is the first the search meets: the
// search meets them in the odometer's order (so solves keep their numbers).
TEST(TurnCycle, TheSearchMeetsSupportsInTheOdometersOrder) {
  std::mt19937_64 rng(45);
  std::uniform_real_distribution<double> unit(0.05, 0.6);
  int mixed = 0;
  for (int table = 0; table < 600; ++table) {
    const int seats = 2 + table % 3;
    std::array<TurnPath<N>, N> paths{};
    std::array<std::pair<int, int>, N> whole{};
    for (int m = 0; m < seats; ++m) {
      std::vector<double> thresholds(std::size_t(1 + table / 3 % 3));
      for (double& t : thresholds) t = unit(rng);
      std::sort(thresholds.begin(), thresholds.end());
      paths[m] = random_path(rng, m, seats, thresholds), whole[m] = {0, int(thresholds.size())};
    }
    const auto expected = odometer_search(paths, seats);
    const auto found = find_cycle_equilibrium(paths, seats, whole, kMostCycleGain);
    ASSERT_EQ(bool(found), bool(expected)) << "table " << table;
    if (!found) continue;
    for (int m = 0; m < seats; ++m) {
      EXPECT_EQ(found->plays[m].node, expected->plays[m].node) << "table " << table << " seat " << m;
      EXPECT_EQ(found->plays[m].toward_next, expected->plays[m].toward_next) << "table " << table << " seat " << m;
      mixed += found->plays[m].toward_next > 0;
    }
  }
  EXPECT_GT(mixed, 10);  // the order among mixed supports is met too
}

// What the search caps is the supports it tries, not how many its boxes
// hold: four seats with twelve best turns each hold 23^4 supports, past
// kMostSupports, yet where a pure profile is an equilibrium (one of 12^4,
// tried first) it is found.
TEST(TurnCycle, ABoxTooBigToEnumerateStillYieldsItsPureEquilibrium) {
  std::mt19937_64 rng(44);
  std::uniform_real_distribution<double> unit(0.05, 0.6);
  constexpr int seats = 4, nodes = 12;
  static_assert(double(2 * nodes - 1) * (2 * nodes - 1) * (2 * nodes - 1) * (2 * nodes - 1) > kMostSupports);
  int with_pure = 0;
  for (int table = 0; table < 10 && with_pure < 3; ++table) {
    std::array<TurnPath<N>, N> paths{};
    std::array<std::pair<double, double>, N> watched{};
    for (int m = 0; m < seats; ++m) {
      std::vector<double> thresholds(nodes - 1);
      for (double& t : thresholds) t = unit(rng);
      std::sort(thresholds.begin(), thresholds.end());
      paths[m] = random_path(rng, m, seats, thresholds), watched[m] = {0.0, 1.0};
    }
    bool pure = false;
    for (int profile = 0; profile < nodes * nodes * nodes * nodes && !pure; ++profile) {
      std::array<CyclePlay, N> plays{};
      std::array<TurnLottery<N>, N> turns{};
      for (int m = 0, rest = profile; m < seats; ++m, rest /= nodes)
        plays[m].node = rest % nodes, turns[m] = paths[m].nodes[std::size_t(plays[m].node)];
      pure = most_cycle_gain(paths, plays, close_turn_cycle(turns, seats), seats) == 0;
    }
    if (!pure) continue;
    ++with_pure;
    const auto found = settle_cycle(paths, seats, watched);
    ASSERT_TRUE(found) << "table " << table;
    EXPECT_LE(found->gain, kMostCycleGain);
  }
  EXPECT_GT(with_pure, 0);
}

// The rounds at a tuple end kWatchedRounds after their decisions return,
// and what each seat's bust was worth is recorded over those rounds only.
TEST(TurnCycle, RoundsEndSoonAfterTheyReturnWatchingTheLastOnes) {
  CycleWatch<N> watch(1000);
  int round = 0;
  for (; watch.plays(round); ++round) {
    watch.see(round, 0, round < 8 ? 0.9 : 0.25 + 0.25 * (round % 2));  // watched from round 8 only
    watch.unsettled(round, [&] { return std::uint64_t(round < 5 ? 100 + round : round % 2); });
  }
  EXPECT_EQ(round, 8 + CycleWatch<N>::kWatchedRounds);  // round 7 returns to round 5's decisions
  EXPECT_EQ(watch.watched()[0], std::make_pair(0.25, 0.5));
  CycleWatch<N> settling(40);  // no return: every round played, the last kWatchedRounds watched
  for (round = 0; settling.plays(round); ++round) settling.see(round, 1, round / 64.0);  // bust values lie in [0, 1]
  EXPECT_EQ(round, 40);
  EXPECT_EQ(settling.watched()[1], std::make_pair((40.0 - CycleWatch<N>::kWatchedRounds) / 64, 39.0 / 64));
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
