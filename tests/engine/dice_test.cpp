#include "engine/dice.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <map>
#include <numeric>
#include <utility>

#include "math/stats.h"

namespace dicesim {
namespace {

std::uint64_t binomial(int n, int k) {
  std::uint64_t r = 1;
  for (int i = 1; i <= k; ++i) r = r * (n - k + i) / i;
  return r;
}

TEST(RollOutcomes, EnumeratesEveryMultisetOnceWithItsOrderedOutcomes) {
  for (int n = 0; n <= 8; ++n) {
    const RollOutcomes table(n);
    EXPECT_EQ(table.size(), binomial(n + kFaces - 1, kFaces - 1)) << n << " dice";
    std::uint64_t ways = 0;
    for (std::size_t i = 0; i < table.size(); ++i) {
      int dice = 0;
      for (int c : table[i].count) dice += c;
      EXPECT_EQ(dice, n);
      ways += table[i].ways;
    }
    EXPECT_EQ(ways, table.outcomes()) << n << " dice";
  }
}

TEST(RollOutcomes, WaysOfSmallHandsMatchHandCounts) {
  const RollOutcomes two(2);
  for (std::size_t i = 0; i < two.size(); ++i) {
    const bool pair = *std::max_element(two[i].count.begin(), two[i].count.end()) == 2;
    EXPECT_EQ(two[i].ways, pair ? 1u : 2u);  // a double one way, a mixed pair two ways
  }
}

// The alias table must give each multiset exactly ways / 6^n: rebuild the
// mass of every multiset from the columns, in integers.
TEST(RollOutcomes, AliasTableIsExact) {
  for (int n : {1, 2, 3, 6, 9, 12}) {
    const RollOutcomes table(n);
    const RollOutcomes::Sampler s = table.sampler();
    std::vector<std::uint64_t> mass(table.size(), 0);
    for (std::uint32_t column = 0; column < s.columns; ++column) {
      const std::uint64_t threshold = s.alias[column] & 0xffffffffu;
      mass[column] += threshold;
      mass[s.alias[column] >> 32] += s.level_range - threshold;
    }
    for (std::size_t i = 0; i < table.size(); ++i)
      EXPECT_EQ(mass[i], std::uint64_t(s.columns) * table[i].ways) << n << " dice, multiset " << i;
  }
}

// A payload table must give each payload exactly its weight's share: rebuild
// every payload's mass from the columns (padding included), in integers.
TEST(PayloadTable, EveryPayloadGetsExactlyItsWeight) {
  const std::vector<std::vector<std::uint64_t>> cases = {
      {1}, {5, 3}, {1, 1, 1}, {7, 0, 2, 9, 4}, {46656}, {1, 2, 3, 4, 5, 6, 7, 8, 9}, {4000000000u, 1, 294967294}};
  for (const std::vector<std::uint64_t>& weights : cases) {
    std::vector<std::uint32_t> payloads;
    for (std::size_t i = 0; i < weights.size(); ++i) payloads.push_back(static_cast<std::uint32_t>(100 + i));
    std::vector<PayloadColumn> columns(3);  // tables share the vector: start after others
    const PayloadTable table = append_payload_table(weights, payloads, columns);
    const std::uint64_t width = std::uint64_t(table.column_mask) + 1;
    ASSERT_EQ(width & (width - 1), 0u) << "a power of two";
    ASSERT_GE(width, weights.size());
    ASSERT_EQ(columns.size(), 3 + width);
    std::map<std::uint32_t, std::uint64_t> mass;
    for (std::uint64_t c = 0; c < width; ++c) {
      const PayloadColumn& column = columns[table.offset + c];
      ASSERT_LE(column.threshold, table.level_range);
      mass[column.payload[0]] += column.threshold;
      mass[column.payload[1]] += table.level_range - column.threshold;
    }
    for (std::size_t i = 0; i < weights.size(); ++i) EXPECT_EQ(mass[payloads[i]], width * weights[i]) << i;
    EXPECT_EQ(table.level_range, std::accumulate(weights.begin(), weights.end(), std::uint64_t(0)));
  }
  std::vector<PayloadColumn> columns;
  EXPECT_THROW(append_payload_table({1ull << 32}, {1}, columns), std::invalid_argument);
  EXPECT_THROW(append_payload_table({0, 0}, {1, 2}, columns), std::invalid_argument);
}

// The same for wide tables (a whole 10,000 turn: weights out of 6^20),
// in 128-bit integers.
TEST(WidePayloadTable, EveryPayloadGetsExactlyItsWeight) {
  constexpr std::uint64_t k6to20 = 3656158440062976ull;
  const std::vector<std::vector<std::uint64_t>> cases = {
      {1}, {5, 3}, {k6to20 - 7, 3, 4}, {1ull << 51, 1ull << 50, 5, 0, 9}, {(1ull << 62) - 1, 1}};
  for (const std::vector<std::uint64_t>& weights : cases) {
    std::vector<std::uint32_t> payloads;
    for (std::size_t i = 0; i < weights.size(); ++i) payloads.push_back(static_cast<std::uint32_t>(100 + i));
    WideColumns columns(2);
    const WidePayloadTable table = append_payload_table(weights, payloads, columns);
    const std::uint64_t width = std::uint64_t(1) << table.column_bits;
    ASSERT_GE(width, weights.size());
    ASSERT_EQ(columns.size(), 2 + width);
    const std::uint64_t level_range = table.range >> table.column_bits;
    EXPECT_EQ(level_range << table.column_bits, table.range);
    std::map<std::uint32_t, unsigned __int128> mass;
    for (std::uint64_t c = 0; c < width; ++c) {
      const WidePayloadColumn& column = columns[table.offset + c];
      ASSERT_LE(column.threshold, level_range);
      mass[column.payload[0]] += column.threshold;
      mass[column.payload[1]] += level_range - column.threshold;
    }
    for (std::size_t i = 0; i < weights.size(); ++i)
      EXPECT_TRUE(mass[payloads[i]] == static_cast<unsigned __int128>(width) * weights[i]) << i;
    EXPECT_EQ(level_range, std::accumulate(weights.begin(), weights.end(), std::uint64_t(0)));
  }
  WideColumns columns;
  EXPECT_THROW(append_payload_table({1ull << 63, 1, 1}, {1, 2, 3}, columns), std::invalid_argument);  // x 4 columns
  EXPECT_THROW(append_payload_table({1ull << 63, 1ull << 63}, {1, 2}, columns), std::invalid_argument);
}

// Every code's weight, read back from a CodeTables table's words: a
// column's own code c up to its threshold, its alias's above.
std::vector<unsigned __int128> code_mass(const CodeTables& codes, std::uint32_t table, std::uint64_t levels) {
  const std::uint32_t bits = codes.code_bits();
  const std::uint64_t mask = (std::uint64_t(1) << bits) - 1;
  std::vector<unsigned __int128> mass(std::size_t(1) << bits, 0);
  const CodeTables::Drawer drawer = codes.drawer();
  for (std::uint64_t c = 0; c <= mask; ++c) {
    const std::uint64_t word = drawer.words[(std::size_t(table) << bits) | c];
    const std::uint64_t threshold = word >> bits;
    EXPECT_LE(threshold, levels);
    mass[c] += threshold;
    mass[word & mask] += levels - threshold;
  }
  return mass;
}

// A CodeTables table gives each code exactly its weight, and a draw's code
// is the column's own exactly where the level lies below its threshold:
// checked at the edges of every column's threshold, for tables of one code,
// a few, and as many as fit beside a sum just below 2^55 (21 fair dice).
TEST(CodeTables, EachCodeGetsItsWeightAndTheLevelPicksAtTheThreshold) {
  constexpr std::uint64_t k6to21 = 21936950640377856ull;
  for (const std::uint32_t bits : {0u, 1u, 5u, 9u}) {
    ASSERT_TRUE(CodeTables::fit(k6to21, bits));
    CodeTables codes(k6to21, bits);
    const std::size_t width = std::size_t(1) << bits;
    std::vector<std::vector<std::uint64_t>> tables = {{k6to21}};
    if (width > 1) tables.push_back({k6to21 - 7, 7});
    if (width > 2) {
      tables.push_back({k6to21 - 7, 0, 7});
      // Most of the weight on the highest code (a sampler's "decide"):
      // partial columns alias the code whose bits are all set.
      std::vector<std::uint64_t> heavy_last(width, 3);
      heavy_last.back() = k6to21 - 3 * (width - 1);
      tables.push_back(heavy_last);
      std::vector<std::uint64_t> spread(width, k6to21 / width);
      spread[1] = 0;
      spread[width / 2] += k6to21 - std::accumulate(spread.begin(), spread.end(), std::uint64_t(0));
      tables.push_back(spread);
    }
    for (const std::vector<std::uint64_t>& weights : tables) {
      const std::uint32_t t = codes.append(weights);
      const std::vector<unsigned __int128> mass = code_mass(codes, t, k6to21);
      for (std::size_t c = 0; c < width; ++c)
        EXPECT_TRUE(mass[c] == static_cast<unsigned __int128>(width) * (c < weights.size() ? weights[c] : 0))
            << "bits " << bits << " code " << c;
      // The level just below a column's threshold keeps its own code; at
      // the threshold, the alias's.
      const CodeTables::Drawer drawer = codes.drawer();
      const std::uint64_t mask = width - 1;
      for (std::uint64_t c = 0; c < width; ++c) {
        const std::uint64_t word = drawer.words[(std::size_t(t) << bits) | c], threshold = word >> bits;
        if (threshold > 0) {
          EXPECT_EQ(drawer.pick(t, (threshold - 1) << bits | c), c);
        }
        if (threshold < k6to21) {
          EXPECT_EQ(drawer.pick(t, threshold << bits | c), word & mask);
        }
      }
    }
    EXPECT_EQ(codes.tables(), tables.size());
  }
  EXPECT_FALSE(CodeTables::fit(k6to21, 10));  // 55 bits of threshold and 10 of code
  EXPECT_THROW(CodeTables(k6to21, 10), std::invalid_argument);
  CodeTables codes(100, 2);
  EXPECT_THROW(codes.append({50, 49}), std::invalid_argument);              // not summing to the levels
  EXPECT_THROW(codes.append({20, 20, 20, 20, 20}), std::invalid_argument);  // more weights than codes
}

// Draws follow the weights (chi-square against the exact probabilities).
TEST(CodeTables, DrawsFollowTheWeights) {
  constexpr std::uint64_t k6to21 = 21936950640377856ull;
  CodeTables codes(k6to21, 3);
  const std::vector<std::uint64_t> weights = {k6to21 / 2, k6to21 / 3, 0, k6to21 / 12, k6to21 / 12};
  codes.append({k6to21});
  const std::uint32_t t = codes.append(weights);
  Rng rng = block_rng(5, 2, 0);
  std::vector<std::int64_t> counts(8, 0);
  const CodeTables::Drawer drawer = codes.drawer();
  for (int i = 0; i < 200'000; ++i) ++counts[drawer.draw(t, rng)];
  std::vector<double> expected(8, 0.0);
  for (std::size_t c = 0; c < weights.size(); ++c) expected[c] = double(weights[c]) / double(k6to21);
  const stats::ChiSquare chi = stats::chi_square(counts, expected);
  EXPECT_LT(std::abs(stats::z_for_tail(chi.p_value)), 5);
  EXPECT_EQ(counts[2], 0);
  for (std::size_t c = weights.size(); c < 8; ++c) EXPECT_EQ(counts[c], 0);
}

// A CodeTables draw is uniform_below64 of the range (the same numbers, the
// stream moved as far), also where nearly half the draws are rejected (a
// range just above 2^63), and its code the column's own below the
// threshold, else its alias's.
TEST(CodeTables, DrawsAsUniformBelow64Does) {
  for (const auto& [levels, bits] : {std::pair{(1ull << 62) + 3, 1u}, std::pair{21936950640377856ull, 5u}}) {
    CodeTables codes(levels, bits);
    std::vector<std::uint64_t> weights(std::size_t(1) << bits, levels >> bits);
    weights[0] += levels - (levels >> bits << bits);
    weights[1] = 0, weights[0] += levels >> bits;
    const std::uint32_t t = codes.append(weights);
    const CodeTables::Drawer drawer = codes.drawer();
    EXPECT_EQ(codes.range(), levels << bits);
    Rng drawn = block_rng(5, 6, 8), reference = drawn;
    for (int i = 0; i < 100'000; ++i) {
      const std::uint64_t r = uniform_below64(reference, codes.range()), mask = (1ull << bits) - 1;
      const std::uint64_t word = drawer.words[(std::size_t(t) << bits) | (r & mask)];
      ASSERT_EQ(drawer.draw(t, drawn), (r >> bits) < (word >> bits) ? r & mask : word & mask) << "draw " << i;
    }
    EXPECT_TRUE(drawn == reference);
  }
}

// Blocks of 2 MiB or more are aligned for huge pages; smaller ones and
// growth across the threshold keep their contents.
TEST(WideColumns, LargeBlocksAreAlignedToHugePages) {
  std::vector<std::uint64_t, HugePageAllocator<std::uint64_t>> bits;
  for (std::uint64_t i = 0; i < (std::uint64_t(3) << 20) / 8; ++i) bits.push_back(i * 7);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(bits.data()) % HugePageAllocator<std::uint64_t>::kHugePage, 0u);
  for (std::uint64_t i = 0; i < bits.size(); i += 4099) ASSERT_EQ(bits[i], i * 7);
  const std::vector<std::uint64_t, HugePageAllocator<std::uint64_t>> small(10, 5);
  EXPECT_EQ(small[9], 5u);
}

TEST(WidePayloadTable, DrawsFollowTheWeights) {
  constexpr std::uint64_t k6to20 = 3656158440062976ull;
  const std::vector<std::uint64_t> weights = {k6to20 / 2, k6to20 / 3, k6to20 / 6 - 1000, 1000};
  WideColumns columns;
  const WidePayloadTable table = append_payload_table(weights, {0, 1, 2, 3}, columns);
  std::vector<std::int64_t> counts(weights.size(), 0);
  Rng rng = block_rng(7, 3, 0);
  for (int i = 0; i < 1'000'000; ++i) ++counts[draw_payload(columns.data(), table, rng)];
  std::vector<double> p;
  for (std::uint64_t w : weights) p.push_back(double(w) / double(k6to20));
  const stats::ChiSquare chi = stats::chi_square(counts, p);
  EXPECT_LT(std::abs(stats::z_for_tail(chi.p_value)), 5) << "chi2 " << chi.statistic << " dof " << chi.dof;
}

// Each table keeps Lemire's bound, worked out once: it draws the numbers
// uniform_below64 draws and moves the stream as far, also where a range
// just above 2^63 rejects half the draws (and uniform_below64 divides).
TEST(WidePayloadTable, DrawsAsUniformBelow64Does) {
  WideColumns columns;
  for (const std::vector<std::uint64_t>& weights :
       {std::vector<std::uint64_t>{(1ull << 62) - 5, 6}, {(1ull << 61) + 7, 1ull << 60, 3}, {1, 2, 3, 4, 5}}) {
    std::vector<std::uint32_t> payloads(weights.size());
    std::iota(payloads.begin(), payloads.end(), 0u);
    const WidePayloadTable table = append_payload_table(weights, payloads, columns);
    Rng drawn = block_rng(5, 6, 7), reference = drawn;
    for (int i = 0; i < 100'000; ++i) {
      const std::uint64_t r = uniform_below64(reference, table.range);
      const WidePayloadColumn& column = columns[table.offset + (r & ((1ull << table.column_bits) - 1))];
      ASSERT_EQ(draw_payload(columns.data(), table, drawn),
                column.payload[(r >> table.column_bits) >= column.threshold]);
    }
    EXPECT_TRUE(drawn == reference);
  }
}

TEST(PayloadTable, DrawsFollowTheWeights) {
  const std::vector<std::uint64_t> weights = {1, 6, 15, 20, 15, 6, 1};
  std::vector<PayloadColumn> columns;
  const PayloadTable table = append_payload_table(weights, {0, 1, 2, 3, 4, 5, 6}, columns);
  std::vector<std::int64_t> counts(weights.size(), 0);
  Rng rng = block_rng(7, 2, 0);
  for (int i = 0; i < 1'000'000; ++i) ++counts[draw_payload(columns.data(), table, rng)];
  std::vector<double> p;
  for (std::uint64_t w : weights) p.push_back(double(w) / 64);
  const stats::ChiSquare chi = stats::chi_square(counts, p);
  EXPECT_LT(std::abs(stats::z_for_tail(chi.p_value)), 5) << "chi2 " << chi.statistic << " dof " << chi.dof;
}

TEST(RollOutcomes, SampledFrequenciesFollowTheProbabilities) {
  const RollOutcomes table(4);
  std::vector<std::int64_t> counts(table.size(), 0);
  Rng rng = block_rng(7, 1, 0);
  const int draws = 2'000'000;
  for (int i = 0; i < draws; ++i) ++counts[table.sample(rng)];
  std::vector<double> p;
  for (std::size_t i = 0; i < table.size(); ++i) p.push_back(table.probability(i));
  const stats::ChiSquare chi = stats::chi_square(counts, p);
  EXPECT_LT(std::abs(stats::z_for_tail(chi.p_value)), 5) << "chi2 " << chi.statistic << " dof " << chi.dof;
}

TEST(Rng, StreamsDependOnSeedContestAndBlockOnly) {
  Rng a = block_rng(1, 2, 3), b = block_rng(1, 2, 3);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(a(), b());
  const std::uint64_t first = block_rng(1, 2, 3)();
  EXPECT_NE(first, block_rng(2, 2, 3)());
  EXPECT_NE(first, block_rng(1, 3, 3)());
  EXPECT_NE(first, block_rng(1, 2, 4)());
}

TEST(Rng, LemireRejectsExactlyTheBiasedProducts) {
  // With range r, exactly 2^32 mod r inputs must be rejected, so that every
  // output keeps floor(2^32 / r) preimages. A rejected input has a low product
  // below that count, so it sits at a wrap point ceil(k * 2^32 / r).
  for (std::uint32_t range : {6u, 462u, 46656u, 279936u}) {
    std::uint64_t rejected = 0;
    for (std::uint64_t k = 0; k < range; ++k) {
      const std::uint64_t wrap = ((k << 32) + range - 1) / range;
      for (std::uint64_t x = wrap; x < wrap + 3 && x <= UINT32_MAX; ++x) {
        std::uint32_t out;
        if (!lemire_below(static_cast<std::uint32_t>(x), range, out))
          ++rejected;
        else
          ASSERT_EQ(out, (x * range) >> 32);
      }
    }
    EXPECT_EQ(rejected, (std::uint64_t(1) << 32) % range) << "range " << range;
  }
}

// Dice drawn from two streams must look independent: a 6 x 6 contingency
// chi-square of paired dice, for every pairing of the 32-bit halves.
double dependence_z(Rng a, Rng b) {
  const int draws = 100000;
  std::vector<std::int64_t> cells(4 * 36, 0);
  for (int i = 0; i < draws; ++i) {
    const std::uint64_t x = a(), y = b();
    const std::uint32_t halves_x[] = {static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(x >> 32)};
    const std::uint32_t halves_y[] = {static_cast<std::uint32_t>(y), static_cast<std::uint32_t>(y >> 32)};
    for (int hx = 0; hx < 2; ++hx)
      for (int hy = 0; hy < 2; ++hy) {
        const std::uint64_t dx = (std::uint64_t(halves_x[hx]) * 6) >> 32, dy = (std::uint64_t(halves_y[hy]) * 6) >> 32;
        ++cells[(hx * 2 + hy) * 36 + dx * 6 + dy];
      }
  }
  double worst = 0;
  for (int pairing = 0; pairing < 4; ++pairing) {
    const std::vector<std::int64_t> table(cells.begin() + pairing * 36, cells.begin() + (pairing + 1) * 36);
    const stats::ChiSquare chi = stats::chi_square(table, std::vector<double>(36, 1.0 / 36));
    worst = std::max(worst, stats::z_for_tail(chi.p_value));
  }
  return worst;
}

TEST(Rng, RelatedSeedsAndNeighbouringStreamsAreIndependent) {
  EXPECT_LT(dependence_z(block_rng(0, 1, 0), block_rng(std::uint64_t(1) << 63, 1, 0)), 5);
  EXPECT_LT(dependence_z(block_rng(1ULL << 32, 1, 0), block_rng(1ULL << 33, 1, 0)), 5);
  EXPECT_LT(dependence_z(block_rng(1, stable_hash("a"), 0), block_rng(1, stable_hash("b"), 0)), 5);
  EXPECT_LT(dependence_z(block_rng(1, 7, 0), block_rng(1, 7, 1)), 5);
}

TEST(Rng, StableHashIsFnv1a) {
  EXPECT_EQ(stable_hash(""), 0xcbf29ce484222325ULL);   // the FNV offset basis
  EXPECT_EQ(stable_hash("a"), 0xaf63dc4c8601ec8cULL);  // published FNV-1a test vector
  EXPECT_NE(stable_hash("independent|a|b"), stable_hash("independent|b|a"));
}

}  // namespace
}  // namespace dicesim
