// The score tuples of a table solver (Pig's and 10,000's win-optimal
// tables): every seat's score 0..values-1 in one number, seat 0's the
// lowest digit, and the order in which they are solved.
#pragma once

#include <cstddef>
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

// Every tuple, those of higher score sums first (a bank only raises the
// sum, so a tuple's turns read tuples solved before it).
inline std::vector<std::size_t> tuples_from_high_sums(int seats, int values) {
  const std::vector<std::vector<std::size_t>> by_sum = tuples_by_sum(seats, values);
  std::vector<std::size_t> order;
  for (std::size_t sum = by_sum.size(); sum-- > 0;) order.insert(order.end(), by_sum[sum].begin(), by_sum[sum].end());
  return order;
}

}  // namespace dicesim
