#include "math/stats.h"

#include <gtest/gtest.h>

#include <cmath>

#include "config/json_input.h"
#include "engine/rng.h"

namespace dicesim {
namespace {

TEST(Stats, ChiSquareTailWithTwoDegreesIsExponential) {
  for (double x : {0.1, 1.0, 5.0, 30.0, 200.0})
    EXPECT_NEAR(stats::chi_square_tail(x, 2), std::exp(-x / 2), 1e-12 * std::max(1.0, std::exp(-x / 2)) + 1e-300);
}

TEST(Stats, ChiSquareTailWithOneDegreeIsTheTwoSidedNormalTail) {
  for (double z : {0.5, 1.0, 2.0, 4.0, 6.0})
    EXPECT_NEAR(stats::chi_square_tail(z * z, 1), std::erfc(z / std::sqrt(2.0)), 1e-10);
}

TEST(Stats, ZForTailInvertsTheNormalTail) {
  EXPECT_NEAR(stats::z_for_tail(0.5), 0, 1e-9);
  for (double z : {-2.0, 1.0, 3.0, 7.0}) EXPECT_NEAR(stats::z_for_tail(0.5 * std::erfc(z / std::sqrt(2.0))), z, 1e-6);
}

TEST(Stats, RateAndMeanZ) {
  EXPECT_NEAR(stats::rate_z(600, 1000, 0.5), 0.1 / std::sqrt(0.25 / 1000), 1e-12);
  EXPECT_NEAR(stats::mean_z(10.1, 400, {10, 2}), 1.0, 1e-12);
  EXPECT_EQ(stats::rate_z(0, 100, 0.0), 0);
  EXPECT_TRUE(std::isinf(stats::rate_z(1, 100, 0.0)));
}

TEST(Stats, HistogramMoments) {
  const stats::Moments m = stats::histogram_moments({1, 0, 1}, 5);  // one 5 and one 7
  EXPECT_DOUBLE_EQ(m.mean, 6);
  EXPECT_DOUBLE_EQ(m.sd, std::sqrt(2.0));
}

// Two samples of one distribution pass; a die loaded by a quarter of a side
// over 20000 throws each does not.
TEST(Stats, ChiSquareOfTwoSamplesTellsDistributionsApart) {
  Rng rng = block_rng(3, 0, 0);
  const auto throws = [&](double six) {
    std::vector<std::int64_t> counts(6, 0);
    for (int i = 0; i < 20000; ++i) {
      const double u = double(rng() >> 11) / double(1ull << 53);
      ++counts[u < six ? 5 : static_cast<int>((u - six) / ((1 - six) / 5))];
    }
    return counts;
  };
  const stats::ChiSquare same = stats::chi_square_two_samples(throws(1.0 / 6), throws(1.0 / 6));
  EXPECT_EQ(same.dof, 5);
  EXPECT_LT(std::abs(stats::z_for_tail(same.p_value)), 5);
  EXPECT_GT(stats::z_for_tail(stats::chi_square_two_samples(throws(1.0 / 6), throws(1.25 / 6)).p_value), 5);
  // Sparse bins are pooled: six bins of which four are nearly empty.
  EXPECT_EQ(stats::chi_square_two_samples({100, 1, 2, 1, 100, 3}, {90, 2, 1, 0, 110, 1}).dof, 1);
}

TEST(Stats, ChiSquareSeesAnImpossibleScore) {
  EXPECT_EQ(stats::chi_square({5, 5, 1}, {0.5, 0.5, 0.0}).p_value, 0);
  EXPECT_GT(stats::chi_square({500, 510, 0}, {0.5, 0.5, 0.0}).p_value, 0.1);
}

TEST(ParseCount, AcceptsIntegersInAnyNotation) {
  EXPECT_EQ(parse_count("1e9"), 1'000'000'000u);
  EXPECT_EQ(parse_count("2.5e6"), 2'500'000u);
  EXPECT_EQ(parse_count("100000"), 100000u);
  EXPECT_EQ(parse_count("1E15"), 1'000'000'000'000'000u);
  EXPECT_EQ(parse_count("1.0"), 1u);
  EXPECT_FALSE(parse_count("1.5"));
  EXPECT_FALSE(parse_count("1e-3"));
  EXPECT_FALSE(parse_count("-5"));
  EXPECT_FALSE(parse_count("ten"));
  EXPECT_FALSE(parse_count("1e30"));
  EXPECT_EQ(parse_count("18446744073709551615"), UINT64_MAX);
  EXPECT_FALSE(parse_count("18446744073709551616"));
  EXPECT_FALSE(parse_count("99999999999999999999"));
  EXPECT_FALSE(parse_count(""));
}

}  // namespace
}  // namespace dicesim
