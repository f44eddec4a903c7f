#include "games/tenk/tenk_decision_runs.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace dicesim::tenk {

void DecisionRuns::encode(const std::uint8_t* banks, int top, int kinds, std::vector<std::uint16_t>& out) {
  if (top < 0 || top > std::numeric_limits<std::uint16_t>::max())
    throw std::logic_error("tenk: a turn's top total does not fit its decision runs");
  out.push_back(static_cast<std::uint16_t>(top));
  for (int kind = 0; kind < kinds; ++kind) {
    const std::size_t count_at = out.size();
    out.push_back(0);
    bool bank = false;
    for (int t = 1; t <= top; ++t)
      if ((banks[std::size_t(t - 1) * kinds + kind] != 0) != bank) {
        bank = !bank;
        out.push_back(static_cast<std::uint16_t>(t));
      }
    out[count_at] = static_cast<std::uint16_t>(out.size() - count_at - 1);
  }
}

void DecisionRuns::store(std::size_t turn, const std::uint16_t* encoded, std::size_t size) {
  start_.at(turn) = runs_.size();
  runs_.insert(runs_.end(), encoded, encoded + size);
}

bool DecisionRuns::banks(std::size_t turn, int t, int kind) const {
  const std::uint16_t* at = &runs_[first(turn)];
  if (t > *at) return true;
  ++at;
  for (int k = 0; k < kind; ++k) at += 1 + *at;
  const int flips = *at++;
  const int passed = static_cast<int>(std::upper_bound(at, at + flips, std::uint16_t(t)) - at);
  return passed % 2 == 1;
}

void DecisionRuns::decode(std::size_t turn, int top, int kinds, std::uint8_t* banks) const {
  const std::uint16_t* at = &runs_[first(turn)];
  const int own_top = std::min<int>(*at++, top);
  std::fill(banks + std::size_t(own_top) * kinds, banks + std::size_t(top) * kinds, std::uint8_t{1});
  for (int kind = 0; kind < kinds; ++kind) {
    const int flips = *at++;
    bool bank = false;
    int i = 0;
    for (int t = 1; t <= own_top; ++t) {
      while (i < flips && at[i] == t) bank = !bank, ++i;
      banks[std::size_t(t - 1) * kinds + kind] = bank;
    }
    at += flips;
  }
}

}  // namespace dicesim::tenk
