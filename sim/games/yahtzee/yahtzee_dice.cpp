#include "games/yahtzee/yahtzee_dice.h"

#include <map>

namespace dicesim::yahtzee {
namespace {

// Every multiset of `dice` dice, faces in increasing order of counts' digits.
void enumerate(int dice, int face, FaceCounts& counts, std::vector<FaceCounts>& out) {
  if (face == kFaces) {
    if (dice == 0) out.push_back(counts);
    return;
  }
  for (int n = dice; n >= 0; --n) {
    counts[face] = static_cast<std::uint8_t>(n);
    enumerate(dice - n, face + 1, counts, out);
  }
  counts[face] = 0;
}

std::uint32_t ordered_throws(const FaceCounts& counts) {
  std::uint32_t ways = 120;  // 5!
  for (int n : counts)
    for (int i = 2; i <= n; ++i) ways /= static_cast<std::uint32_t>(i);
  return ways;
}

}  // namespace

Keepers::Keepers() {
  for (int dice = 0; dice <= kDice; ++dice) {
    FaceCounts counts{};
    std::vector<FaceCounts> sized;
    enumerate(dice, 0, counts, sized);
    for (const FaceCounts& c : sized) {
      of_size_[dice].push_back(static_cast<int>(counts_.size()));
      counts_.push_back(c);
      size_.push_back(dice);
    }
  }
  std::map<FaceCounts, int> index_of;
  by_code_.assign(6 * 6 * 6 * 6 * 6 * 6, -1);
  for (int k = 0; k < static_cast<int>(counts_.size()); ++k) {
    index_of[counts_[k]] = k;
    by_code_[code(counts_[k])] = static_cast<std::int16_t>(k);
  }
  with_.assign(counts_.size(), {});
  roll_of_.assign(counts_.size(), -1);
  for (int k = 0; k < static_cast<int>(counts_.size()); ++k) {
    for (int f = 0; f < kFaces; ++f) {
      if (size_[k] == kDice) {
        with_[k][f] = -1;
        continue;
      }
      FaceCounts more = counts_[k];
      ++more[f];
      with_[k][f] = index_of.at(more);
    }
  }
  for (int r = 0; r < kRolls; ++r) {
    const int k = of_size_[kDice][r];
    roll_of_[k] = r;
    ways_.push_back(ordered_throws(counts_[k]));
    keeps_start_.push_back(static_cast<std::uint32_t>(keeps_.size()));
    for (int sub = 0; sub < static_cast<int>(counts_.size()); ++sub) {
      bool inside = true;
      for (int f = 0; f < kFaces; ++f) inside = inside && counts_[sub][f] <= counts_[k][f];
      if (inside) keeps_.push_back(static_cast<std::uint16_t>(sub));
    }
  }
  keeps_start_.push_back(static_cast<std::uint32_t>(keeps_.size()));
}

const Keepers& keepers() {
  static const Keepers table;
  return table;
}

}  // namespace dicesim::yahtzee
