#include "games/battle/battle.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "engine/dice.h"

namespace dicesim::battle {

std::uint64_t outcomes(int dice) { return fair_die().outcomes(dice); }

std::vector<std::uint64_t> throw_ways(int dice, const Die& die) {
  // no_one[k]: sequences of faces 2..6 summing to k, built one die at a time.
  std::vector<std::uint64_t> no_one(6 * dice + 1, 0);
  no_one[0] = 1;
  for (int n = 1; n <= dice; ++n)
    for (int k = 6 * n; k >= 0; --k) {
      std::uint64_t sum = 0;
      for (int face = 2; face <= 6 && face <= k; ++face) sum += die.weight(face) * no_one[k - face];
      no_one[k] = sum;
    }
  std::uint64_t all_but_ones = 1;
  for (int i = 0; i < dice; ++i) all_but_ones *= die.sides - die.weight(1);
  no_one[1] = die.outcomes(dice) - all_but_ones;  // a sum of faces 2..6 is never 1
  return no_one;
}

// Per number of dice, a payload table of the throw where it fits, else an
// alias table in 64-bit integers (its columns' scores inline); and the table
// of a uniform choice, which weighs each d's throws by die.outcomes(max_dice)
// / die.outcomes(d), so that every d has the same total weight.
ThrowSampler::ThrowSampler(int max_dice, const Die& die) : tables_(max_dice + 1), turn_tables_(max_dice + 2) {
  if (max_dice < 1 || max_dice > kMaxDiceLimit) throw std::invalid_argument("ThrowSampler: dice out of range");
  std::vector<std::uint64_t> uniform(6 * max_dice + 1, 0);
  for (int d = 1; d <= max_dice; ++d) {
    const std::vector<std::uint64_t> ways = throw_ways(d, die);
    for (int k = 0; k <= 6 * d; ++k) uniform[k] += ways[k] * (die.outcomes(max_dice) / die.outcomes(d));
    add_turn_table(d, ways);
    if (!turn_tables_[d].one_draw) add_alias_table(d, ways, die.outcomes(d));
  }
  add_turn_table(0, uniform);
}

void ThrowSampler::add_alias_table(int dice, const std::vector<std::uint64_t>& ways, std::uint64_t capacity) {
  std::vector<std::uint64_t> weights;
  std::vector<std::uint16_t> scores;
  for (int k = 1; k <= 6 * dice; ++k)
    if (ways[k] > 0) weights.push_back(ways[k]), scores.push_back(static_cast<std::uint16_t>(k));
  tables_[dice] = {static_cast<std::uint32_t>(entries_.size()), static_cast<std::uint32_t>(scores.size()), capacity};
  const std::vector<AliasColumn> columns = alias_columns(weights, capacity);
  for (std::size_t i = 0; i < columns.size(); ++i)
    entries_.push_back({columns[i].threshold, scores[i], scores[columns[i].alias]});
}

void ThrowSampler::add_turn_table(int index, const std::vector<std::uint64_t>& weights) {
  std::uint64_t capacity = 0;
  for (std::uint64_t w : weights) capacity += w;
  // Lemire's rejection of the level's 32 bits happens with probability
  // (2^32 mod capacity) / 2^32: above 1/16, two draws a turn are cheaper.
  constexpr std::uint64_t kLevels = std::uint64_t(1) << 32;
  if (capacity >= kLevels || (kLevels % capacity) * 16 > kLevels) return;
  PayloadWeights weight_of;
  for (std::size_t k = 0; k < weights.size(); ++k)
    if (weights[k] > 0) weight_of[static_cast<std::uint32_t>(k)] = weights[k];
  turn_tables_[index] = {append_payload_table(weight_of, turn_columns_), true};
}

void Policy::set_mixed(int mine, int theirs, const std::vector<double>& probability) {
  constexpr double kScale = 4294967296.0;  // 2^32
  std::vector<std::uint64_t> weight(probability.size());
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < probability.size(); ++i) total += weight[i] = std::llround(probability[i] * kScale);
  // Rounding may miss 2^32 by a few units: the largest weight absorbs it.
  const std::size_t largest = std::max_element(weight.begin(), weight.end()) - weight.begin();
  weight[largest] += (std::uint64_t(1) << 32) - total;
  std::vector<Weight> kept;
  std::uint64_t cumulative = 0;
  for (std::size_t i = 0; i < weight.size(); ++i)
    if (weight[i] > 0) kept.push_back({cumulative += weight[i], static_cast<std::uint32_t>(i + 1)});
  if (kept.size() == 1) return set_pure(mine, theirs, kept[0].dice);
  cell(mine, theirs) = {static_cast<std::uint32_t>(weights_.size()), static_cast<std::uint16_t>(kept.size()), 0};
  weights_.insert(weights_.end(), kept.begin(), kept.end());
}

std::vector<double> Policy::distribution(int mine, int theirs) const {
  std::vector<double> p(max_dice_, 0.0);
  const Cell& c = cells_[std::size_t(mine) * goal_ + theirs];
  if (c.count == 0) {
    p[c.dice - 1] = 1;
  } else if (c.count == kUniform) {
    std::fill(p.begin(), p.end(), 1.0 / max_dice_);
  } else {
    std::uint64_t previous = 0;
    for (int i = 0; i < c.count; ++i) {
      const Weight& w = weights_[c.begin + i];
      p[w.dice - 1] = std::ldexp(double(w.cumulative - previous), -32);
      previous = w.cumulative;
    }
  }
  return p;
}

}  // namespace dicesim::battle
