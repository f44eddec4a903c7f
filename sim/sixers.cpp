#include "sixers.h"

#include <algorithm>

namespace dicesim::sixers {

Hands::Hands(const Rules& rules) : rules_(rules), stride_(rules.dice + 1) {
  offset_.push_back(0);
  for (int n = 0; n <= rules.dice; ++n) {
    tables_.emplace_back(n);
    const RollTable& table = tables_.back();
    for (std::size_t i = 0; i < table.size(); ++i) {
      std::vector<int> scores;
      for (int face = 1; face <= kFaces; ++face)
        scores.insert(scores.end(), table[i].count[face - 1], rules.face_score(face));
      std::sort(scores.begin(), scores.end());
      multiset_dice_.push_back(n);
      probability_.push_back(table.probability(i));
      int running = 0;
      for (int k = 0; k <= rules.dice; ++k) {
        if (k > 0 && k <= n) running += scores[k - 1];
        kept_score_.push_back(static_cast<std::uint16_t>(running));
      }
      sorted_scores_.push_back(std::move(scores));
    }
    offset_.push_back(static_cast<int>(multiset_dice_.size()));
  }
}

Policy::Policy(const Hands& hands, int slots)
    : slots_(slots),
      hands_(hands.count()),
      keep_(std::size_t(std::max(hands.rules().rolls - 1, 0)) * slots * hands.count(), 1) {}

}  // namespace dicesim::sixers
