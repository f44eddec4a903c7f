#include "dice.h"

#include <stdexcept>

namespace dicesim {
namespace {

bool g_biased_for_testing = false;

std::uint64_t factorial(int n) {
  std::uint64_t f = 1;
  for (int i = 2; i <= n; ++i) f *= i;
  return f;
}

void enumerate(int face, int dice_left, DiceMultiset& current, std::vector<DiceMultiset>& out) {
  if (face == kFaces - 1) {
    current.count[face] = static_cast<std::uint8_t>(dice_left);
    out.push_back(current);
    return;
  }
  for (int c = dice_left; c >= 0; --c) {
    current.count[face] = static_cast<std::uint8_t>(c);
    enumerate(face + 1, dice_left - c, current, out);
  }
}

}  // namespace

const Die& fair_die() {
  static const Die fair;
  return fair;
}

const Die& sampling_die() {
  static const Die loaded{kLoadedSides, {1, 1, 2, 3, 4, 5, 6}};
  return g_biased_for_testing ? loaded : fair_die();
}

void bias_dice_for_testing(bool on) { g_biased_for_testing = on; }
bool dice_biased_for_testing() { return g_biased_for_testing; }

RollOutcomes::RollOutcomes(int dice) : dice_(dice), outcomes_(1) {
  if (dice < 0 || dice > kMaxDice) throw std::invalid_argument("RollOutcomes: dice out of range");
  for (int i = 0; i < dice; ++i) outcomes_ *= kFaces;
  DiceMultiset current;
  enumerate(0, dice, current, multisets_);
  for (DiceMultiset& m : multisets_) {
    std::uint64_t denominator = 1;
    for (int c : m.count) denominator *= factorial(c);
    m.ways = factorial(dice) / denominator;
  }
  // Each multiset with the weight of its ordered outcomes on the die in
  // force: ways times each face's sides per die. The loaded die's 7^dice
  // outcomes must fit the 32-bit level: beyond 11 dice the table stays fair.
  const Die& die = sampling_die().outcomes(dice) <= UINT32_MAX ? sampling_die() : fair_die();
  for (const DiceMultiset& m : multisets_) {
    std::uint64_t weight = m.ways;
    for (int f = 0; f < kFaces; ++f)
      for (int c = 0; c < m.count[f]; ++c) weight *= die.weight(f + 1);
    sampling_weight_.push_back(weight);
  }
  const std::uint64_t capacity = die.outcomes(dice);
  columns_ = static_cast<std::uint32_t>(multisets_.size());
  level_range_ = static_cast<std::uint32_t>(capacity);
  // Packed for the hot loop: threshold | alias index << 32.
  for (const AliasColumn& c : alias_columns(sampling_weight_, capacity))
    alias_.push_back(c.threshold | std::uint64_t(c.alias) << 32);
}

// Column i holds weight columns * weights_i against a capacity per column;
// a small column is topped up from a large one, which becomes small in turn.
std::vector<AliasColumn> alias_columns(const std::vector<std::uint64_t>& weights, std::uint64_t capacity) {
  const auto columns = static_cast<std::uint32_t>(weights.size());
  std::vector<std::uint64_t> weight(columns);
  std::vector<std::uint32_t> small, large;
  for (std::uint32_t i = 0; i < columns; ++i) {
    if (__builtin_mul_overflow(std::uint64_t(columns), weights[i], &weight[i]))
      throw std::invalid_argument("alias_columns: weights too large");
    (weight[i] < capacity ? small : large).push_back(i);
  }
  std::vector<AliasColumn> table(columns);
  for (std::uint32_t i = 0; i < columns; ++i) table[i] = {capacity, i};
  while (!small.empty() && !large.empty()) {
    const std::uint32_t s = small.back();
    small.pop_back();
    const std::uint32_t l = large.back();
    table[s] = {weight[s], l};
    weight[l] -= capacity - weight[s];
    if (weight[l] < capacity) {
      large.pop_back();
      small.push_back(l);
    }
  }
  // Whatever is left is full to capacity (exact integers leave no residue).
  return table;
}

PayloadTable append_payload_table(const std::vector<std::uint64_t>& weights, const std::vector<std::uint32_t>& payloads,
                                  std::vector<PayloadColumn>& columns) {
  std::uint64_t capacity = 0;
  for (std::uint64_t w : weights) capacity += w;
  if (weights.empty() || weights.size() != payloads.size() || capacity == 0 || capacity > UINT32_MAX)
    throw std::invalid_argument("append_payload_table: a table needs payloads and weights summing to 1..2^32 - 1");
  std::size_t width = 1;
  while (width < weights.size()) width *= 2;
  std::vector<std::uint64_t> padded = weights;
  padded.resize(width, 0);
  const PayloadTable table{static_cast<std::uint32_t>(columns.size()), static_cast<std::uint32_t>(width - 1),
                           static_cast<std::uint32_t>(capacity)};
  const auto payload = [&](std::uint32_t i) { return i < payloads.size() ? payloads[i] : 0; };
  for (std::uint32_t i = 0; const AliasColumn& c : alias_columns(padded, capacity))
    columns.push_back({static_cast<std::uint32_t>(c.threshold), {payload(i++), payload(c.alias)}, 0});
  return table;
}

PayloadTable append_payload_table(const PayloadWeights& weight_of, std::vector<PayloadColumn>& columns) {
  std::vector<std::uint64_t> weights;
  std::vector<std::uint32_t> payloads;
  for (const auto& [payload, weight] : weight_of) payloads.push_back(payload), weights.push_back(weight);
  return append_payload_table(weights, payloads, columns);
}

}  // namespace dicesim
