#include "games/pig/pig.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace dicesim::pig {

ThrowOdds throw_odds(const Rules& rules) {
  ThrowOdds odds;
  odds.outcomes = rules.dice == 1 ? 6 : 36;
  std::vector<int> ways(rules.largest_throw() + 1, 0);
  for (int a = 1; a <= 6; ++a)
    for (int b = 1; b <= (rules.dice == 1 ? 1 : 6); ++b) {
      const int points = throw_points(rules.dice, a, b);
      if (points == kBust) ++odds.bust;
      if (points == kReset) ++odds.reset;
      if (points > 0) ++ways[points];
    }
  for (int points = 0; points < static_cast<int>(ways.size()); ++points)
    if (ways[points] > 0) odds.points.emplace_back(points, ways[points]);
  return odds;
}

Policy::Policy(const Rules& rules, int phases)
    : goal_(rules.goal), phases_(phases), offset_(std::size_t(phases) * rules.goal * rules.goal, 0) {
  const std::vector<std::uint8_t> never(goal_, 0);
  for (int i = 0; i < goal_; ++i) {
    set_row(0, i, 0, never);
    std::fill_n(offset_.begin() + std::size_t(i) * goal_, goal_, offset_[std::size_t(i) * goal_]);
  }
  for (int phase = 1; phase < phases; ++phase)
    std::copy_n(offset_.begin(), std::size_t(goal_) * goal_, offset_.begin() + std::size_t(phase) * goal_ * goal_);
}

void Policy::set_row(int phase, int i, int j, const std::vector<std::uint8_t>& hold) {
  if (static_cast<int>(hold.size()) < goal_ - i) throw std::logic_error("Policy::set_row: a row too short");
  std::string key(row_size(), '\1');
  key[0] = 0;
  for (int k = 1; k < goal_ - i; ++k) key[k] = hold[k] ? 1 : 0;
  const auto [it, added] = index_.try_emplace(std::move(key), static_cast<std::uint32_t>(pool_.size()));
  if (added) pool_.insert(pool_.end(), it->first.begin(), it->first.end());
  const std::uint32_t found = it->second;
  offset_[(std::size_t(phase) * goal_ + i) * goal_ + j] = found;
}

PayloadWeights TurnSampler::draw_weights(int dice, const Die& die, const std::uint8_t* hold, int row_size, int throws) {
  const unsigned base = static_cast<unsigned>(dice == 1 ? die.sides : die.sides * die.sides);
  std::uint64_t rest = 1;  // digit strings of the throws after the current one
  for (int t = 0; t < throws; ++t) rest *= base;
  PayloadWeights weight;
  // ways[k]: digit strings of the throws so far that leave the turn in play at total k.
  std::vector<std::uint64_t> ways(row_size, 0), next(row_size, 0);
  ways[0] = 1;
  for (int t = 0; t < throws; ++t) {
    rest /= base;
    std::fill(next.begin(), next.end(), 0);
    for (int k = 0; k < row_size; ++k) {
      if (ways[k] == 0) continue;
      for (unsigned digit = 0; digit < base; ++digit) {
        const int points = throw_of_digit(dice, die, digit);
        if (points > 0 && !hold[k + points]) {
          next[k + points] += ways[k];
          continue;
        }
        const std::uint32_t ended = points == kBust    ? payload(kOne)
                                    : points == kReset ? payload(kTwoOnes)
                                                       : payload(kHold, k + points);
        weight[ended] += ways[k] * rest;  // every continuation of an ended turn alike
      }
    }
    std::swap(ways, next);
  }
  for (int k = 0; k < row_size; ++k)
    if (ways[k] > 0) weight[payload(kInPlay, k)] += ways[k];
  return weight;
}

bool ignores_opponent(const Policy& policy) {
  for (int phase = 0; phase < policy.phases(); ++phase)
    for (int i = 0; i < policy.goal(); ++i)
      for (int j = 1; j < policy.goal(); ++j)
        if (policy.row_offset(phase, i, j) != policy.row_offset(phase, i, 0)) return false;
  return true;
}

TurnSampler::TurnSampler(const Rules& rules, const Policy& policy, const Die& die)
    : ignores_opponent_(pig::ignores_opponent(policy)), throws_per_draw_(10 / rules.dice), policy_(&policy) {
  const int goal = rules.goal, opponents = ignores_opponent_ ? 1 : goal;
  score_stride_ = opponents;
  phase_stride_ = goal * opponents;
  std::unordered_map<std::uint32_t, PayloadTable> table_of_row;  // by row offset
  table_of_state_.resize(std::size_t(policy.phases()) * phase_stride_);
  for (int phase = 0; phase < policy.phases(); ++phase)
    for (int i = 0; i < goal; ++i)
      for (int j = 0; j < opponents; ++j) {
        const auto [it, added] = table_of_row.try_emplace(policy.row_offset(phase, i, j));
        if (added)
          it->second = append_payload_table(
              draw_weights(rules.dice, die, policy.row(phase, i, j), policy.row_size(), throws_per_draw_), columns_);
        table_of_state_[state(phase, i, j)] = it->second;
      }
}

}  // namespace dicesim::pig
