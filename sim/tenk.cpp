#include "tenk.h"

#include <algorithm>

namespace dicesim::tenk {

namespace {
// Turn totals the tables tell apart: up to the target, and at least far
// enough that no strategy here would still throw six dice beyond it.
constexpr int kMinTableTotal = 40000;
}  // namespace

Policy::Policy(const Rules& rules)
    : slots_(std::max(rules.target, kMinTableTotal) / kPoint + 1),
      go_(std::size_t(kRegimes) * 7 * 7 * slots_, 0),
      take_(go_.size(), 0) {}

std::uint32_t choose_move(const Scoring& scoring, const Policy& policy, int regime, int dice, int pending, int i,
                          int total) {
  const int count = scoring.move_count(dice, pending, i);
  if (count == 0) return 0;
  const Move* moves = scoring.moves(dice, pending, i);
  int chosen = 0;
  if (!policy.value.empty()) {
    double best = -1;
    for (int m = 0; m < count; ++m) {
      const bool hot = moves[m].used == dice;
      const int next = hot ? scoring.rules().dice : dice - moves[m].used;
      const int next_pending = hot ? kNoPending : moves[m].pending;
      const double v = policy.value[policy.index(regime, next_pending, next, total + moves[m].points)];
      if (v > best) best = v, chosen = m;
    }
  }
  const Move& m = moves[chosen];
  return std::uint32_t(m.points / kPoint) | std::uint32_t(m.used) << 16 | std::uint32_t(m.pending) << 20;
}

}  // namespace dicesim::tenk
