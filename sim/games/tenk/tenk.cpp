#include "games/tenk/tenk.h"

#include <algorithm>

namespace dicesim::tenk {

namespace {
// Turn totals the tables tell apart: up to the target, and at least far
// enough that no strategy here would still throw six dice beyond it.
constexpr int kMinTableTotal = 40000;
}  // namespace

Policy::Policy(const Rules& rules)
    : slots_(std::max(rules.target, kMinTableTotal) / kPoint + 1),
      go_(std::size_t(kRegimes) * kDiceSlots * kDiceSlots * slots_, 0),
      take_(go_.size(), 0) {}

int first_bank_total(const Rules& rules, const Policy& policy, int dice) {
  const bool hot = dice == rules.dice;  // a full hand for the next throw: the last one used every die
  for (int total = kPoint; total < rules.target; total += kPoint)
    if (may_bank(rules, 0, total, hot) && !policy.throws(regime_of(rules, 0), kNoPending, dice, total)) return total;
  return -1;
}

Step choose_move(const Scoring& scoring, const Policy& policy, int regime, int dice, int pending, int i, int total) {
  const int count = scoring.move_count(dice, pending, i);
  if (count == 0) return kBust;
  const Move* moves = scoring.moves(dice, pending, i);
  if (policy.value.empty()) return scoring.step(dice, moves[0]);
  Step chosen = kBust;
  double best = -1;
  for (int m = 0; m < count; ++m) {
    const Step step = scoring.step(dice, moves[m]);
    const double v = policy.value[policy.index(regime, step_pending(step), step_dice(step), total + moves[m].points)];
    if (v > best) best = v, chosen = step;
  }
  return chosen;
}

}  // namespace dicesim::tenk
