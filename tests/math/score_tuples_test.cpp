// The layers of score tuples (math/score_tuples.h): every tuple of a sum is
// numbered once, in order, and the numbering goes both ways.
#include "math/score_tuples.h"

#include <gtest/gtest.h>

#include <vector>

namespace dicesim {
namespace {

TEST(TupleLayers, EveryTupleOfASumIsNumberedOnceAndBack) {
  for (const auto& [seats, values] : {std::pair{2, 7}, std::pair{3, 5}, std::pair{4, 6}}) {
    const TupleLayers layers(seats, values);
    const std::vector<std::vector<std::size_t>> by_sum = tuples_by_sum(seats, values);
    ASSERT_EQ(layers.sums(), int(by_sum.size()));
    for (int sum = 0; sum < layers.sums(); ++sum) {
      ASSERT_EQ(layers.size(sum), by_sum[std::size_t(sum)].size()) << seats << " seats, sum " << sum;
      std::vector<bool> seen(by_sum[std::size_t(sum)].size(), false);
      for (std::size_t tuple : by_sum[std::size_t(sum)]) {
        int scores[8] = {}, back[8] = {};
        decode_tuple(tuple, seats, values, scores);
        const std::uint64_t rank = layers.rank(scores, sum);
        ASSERT_LT(rank, seen.size());
        EXPECT_FALSE(seen[rank]) << "rank " << rank << " twice";
        seen[rank] = true;
        layers.unrank(sum, rank, back);
        EXPECT_EQ(encode_tuple(back, seats, values), tuple) << "rank " << rank;
      }
    }
  }
}

}  // namespace
}  // namespace dicesim
