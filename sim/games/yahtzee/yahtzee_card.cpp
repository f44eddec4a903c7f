#include "games/yahtzee/yahtzee_card.h"

namespace dicesim::yahtzee {

CardSpace::CardSpace(const Rules& rules)
    : rules_(rules),
      boxes_(rules.box_count()),
      yahtzee_box_(rules.yahtzee_box()),
      uppers_(std::size_t(rules.bonus_threshold) + 1),
      flags_(rules.has_yahtzee_bonus() ? 2 : 1) {
  // The totals each set of filled upper boxes can make, capped: face f's box
  // holds 0, f, ..., 5f.
  upper_possible_.assign(1 << kUpperBoxes, std::vector<bool>(uppers_, false));
  for (int set = 0; set < (1 << kUpperBoxes); ++set) {
    std::vector<bool> can(uppers_, false);
    can[0] = true;
    for (int f = 1; f <= kUpperBoxes; ++f) {
      if (!(set >> (f - 1) & 1)) continue;
      std::vector<bool> next(uppers_, false);
      for (std::size_t t = 0; t < uppers_; ++t)
        if (can[t])
          for (int n = 0; n <= kDice; ++n) next[std::min(uppers_ - 1, t + std::size_t(n * f))] = true;
      can = std::move(next);
    }
    upper_possible_[set] = std::move(can);
  }
}

bool CardSpace::possible(const Card& c) const {
  if (!upper_possible_[c.filled & ((1u << kUpperBoxes) - 1)][c.upper]) return false;
  return !c.yahtzee_50 || (yahtzee_box_ >= 0 && (c.filled >> yahtzee_box_ & 1));
}

}  // namespace dicesim::yahtzee
