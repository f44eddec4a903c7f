// The turns of n seats at one score tuple, where a turn that busts hands the
// same scores to the next seat (Pig with one die, 10,000): each seat's turn
// is a lottery over the ends that leave the tuple plus a chance of handing
// the tuple on, so the seats' values there close around the cycle of turns.
//
// A seat's best turn depends on the others only through x, its own value
// when the next seat starts at these scores (what busting is worth to it).
// As x grows from 0 to 1 its best turn throws on at more totals: a path of
// pure turns, each best over an interval of x. Where best replies cycle (a
// seat's flip flips another's, which flips it back), no pure profile need
// be an equilibrium, but a mixed one exists (Kakutani: each seat's best
// replies, on its path, form an interval that jumps only at its
// thresholds). find_cycle_equilibrium finds one: some seats sit at a
// threshold x and play the next turn on the path with the chance that
// keeps the other mixing seats at theirs (the one decision in which the
// two turns differ randomised, or the whole turn drawn at its start).
//
// (sim/math/ includes nothing else of sim/: see README.md)
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace dicesim {

// One seat's turn: each seat's chance from the ends that leave the tuple
// (`constant`), plus `bust` times the next seat's values at the same scores.
// A game may keep more numbers per seat than chances (K lanes: 10,000's
// ties); closing the cycle treats every lane alike.
template <std::size_t K>
struct TurnLottery {
  std::array<double, K> constant{};
  double bust = 0;
  // What seat `seat` gets from it when the next seat's start is worth x to it.
  double own(int seat, double x) const { return constant[std::size_t(seat)] + bust * x; }
};

// [mover][seat]: each seat's chance (lane) when `mover` starts a turn at the tuple.
template <std::size_t N, std::size_t K = N>
using CycleValues = std::array<std::array<double, K>, N>;

// Solves v_m = c_m + b_m v_(m+1) around the cycle of `seats` turns (the
// product of the busts is below 1: every turn can leave the tuple).
template <std::size_t N, std::size_t K>
CycleValues<N, K> close_turn_cycle(const std::array<TurnLottery<K>, N>& turns, int seats) {
  std::array<double, K> first{};
  double carry = 1;  // the product of the busts so far
  for (int m = 0; m < seats; ++m) {
    for (std::size_t k = 0; k < K; ++k) first[k] += turns[std::size_t(m)].constant[k] * carry;
    carry *= turns[std::size_t(m)].bust;
  }
  for (double& v : first) v /= 1 - carry;
  CycleValues<N, K> value{};
  value[0] = first;
  for (int m = seats - 1; m > 0; --m) {
    const TurnLottery<K>& turn = turns[std::size_t(m)];
    const std::array<double, K>& next = value[std::size_t((m + 1) % seats)];
    for (std::size_t k = 0; k < K; ++k) value[std::size_t(m)][k] = turn.constant[k] + turn.bust * next[k];
  }
  return value;
}

// What busting is worth to `seat`: its value when the next seat starts.
template <std::size_t N>
double bust_worth(const CycleValues<N>& values, int seat, int seats) {
  return values[std::size_t((seat + 1) % seats)][std::size_t(seat)];
}

// A seat's best turns as x grows over [from, to] (all of [0, 1], or a
// window where following the whole path would cost too much): nodes[0] is
// best from `from`, and nodes[k + 1] takes over from nodes[k] at
// thresholds[k] (nondecreasing; at it both are best). The game keeps what
// each node decides. A seat whose play is fixed has one node.
template <std::size_t N>
struct TurnPath {
  std::vector<TurnLottery<N>> nodes;
  std::vector<double> thresholds;
  double from = 0, to = 1;
};

// A seat's play on its path: nodes[node], and with chance toward_next
// nodes[node + 1] instead (0: pure).
struct CyclePlay {
  int node = 0;
  double toward_next = 0;
};

// The lottery a play gives: their lotteries mixed linearly, as a game gets
// by drawing the whole turn at its start, or by randomising the one
// decision in which two nodes differ where it is met at most once a turn.
template <std::size_t N>
TurnLottery<N> played(const TurnPath<N>& path, CyclePlay play) {
  const TurnLottery<N>& from = path.nodes[std::size_t(play.node)];
  if (play.toward_next == 0) return from;
  const TurnLottery<N>& to = path.nodes[std::size_t(play.node) + 1];
  TurnLottery<N> mixed;
  const double w = play.toward_next;
  for (std::size_t k = 0; k < N; ++k) mixed.constant[k] = from.constant[k] + w * (to.constant[k] - from.constant[k]);
  mixed.bust = from.bust + w * (to.bust - from.bust);
  return mixed;
}

template <std::size_t N>
struct CycleEquilibrium {
  std::array<CyclePlay, N> plays{};
  CycleValues<N> values{};
  double gain = 0;  // the most any seat gains at the tuple by another turn
};

// The most a seat gains, at these plays' values, by switching alone to
// another turn on its path (its best turn at any x the path covers is on
// it; outside, the gain is not known: infinite).
template <std::size_t N>
double most_cycle_gain(const std::array<TurnPath<N>, N>& paths, const std::array<CyclePlay, N>& plays,
                       const CycleValues<N>& values, int seats) {
  double most = 0;
  for (int m = 0; m < seats; ++m) {
    const double x = bust_worth(values, m, seats);
    if (!(x >= paths[std::size_t(m)].from && x <= paths[std::size_t(m)].to))
      return std::numeric_limits<double>::infinity();
    const double own = played(paths[std::size_t(m)], plays[std::size_t(m)]).own(m, x);
    for (const TurnLottery<N>& node : paths[std::size_t(m)].nodes) most = std::max(most, node.own(m, x) - own);
  }
  return most;
}

// Rounds of best replies at one tuple, by a hash of each round's
// decisions: a round whose decisions are those of a round 2 to kRecall
// before has returned (the round just before, equal, is a settled one, not
// asked). A collision only ends the rounds early: what follows is checked.
class RoundHistory {
 public:
  static constexpr int kRecall = 8;
  // FNV-1a, to be fed a round's decisions.
  static constexpr std::uint64_t kEmpty = 14695981039346656037ull;
  static std::uint64_t hash(std::uint64_t hash, const std::uint8_t* bytes, std::size_t size) {
    for (std::size_t i = 0; i < size; ++i) hash = (hash ^ bytes[i]) * 1099511628211ull;
    return hash;
  }
  bool returned(std::uint64_t decisions) {
    const bool seen = std::find(hashes_.begin(), hashes_.begin() + std::min(kept_, kRecall), decisions) !=
                      hashes_.begin() + std::min(kept_, kRecall);
    hashes_[std::size_t(kept_++ % kRecall)] = decisions;
    return seen;
  }

 private:
  std::array<std::uint64_t, kRecall> hashes_{};
  int kept_ = 0;
};

// The rounds of best replies at one tuple, up to `most_rounds`: once a
// round's decisions return to an earlier round's, kWatchedRounds more
// record where each seat's bust value goes (where its best replies cycle),
// for settle_cycle, and end the rounds.
template <std::size_t N>
class CycleWatch {
 public:
  static constexpr int kWatchedRounds = 16;
  explicit CycleWatch(int most_rounds) : most_(most_rounds), last_(most_rounds) { watched_.fill({2.0, -1.0}); }
  // Whether round `round` is to be played.
  bool plays(int round) const { return round < last_; }
  // Seat m's bust value x in round `round`, before its turn is solved.
  void see(int round, int m, double x) {
    if (round < last_ - kWatchedRounds) return;
    watched_[std::size_t(m)] = {std::min(watched_[std::size_t(m)].first, x),
                                std::max(watched_[std::size_t(m)].second, x)};
  }
  // After a round that did not settle: `decisions_hash()` is asked for its
  // decisions' hash (RoundHistory::hash) until a return is seen.
  template <class Hash>
  void unsettled(int round, Hash&& decisions_hash) {
    if (last_ == most_ && history_.returned(decisions_hash())) last_ = std::min(most_, round + 1 + kWatchedRounds);
  }
  // Each seat's (lowest, highest) bust value over the watched rounds.
  const std::array<std::pair<double, double>, N>& watched() const { return watched_; }

 private:
  int most_, last_;
  RoundHistory history_;
  std::array<std::pair<double, double>, N> watched_;
};

namespace cycle_detail {

// Gaussian elimination with partial pivoting on a system of at most N
// unknowns; false when singular.
template <std::size_t N>
bool solve_linear(std::array<std::array<double, N>, N> a, std::array<double, N> b, int n, std::array<double, N>& x) {
  for (int col = 0; col < n; ++col) {
    int pivot = col;
    for (int r = col + 1; r < n; ++r)
      if (std::abs(a[r][col]) > std::abs(a[pivot][col])) pivot = r;
    if (!(std::abs(a[pivot][col]) > 0)) return false;
    std::swap(a[col], a[pivot]);
    std::swap(b[col], b[pivot]);
    for (int r = col + 1; r < n; ++r) {
      const double factor = a[r][col] / a[col][col];
      for (int k = col; k < n; ++k) a[r][k] -= factor * a[col][k];
      b[r] -= factor * b[col];
    }
  }
  for (int r = n; r-- > 0;) {
    double v = b[r];
    for (int k = r + 1; k < n; ++k) v -= a[r][k] * x[k];
    x[r] = v / a[r][r];
  }
  return true;
}

// The seats that randomise in one candidate support, and where.
template <std::size_t N>
struct Support {
  std::array<CyclePlay, N> plays{};
  std::array<int, N> mixing{};  // the seats whose toward_next is unknown
  int count = 0;
};

// Newton's method on x_m(toward_next) = threshold_m for the mixing seats,
// from one start; true with `plays` set where it converges inside [0, 1].
template <std::size_t N>
bool settle_mixes(const std::array<TurnPath<N>, N>& paths, int seats, Support<N>& support,
                  const std::array<double, N>& start) {
  const int n = support.count;
  std::array<double, N> w = start;
  const auto residual = [&](const std::array<double, N>& at) {
    std::array<CyclePlay, N> plays = support.plays;
    std::array<TurnLottery<N>, N> turns{};
    for (int j = 0; j < n; ++j) plays[std::size_t(support.mixing[j])].toward_next = at[j];
    for (int m = 0; m < seats; ++m) turns[std::size_t(m)] = played(paths[std::size_t(m)], plays[std::size_t(m)]);
    const CycleValues<N> values = close_turn_cycle(turns, seats);
    std::array<double, N> r{};
    for (int j = 0; j < n; ++j) {
      const int m = support.mixing[j];
      r[j] = bust_worth(values, m, seats) - paths[std::size_t(m)].thresholds[std::size_t(plays[std::size_t(m)].node)];
    }
    return r;
  };
  constexpr int kMostSteps = 60;
  constexpr double kStep = 1e-7;
  for (int step = 0; step < kMostSteps; ++step) {
    const std::array<double, N> r = residual(w);
    double size = 0;
    for (int j = 0; j < n; ++j) size = std::max(size, std::abs(r[j]));
    if (size <= 1e-16) break;
    std::array<std::array<double, N>, N> jacobian{};
    for (int k = 0; k < n; ++k) {
      std::array<double, N> moved = w;
      moved[k] += kStep;
      const std::array<double, N> rk = residual(moved);
      for (int j = 0; j < n; ++j) jacobian[j][k] = (rk[j] - r[j]) / kStep;
    }
    std::array<double, N> delta{};
    std::array<double, N> minus{};
    for (int j = 0; j < n; ++j) minus[j] = -r[j];
    if (!solve_linear(jacobian, minus, n, delta)) return false;
    double moved = 0;
    for (int k = 0; k < n; ++k) {
      w[k] = std::clamp(w[k] + delta[k], -0.5, 1.5);  // far outside [0, 1] is no mix
      moved = std::max(moved, std::abs(delta[k]));
    }
    if (moved <= 1e-15) break;
  }
  for (int j = 0; j < n; ++j) {
    if (!(w[j] >= -1e-9 && w[j] <= 1 + 1e-9)) return false;
    support.plays[std::size_t(support.mixing[j])].toward_next = std::clamp(w[j], 0.0, 1.0);
  }
  return true;
}

}  // namespace cycle_detail

// The most supports (a pure node or a mixed pair per seat) one search tries.
constexpr std::uint64_t kMostSupports = 1 << 16;

// A profile of plays at which no seat gains more than `most_gain` by
// another turn: each seat pure at a node, or mixing between two neighbours
// at their threshold. Seat m's play is searched among nodes boxes[m].first
// .. boxes[m].second (where its best replies went while they cycled; a box
// is clamped to the path). Supports with fewer mixing seats are tried
// first, each count in the same order (seat 0's option turning fastest).
// nullopt where none in the boxes is one, or where kMostSupports were
// tried without one: the caller then counts the tuple as not settled, and
// says so. (What costs is the supports tried, not the boxes' size: at four
// Pig seats the boxes hold 10^5 supports where a pure one is found among
// the first thousands.)
template <std::size_t N>
std::optional<CycleEquilibrium<N>> find_cycle_equilibrium(const std::array<TurnPath<N>, N>& paths, int seats,
                                                          const std::array<std::pair<int, int>, N>& boxes,
                                                          double most_gain) {
  using cycle_detail::Support;
  // Each seat's options: 2 * node (pure) or 2 * node + 1 (toward node + 1).
  std::array<std::vector<int>, N> options;
  for (int m = 0; m < seats; ++m) {
    const int nodes = int(paths[std::size_t(m)].nodes.size());
    const int low = std::clamp(boxes[std::size_t(m)].first, 0, nodes - 1);
    const int high = std::clamp(boxes[std::size_t(m)].second, low, nodes - 1);
    for (int node = low; node <= high; ++node) {
      options[std::size_t(m)].push_back(2 * node);
      if (node < high) options[std::size_t(m)].push_back(2 * node + 1);
    }
  }
  std::optional<CycleEquilibrium<N>> found;
  std::uint64_t tried = 0;
  // Whether the support is an equilibrium, its mixes settled by Newton's
  // method from a few starts: the middle, then the corners' insides.
  const auto try_support = [&](const Support<N>& support) {
    const int mixing = support.count;
    const std::array<double, 3> starts = {0.5, 0.1, 0.9};
    const int tries = mixing == 0 ? 1 : (mixing == 1 ? 3 : 1 + (1 << mixing));
    for (int t = 0; t < tries; ++t) {
      std::array<double, N> start{};
      for (int j = 0; j < mixing; ++j) start[std::size_t(j)] = t == 0 ? starts[0] : starts[1 + ((t - 1) >> j & 1)];
      Support<N> at = support;
      if (mixing > 0 && !cycle_detail::settle_mixes(paths, seats, at, start)) continue;
      std::array<TurnLottery<N>, N> turns{};
      for (int m = 0; m < seats; ++m) turns[std::size_t(m)] = played(paths[std::size_t(m)], at.plays[std::size_t(m)]);
      CycleEquilibrium<N> candidate{at.plays, close_turn_cycle(turns, seats), 0};
      candidate.gain = most_cycle_gain(paths, candidate.plays, candidate.values, seats);
      if (candidate.gain <= most_gain) {
        found = candidate;
        return true;
      }
    }
    return false;
  };
  // The supports with exactly `mixing` mixing seats, the last seat's option
  // chosen first (it turns slowest); false once the search is to stop.
  std::array<int, N> pick{};
  const auto each_support = [&](const auto& self, int m, int mixing) -> bool {
    if (m < 0) {
      if (++tried > kMostSupports) return false;
      Support<N> support;
      for (int k = 0; k < seats; ++k) {
        support.plays[std::size_t(k)].node = pick[std::size_t(k)] / 2;
        if (pick[std::size_t(k)] % 2) support.mixing[std::size_t(support.count++)] = k;
      }
      return !try_support(support);
    }
    for (int option : options[std::size_t(m)]) {
      const int left = mixing - option % 2;  // mixing seats still to place among seats 0..m - 1
      if (left < 0 || left > m) continue;
      pick[std::size_t(m)] = option;
      if (!self(self, m - 1, left)) return false;
    }
    return true;
  };
  for (int mixing = 0; mixing <= seats; ++mixing)
    if (!each_support(each_support, seats - 1, mixing)) break;
  return found;
}

// The most a seat may gain at a tuple by another turn for a profile to be
// taken as the tuple's equilibrium (rounding).
constexpr double kMostCycleGain = 1e-14;

// Where rounds of best replies cycled, each seat's bust value staying
// within watched[m] (lowest, highest) once they did: the equilibrium
// searched first among the nodes best over those values, then over the
// whole paths; nullopt where neither holds one.
template <std::size_t N>
std::optional<CycleEquilibrium<N>> settle_cycle(const std::array<TurnPath<N>, N>& paths, int seats,
                                                const std::array<std::pair<double, double>, N>& watched) {
  std::array<std::pair<int, int>, N> watched_nodes{}, every_node{};
  for (int m = 0; m < seats; ++m) {
    const std::vector<double>& at = paths[std::size_t(m)].thresholds;
    const auto [lowest, highest] = watched[std::size_t(m)];
    watched_nodes[std::size_t(m)] = {int(std::lower_bound(at.begin(), at.end(), lowest) - at.begin()),
                                     int(std::upper_bound(at.begin(), at.end(), highest) - at.begin())};
    every_node[std::size_t(m)] = {0, int(at.size())};
  }
  if (auto found = find_cycle_equilibrium(paths, seats, watched_nodes, kMostCycleGain)) return found;
  return find_cycle_equilibrium(paths, seats, every_node, kMostCycleGain);
}

}  // namespace dicesim
