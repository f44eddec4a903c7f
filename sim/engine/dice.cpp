#include "engine/dice.h"

#include <bit>
#include <stdexcept>
#include <string>

namespace dicesim {
namespace {

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

const Die& loaded_die() {
  static const Die loaded{kLoadedSides, {1, 1, 2, 3, 4, 5, 6}};
  return loaded;
}

RollOutcomes::RollOutcomes(int dice, const Die& sampling_die) : dice_(dice), outcomes_(1) {
  if (dice < 0 || dice > kMaxDice) throw std::invalid_argument("RollOutcomes: dice out of range");
  for (int i = 0; i < dice; ++i) outcomes_ *= kFaces;
  DiceMultiset current;
  enumerate(0, dice, current, multisets_);
  for (DiceMultiset& m : multisets_) {
    std::uint64_t denominator = 1;
    for (int c : m.count) denominator *= factorial(c);
    m.ways = factorial(dice) / denominator;
  }
  // Each multiset with the weight of its ordered outcomes on the sampling
  // die: ways times each face's sides per die. The loaded die's 7^dice
  // outcomes must fit the 32-bit level: beyond 11 dice the table stays fair.
  const Die& die = sampling_die.outcomes(dice) <= UINT32_MAX ? sampling_die : fair_die();
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
// The scaled weights are 128-bit, so that any weights summing to at most
// 2^64 - 1 fit, whatever the number of columns.
std::vector<AliasColumn> alias_columns(const std::vector<std::uint64_t>& weights, std::uint64_t capacity) {
  using Wide = unsigned __int128;
  const auto columns = static_cast<std::uint32_t>(weights.size());
  std::vector<Wide> weight(columns);
  std::vector<std::uint32_t> small, large;
  for (std::uint32_t i = 0; i < columns; ++i) {
    weight[i] = Wide(columns) * weights[i];
    (weight[i] < capacity ? small : large).push_back(i);
  }
  std::vector<AliasColumn> table(columns);
  for (std::uint32_t i = 0; i < columns; ++i) table[i] = {capacity, i};
  while (!small.empty() && !large.empty()) {
    const std::uint32_t s = small.back();
    small.pop_back();
    const std::uint32_t l = large.back();
    table[s] = {static_cast<std::uint64_t>(weight[s]), l};
    weight[l] -= capacity - weight[s];
    if (weight[l] < capacity) {
      large.pop_back();
      small.push_back(l);
    }
  }
  // Whatever is left is full to capacity (exact integers leave no residue).
  return table;
}

namespace {

// A payload table's columns before packing: the weights padded with empty
// columns to a power of two (the column is then a draw's low bits), their
// sum the level's range, which must lie in 1..max_capacity.
struct PayloadAlias {
  std::uint64_t threshold;
  std::uint32_t own, alias;  // payloads
};
std::uint64_t payload_alias(const std::vector<std::uint64_t>& weights, const std::vector<std::uint32_t>& payloads,
                            std::uint64_t max_capacity, std::vector<PayloadAlias>& out) {
  unsigned __int128 sum = 0;
  for (std::uint64_t w : weights) sum += w;
  if (weights.empty() || weights.size() != payloads.size() || sum == 0 || sum > max_capacity)
    throw std::invalid_argument("append_payload_table: a table needs payloads and weights summing to 1.." +
                                std::to_string(max_capacity));
  std::size_t width = 1;
  while (width < weights.size()) width *= 2;
  std::vector<std::uint64_t> padded = weights;
  padded.resize(width, 0);
  const auto capacity = static_cast<std::uint64_t>(sum);
  const auto payload = [&](std::uint32_t i) { return i < payloads.size() ? payloads[i] : 0; };
  for (std::uint32_t i = 0; const AliasColumn& c : alias_columns(padded, capacity))
    out.push_back({c.threshold, payload(i++), payload(c.alias)});
  return capacity;
}

}  // namespace

PayloadTable append_payload_table(const std::vector<std::uint64_t>& weights, const std::vector<std::uint32_t>& payloads,
                                  std::vector<PayloadColumn>& columns) {
  std::vector<PayloadAlias> alias;
  const std::uint64_t capacity = payload_alias(weights, payloads, UINT32_MAX, alias);
  const PayloadTable table{static_cast<std::uint32_t>(columns.size()), static_cast<std::uint32_t>(alias.size() - 1),
                           static_cast<std::uint32_t>(capacity)};
  for (const PayloadAlias& c : alias) columns.push_back({static_cast<std::uint32_t>(c.threshold), {c.own, c.alias}, 0});
  return table;
}

WidePayloadTable append_payload_table(const std::vector<std::uint64_t>& weights,
                                      const std::vector<std::uint32_t>& payloads, WideColumns& columns) {
  std::vector<PayloadAlias> alias;
  const std::uint64_t capacity = payload_alias(weights, payloads, UINT64_MAX, alias);
  const auto column_bits = static_cast<std::uint32_t>(std::countr_zero(alias.size()));
  if (capacity > (UINT64_MAX >> column_bits))
    throw std::invalid_argument("append_payload_table: weights x columns must stay below 2^64");
  const std::uint64_t range = capacity << column_bits;
  const WidePayloadTable table{static_cast<std::uint32_t>(columns.size()), column_bits, range, (0 - range) % range};
  for (const PayloadAlias& c : alias) columns.push_back({c.threshold, {c.own, c.alias}});
  return table;
}

namespace {

template <class Columns>
auto append_weighted_payloads(const PayloadWeights& weight_of, Columns& columns) {
  std::vector<std::uint64_t> weights;
  std::vector<std::uint32_t> payloads;
  for (const auto& [payload, weight] : weight_of) payloads.push_back(payload), weights.push_back(weight);
  return append_payload_table(weights, payloads, columns);
}

}  // namespace

PayloadTable append_payload_table(const PayloadWeights& weight_of, std::vector<PayloadColumn>& columns) {
  return append_weighted_payloads(weight_of, columns);
}

WidePayloadTable append_payload_table(const PayloadWeights& weight_of, WideColumns& columns) {
  return append_weighted_payloads(weight_of, columns);
}

CodeTables::CodeTables(std::uint64_t levels, std::uint32_t code_bits) : bits_(code_bits) {
  if (!fit(levels, code_bits)) throw std::invalid_argument("CodeTables: levels and codes must fit 64 bits");
  range_ = levels << code_bits;
  reject_below_ = (0 - range_) % range_;
}

std::uint32_t CodeTables::append(const std::vector<std::uint64_t>& weights) {
  const std::size_t codes = std::size_t(1) << bits_;
  unsigned __int128 sum = 0;
  for (std::uint64_t w : weights) sum += w;
  const std::uint64_t levels = range_ >> bits_;
  if (weights.size() > codes || sum != levels)
    throw std::invalid_argument("CodeTables: a table needs at most 2^code_bits weights summing to its levels");
  std::vector<std::uint64_t> padded = weights;
  padded.resize(codes, 0);
  const std::uint32_t index = tables();
  for (const AliasColumn& c : alias_columns(padded, levels)) words_.push_back(c.threshold << bits_ | c.alias);
  return index;
}

}  // namespace dicesim
