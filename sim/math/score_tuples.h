// The score tuples of a table solver (Pig's and 10,000's win-optimal
// tables): every seat's score 0..values-1 in one number, seat 0's the
// lowest digit, and the order in which they are solved.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace dicesim {

inline std::size_t encode_tuple(const int* scores, int seats, int values) {
  std::size_t tuple = 0;
  for (int k = seats; k-- > 0;) tuple = tuple * std::size_t(values) + std::size_t(scores[k]);
  return tuple;
}

inline void decode_tuple(std::size_t tuple, int seats, int values, int* scores) {
  for (int k = 0; k < seats; ++k, tuple /= std::size_t(values))
    scores[k] = static_cast<int>(tuple % std::size_t(values));
}

// Every tuple by its score sum: [sum] the tuples of that sum, in tuple order.
// Those of one sum may be solved together: a bank only raises the sum.
inline std::vector<std::vector<std::size_t>> tuples_by_sum(int seats, int values) {
  std::size_t tuples = 1;
  for (int k = 0; k < seats; ++k) tuples *= std::size_t(values);
  std::vector<std::vector<std::size_t>> by_sum(std::size_t(seats * (values - 1) + 1));
  std::vector<int> scores(std::size_t(seats), 0);
  for (std::size_t t = 0; t < tuples; ++t) {
    decode_tuple(t, seats, values, scores.data());
    int sum = 0;
    for (int s : scores) sum += s;
    by_sum[std::size_t(sum)].push_back(t);
  }
  return by_sum;
}

// The tuples of one score sum (a layer) numbered 0..size(sum)-1, so that a
// solver can hold its values layer by layer and drop the layers it no longer
// reads. Within a layer the tuples run in the order of their highest seat's
// score, then the next (seat 0's follows from the sum).
class TupleLayers {
 public:
  TupleLayers(int seats, int values) : seats_(seats), values_(values), top_(seats * (values - 1)) {
    // ways_[k][r]: the tuples of k seats summing to r; below_[k][r]: those summing below r.
    ways_.assign(std::size_t(seats + 1), std::vector<std::uint64_t>(std::size_t(top_ + 1), 0));
    ways_[0][0] = 1;
    for (int k = 1; k <= seats; ++k)
      for (int r = 0; r <= top_; ++r)
        for (int v = 0; v < values && v <= r; ++v) ways_[k][r] += ways_[k - 1][r - v];
    below_.assign(std::size_t(seats + 1) * std::size_t(top_ + 2), 0);
    for (int k = 0; k <= seats; ++k)
      for (int r = 0; r <= top_; ++r) below(k, r + 1) = below(k, r) + ways_[k][r];
  }

  int sums() const { return top_ + 1; }
  std::uint64_t size(int sum) const { return ways_[std::size_t(seats_)][std::size_t(sum)]; }
  static int sum(const int* scores, int seats) {
    int total = 0;
    for (int k = 0; k < seats; ++k) total += scores[k];
    return total;
  }
  // The number of `scores` within its layer `sum`.
  std::uint64_t rank(const int* scores, int sum) const {
    std::uint64_t rank = 0;
    int rest = sum;
    for (int k = seats_ - 1; k > 0; --k) {
      // Tuples with a lower score here: the k seats below sum to rest - v,
      // v < scores[k], from rest - scores[k] + 1 (at least 1) to rest.
      rank += below(k, rest + 1) - below(k, rest - scores[k] + 1);
      rest -= scores[k];
    }
    return rank;
  }
  // The tuple numbered `rank` in layer `sum`.
  void unrank(int sum, std::uint64_t rank, int* scores) const {
    int rest = sum;
    for (int k = seats_ - 1; k > 0; --k) {
      int v = 0;
      for (;; ++v) {
        const std::uint64_t with = rest - v >= 0 ? ways_[std::size_t(k)][std::size_t(std::min(rest - v, top_))] : 0;
        if (rank < with) break;
        rank -= with;
      }
      scores[k] = v;
      rest -= v;
    }
    scores[0] = rest;
  }

 private:
  // The tuples of k seats summing below r (0 <= r <= top + 1).
  std::uint64_t& below(int k, int r) { return below_[std::size_t(k) * std::size_t(top_ + 2) + std::size_t(r)]; }
  std::uint64_t below(int k, int r) const { return below_[std::size_t(k) * std::size_t(top_ + 2) + std::size_t(r)]; }

  int seats_, values_, top_;
  std::vector<std::vector<std::uint64_t>> ways_;
  std::vector<std::uint64_t> below_;  // [k * (top + 2) + r]
};

}  // namespace dicesim
