// Pcg64 (engine/pcg64.h), the generator written out for host and device, is
// pcg-cpp's pcg64 bit for bit: outputs, equality and distance.
#include "engine/pcg64.h"

#include <gtest/gtest.h>

#include <pcg_random.hpp>

#include "engine/rng.h"

namespace dicesim {
namespace {

using uint128 = Pcg64::uint128;

uint128 wide(std::uint64_t high, std::uint64_t low) { return (uint128(high) << 64) | low; }

// Seeds and streams that reach every bit of the 128-bit words.
std::vector<std::pair<uint128, uint128>> seeds_and_streams() {
  std::vector<std::pair<uint128, uint128>> all = {
      {0, 0}, {1, 0}, {0, 1}, {~uint128(0), ~uint128(0)}, {wide(1, 0), wide(0x8000000000000000ULL, 7)}};
  std::uint64_t z = 11;
  for (int i = 0; i < 20; ++i) {
    const std::uint64_t a = mix64(z++), b = mix64(z++), c = mix64(z++), d = mix64(z++);
    all.push_back({wide(a, b), wide(c, d)});
  }
  return all;
}

TEST(Pcg64, DrawsAsPcgCppOnEveryStream) {
  for (const auto& [seed, stream] : seeds_and_streams()) {
    Pcg64 ours(seed, stream);
    pcg64 theirs(seed, stream);
    for (int draw = 0; draw < 1000; ++draw) ASSERT_EQ(ours(), theirs()) << "draw " << draw;
  }
}

TEST(Pcg64, DrawsAsPcgCppOnTheDefaultStream) {
  for (const auto& [seed, stream] : seeds_and_streams()) {
    Pcg64 ours(seed);
    pcg64 theirs(seed);
    for (int draw = 0; draw < 100; ++draw) ASSERT_EQ(ours(), theirs()) << "draw " << draw;
  }
  Pcg64 ours;
  pcg64 theirs;
  for (int draw = 0; draw < 100; ++draw) ASSERT_EQ(ours(), theirs());
}

TEST(Pcg64, DistanceIsTheNumberOfDraws) {
  for (const auto& [seed, stream] : seeds_and_streams()) {
    const Pcg64 start(seed, stream);
    Pcg64 ours = start;
    pcg64 theirs(seed, stream);
    const pcg64 their_start = theirs;
    const int draws = static_cast<int>(seed % 3000);
    for (int draw = 0; draw < draws; ++draw) ours(), theirs();
    EXPECT_EQ(ours - start, uint128(draws));
    EXPECT_EQ(ours - start, theirs - their_start);
    EXPECT_EQ(start - start, uint128(0));
  }
}

TEST(Pcg64, EqualOnlyInStateAndStream) {
  const Pcg64 a(5, 6), b(5, 6), other_stream(5, 7), other_seed(4, 6);
  EXPECT_TRUE(a == b);
  EXPECT_FALSE(a == other_stream);
  EXPECT_FALSE(a == other_seed);
  Pcg64 moved = a;
  moved();
  EXPECT_FALSE(a == moved);
}

// The streams of blocks (rng.h) are pcg-cpp's pcg64 built from the same
// state and stream: results from before Pcg64 are reproduced.
TEST(Pcg64, BlockStreamsAsPcgCpp) {
  const std::uint64_t table_id = stable_hash("sequential[\"a\",\"b\"]");
  for (std::uint64_t block = 0; block < 50; ++block) {
    Rng ours = block_rng(3, table_id, block);
    const std::uint64_t high = mix64(mix64(mix64(3) ^ table_id) ^ block);
    const std::uint64_t low = mix64(high ^ 0x6a09e667f3bcc909ULL);
    pcg64 theirs(wide(high, low), wide(table_id & 0x7fffffffffffffffULL, block));
    for (int draw = 0; draw < 100; ++draw) ASSERT_EQ(ours(), theirs());
  }
}

}  // namespace
}  // namespace dicesim
