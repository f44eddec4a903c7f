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

}  // namespace dicesim::pig
