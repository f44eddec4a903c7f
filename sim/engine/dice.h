// The throw of n six-sided dice as a multiset: every multiset with its exact
// number of ordered outcomes, and exact sampling of one from a single 64-bit
// draw (alias method with integer weights, Lemire for both indices).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <vector>

#include "engine/device.h"
#include "engine/huge_pages.h"
#include "engine/rng.h"

namespace dicesim {

constexpr int kFaces = 6;
constexpr int kMaxDice = 12;  // 6^12 outcomes still fit the 32-bit sampler

struct DiceMultiset {
  std::array<std::uint8_t, kFaces> count{};  // count[f - 1]: dice showing face f
  std::uint64_t ways = 0;                    // ordered outcomes giving this multiset
};

// The die that a game's samplers throw, given to the game when it is loaded
// (GameEntry::load) and by the game to each sampler's constructor: `sides`
// equally likely sides, side s showing face face_of[s]. The fair die has 6.
// The loaded test die (`--test-biased-die`) has 7, two of them showing a 1
// (P(1) = 2/7), while the exact solvers stay fair, so that a test can show
// `dicesim check` catching a broken die in every game. Samplers bake the die
// into their tables when they are built, so the hot loops never ask which
// die it is.
struct Die {
  static constexpr int kMaxSides = 7;
  int sides = kFaces;
  std::array<std::uint8_t, kMaxSides> face_of{1, 2, 3, 4, 5, 6, 0};

  // The sides showing `face` (1..6).
  std::uint64_t weight(int face) const {
    std::uint64_t n = 0;
    for (int s = 0; s < sides; ++s) n += face_of[s] == face;
    return n;
  }
  // sides^dice: equally likely ordered outcomes of `dice` dice.
  std::uint64_t outcomes(int dice) const {
    std::uint64_t n = 1;
    for (int i = 0; i < dice; ++i) n *= sides;
    return n;
  }
};
constexpr int kLoadedSides = 7;
const Die& fair_die();
const Die& loaded_die();

// Vose's alias method in exact integers, for every sampler of dicesim.
// Column i keeps its own outcome when a level drawn uniformly in
// [0, capacity) is below `threshold`, else it gives outcome `alias`; with
// capacity the sum of the weights, outcome i comes out with probability
// weights[i] / capacity exactly.
struct AliasColumn {
  std::uint64_t threshold;
  std::uint32_t alias;
};
std::vector<AliasColumn> alias_columns(const std::vector<std::uint64_t>& weights, std::uint64_t capacity);

// The throws of `dice` dice: probability() on the fair die (the exact
// solvers'), sample() and sampling_weight() on the die the samplers throw.
class RollOutcomes {
 public:
  explicit RollOutcomes(int dice, const Die& sampling_die = fair_die());

  int dice() const { return dice_; }
  std::uint64_t outcomes() const { return outcomes_; }  // 6^dice
  std::size_t size() const { return multisets_.size(); }
  const DiceMultiset& operator[](std::size_t i) const { return multisets_[i]; }
  double probability(std::size_t i) const { return double(multisets_[i].ways) / double(outcomes_); }

  // Index of a multiset drawn with its exact probability ways / 6^dice.
  // Everything sampling needs, packed for the hot loop.
  struct Sampler {
    const std::uint64_t* alias;  // per column: threshold | alias index << 32
    std::uint32_t columns;
    std::uint32_t level_range;
    // Index of a multiset drawn with its exact probability ways / 6^dice:
    // one 64-bit draw gives a column and a level, two Lemire reductions
    // that run side by side.
    DICESIM_HD std::uint32_t sample(Rng& rng) const {
      std::uint32_t column, level;
      draw(rng, columns, level_range, column, level);
      const std::uint64_t entry = alias[column];
      // A coin flip for many columns: select without a branch to mispredict.
      const std::uint32_t use_alias = -static_cast<std::uint32_t>(level >= static_cast<std::uint32_t>(entry));
      return column ^ ((column ^ static_cast<std::uint32_t>(entry >> 32)) & use_alias);
    }
    // The column and the level of one draw, for samplers that keep their
    // own per-column payload (the multiset is the column's when the level
    // is below the column's threshold, else its alias).
    DICESIM_HD static void draw(Rng& rng, std::uint32_t columns, std::uint32_t level_range, std::uint32_t& column,
                                std::uint32_t& level) {
      for (;;) {
        const std::uint64_t bits = rng();
        if (!lemire_below(static_cast<std::uint32_t>(bits), columns, column)) continue;
        if (lemire_below(static_cast<std::uint32_t>(bits >> 32), level_range, level)) return;
      }
    }
  };
  Sampler sampler() const { return {alias_.data(), columns_, level_range_}; }
  std::uint32_t sample(Rng& rng) const { return sampler().sample(rng); }
  // Multiset i's weight on the sampling die (ways x its faces' sides per
  // die), out of sides^dice: what the samplers draw.
  std::uint64_t sampling_weight(std::size_t i) const { return sampling_weight_[i]; }

 private:
  int dice_;
  std::uint64_t outcomes_;
  std::uint32_t columns_ = 0;
  std::uint32_t level_range_ = 0;
  std::vector<DiceMultiset> multisets_;
  std::vector<std::uint64_t> sampling_weight_;
  std::vector<std::uint64_t> alias_;
};

// Alias tables whose columns carry their outcomes' payloads (a game's move,
// a policy's decision) inline, so that a draw gives the payload with one
// load. The columns are padded to a power of two with empty ones: the column
// is then the draw's low bits, and one Lemire reduction of its high 32 bits
// gives the level. Many tables share one vector of columns.
struct PayloadColumn {
  std::uint32_t threshold;   // the column's own payload when the level is below
  std::uint32_t payload[2];  // its own, its alias's
  std::uint32_t unused;      // 16 bytes: a column never straddles a cache line
};
struct PayloadTable {
  std::uint32_t offset = 0;  // of its first column in the shared vector
  std::uint32_t column_mask = 0;
  std::uint32_t level_range = 1;  // the sum of the weights
};
// Appends a table drawing payloads[i] with probability weights[i] / sum of
// the weights (at most 2^32 - 1) to `columns`.
PayloadTable append_payload_table(const std::vector<std::uint64_t>& weights, const std::vector<std::uint32_t>& payloads,
                                  std::vector<PayloadColumn>& columns);

// The same from each payload's weight: tables built from a policy or a
// game's rules, where many outcomes lead to one payload.
using PayloadWeights = std::map<std::uint32_t, std::uint64_t>;
PayloadTable append_payload_table(const PayloadWeights& weight_of, std::vector<PayloadColumn>& columns);

// The same drawn from one 64-bit number r < level_range x columns (column =
// r's low bits, level = the rest), for weights summing to up to 2^64 - 1
// over the columns: a whole 10,000 turn of up to 20 dice has 6^20 outcomes.
struct WidePayloadColumn {
  std::uint64_t threshold;
  std::uint32_t payload[2];
};
// Columns of many tables together: large (10,000's optimal_win, tens of
// MiB), so on huge pages.
using WideColumns = std::vector<WidePayloadColumn, HugePageAllocator<WidePayloadColumn>>;
struct WidePayloadTable {
  std::uint32_t offset = 0;
  std::uint32_t column_bits = 0;
  std::uint64_t range = 1;  // level range << column_bits
  // Lemire's bound, 2^64 mod range, worked out once: a draw then never
  // divides (a range near 2^64 would divide on most draws).
  std::uint64_t reject_below = 0;
};
WidePayloadTable append_payload_table(const std::vector<std::uint64_t>& weights,
                                      const std::vector<std::uint32_t>& payloads, WideColumns& columns);
WidePayloadTable append_payload_table(const PayloadWeights& weight_of, WideColumns& columns);

DICESIM_HD inline std::uint32_t draw_payload(const PayloadColumn* columns, const PayloadTable& table, Rng& rng) {
  std::uint64_t bits;
  std::uint32_t level;
  do bits = rng();
  while (!lemire_below(static_cast<std::uint32_t>(bits >> 32), table.level_range, level));
  const PayloadColumn& column = columns[table.offset + (static_cast<std::uint32_t>(bits) & table.column_mask)];
  // A coin flip for many columns: an index, not a branch to mispredict.
  return column.payload[level >= column.threshold];
}

// A wide table's draw: the number drawn below its range (its column in the
// low column_bits bits, the level above), then the payload of that column
// and level.
DICESIM_HD inline std::uint32_t draw_payload(const WidePayloadColumn* columns, const WidePayloadTable& table,
                                             Rng& rng) {
  const std::uint64_t r = uniform_below64(rng, table.range, table.reject_below);
  const WidePayloadColumn& column = columns[table.offset + (r & ((std::uint64_t(1) << table.column_bits) - 1))];
  // Both payloads are loaded with the threshold and one is picked by a mask:
  // indexing by the comparison would wait on a second load.
  const std::uint32_t own = column.payload[0], alias = column.payload[1];
  const std::uint32_t use_alias = -static_cast<std::uint32_t>((r >> table.column_bits) >= column.threshold);
  return own ^ ((own ^ alias) & use_alias);
}

// Alias tables over the codes 0 .. 2^code_bits - 1, every one with 2^code_bits
// columns and weights summing to `levels` (a 10,000 turn sampler's:
// sides^budget). So every table has one range: the number drawn does not
// wait on which table it is for (in a loop whose next table depends on the
// last draw, only the column's load does). Column c's own code is c, so a
// column is one 64-bit word, its threshold above its alias's code: 8 bytes,
// where a WidePayloadColumn takes 16.
class CodeTables {
 public:
  CodeTables() = default;
  // Throws unless fit(levels, code_bits).
  CodeTables(std::uint64_t levels, std::uint32_t code_bits);
  // Whether a word holds a threshold (up to levels) above code_bits bits
  // (fewer than 32: a table's columns are counted in 32 bits).
  static bool fit(std::uint64_t levels, std::uint32_t code_bits) {
    return levels != 0 && code_bits < 32 && (code_bits == 0 || (levels >> (64 - code_bits)) == 0);
  }
  std::uint32_t code_bits() const { return bits_; }
  std::uint64_t range() const { return range_; }  // levels << code_bits
  // Appends a table drawing code c with probability weights[c] / levels
  // (at most 2^code_bits weights, summing to levels) and returns its index.
  std::uint32_t append(const std::vector<std::uint64_t>& weights);
  std::uint32_t tables() const { return static_cast<std::uint32_t>(words_.size() >> bits_); }
  std::size_t bytes() const { return words_.size() * sizeof(std::uint64_t); }

  // What a draw reads, small enough for a loop to hold in registers.
  struct Drawer {
    const std::uint64_t* words;
    std::uint64_t range, reject_below;  // Lemire's bound, 2^64 mod range, worked out once
    std::uint32_t bits;
    // The number drawn for any table: its column in the low code bits,
    // its level above.
    DICESIM_HD std::uint64_t number(Rng& rng) const { return uniform_below64(rng, range, reject_below); }
    // The code that number r gives in table `table`: the column's own
    // where the level is below the column's threshold, else its alias's.
    // (The level below the threshold is r with its code bits set below the
    // word.)
    DICESIM_HD std::uint32_t pick(std::uint32_t table, std::uint64_t r) const {
      const std::uint64_t mask = (std::uint64_t(1) << bits) - 1;
      const std::uint64_t word = words[(std::size_t(table) << bits) | (r & mask)];
      return static_cast<std::uint32_t>((r | mask) < word ? r & mask : word & mask);
    }
    DICESIM_HD std::uint32_t draw(std::uint32_t table, Rng& rng) const { return pick(table, number(rng)); }
  };
  Drawer drawer() const { return {words_.data(), range_, reject_below_, bits_}; }

 private:
  std::uint64_t range_ = 1, reject_below_ = 0;  // range_ >> bits_: the levels
  std::uint32_t bits_ = 0;
  std::vector<std::uint64_t, HugePageAllocator<std::uint64_t>> words_;
};

}  // namespace dicesim
