#include "games/tenk/tenk_win_policy.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace dicesim::tenk {

std::vector<ThrowOutcomes> throw_outcomes(const Scoring& scoring) {
  const Rules& rules = scoring.rules();
  std::vector<ThrowOutcomes> all(kDiceSlots * kDiceSlots);
  for (int dice = 1; dice <= rules.dice; ++dice)
    for (int pending = 0; pending < rules.pending_faces(); ++pending) {
      if (!rules.reachable(dice, pending)) continue;
      ThrowOutcomes& out = all[dice * kDiceSlots + pending];
      std::map<std::vector<std::tuple<int, int, int, bool>>, int> group_of;
      for (int i = 0; i < scoring.multisets(dice); ++i) {
        const double p = scoring.probability(dice, i);
        const int count = scoring.move_count(dice, pending, i);
        if (count == 0) {
          out.bust += p;
          continue;
        }
        std::vector<std::tuple<int, int, int, bool>> options;
        for (int m = 0; m < count; ++m) {
          const Step step = scoring.step(dice, scoring.moves(dice, pending, i)[m]);
          options.emplace_back(step_points(step) / kPoint, step_dice(step), step_pending(step), step_hot(step));
        }
        // Kept in the order of the moves, repeats dropped: a fixed strategy
        // keeps the first of its best parts (choose_move), so the order is
        // part of what a group is.
        for (std::size_t k = options.size(); k-- > 1;)
          if (std::find(options.begin(), options.begin() + k, options[k]) != options.begin() + k)
            options.erase(options.begin() + k);
        const auto [it, fresh] = group_of.try_emplace(options, static_cast<int>(out.groups.size()));
        if (fresh) {
          out.groups.push_back({0, static_cast<int>(out.options.size()), static_cast<int>(options.size())});
          for (const auto& [points, next, next_pending, hot] : options)
            out.options.push_back({points, next, next_pending, hot});
        }
        out.groups[it->second].probability += p;
      }
    }
  return all;
}

ReachChances::ReachChances(const Rules& rules, const std::vector<ThrowOutcomes>& throws, int most, bool exact)
    : rules_(rules), most_(most), reach_(std::size_t(most + 1) * kDiceSlots * kDiceSlots, 0.0) {
  const auto after = [&](int need, const ThrowOption& o) {
    const int left = need - o.points;
    if (exact)
      return left == 0  ? 1.0
             : left < 0 ? 0.0
                        : reach_[(std::size_t(left) * kDiceSlots + o.dice) * kDiceSlots + o.pending];
    if (left <= 0 && !(o.hot && rules.no_stop_on_hot_dice)) return 1.0;
    return reach_[(std::size_t(std::max(left, 0)) * kDiceSlots + o.dice) * kDiceSlots + o.pending];
  };
  const auto sweep = [&](int need) {
    double change = 0;
    for (int dice = 1; dice <= rules.dice; ++dice)
      for (int pending = 0; pending < rules.pending_faces(); ++pending) {
        if (!rules.reachable(dice, pending)) continue;
        const ThrowOutcomes& t = throws[dice * kDiceSlots + pending];
        double sum = 0;
        for (const ThrowGroup& g : t.groups) {
          double best = 0;
          for (int k = g.first; k < g.first + g.count; ++k) best = std::max(best, after(need, t.options[k]));
          sum += g.probability * best;
        }
        double& slot = reach_[(std::size_t(need) * kDiceSlots + dice) * kDiceSlots + pending];
        change = std::max(change, std::abs(sum - slot));
        slot = sum;
      }
    return change;
  };
  // need 0 (one more allowed stop) refers to itself through hot dice under
  // IV.1: iterate, it contracts by the chance of hot dice. Larger needs only
  // refer to smaller ones.
  if (!exact)
    for (int i = 0; i < 10000 && sweep(0) > 0; ++i) {
    }
  for (int need = 1; need <= most; ++need) sweep(need);
}

Landings::Landings(const Rules& rules) : full_dice_(rules.dice) {
  index_.fill(-1);
  for (int dice = 1; dice <= rules.dice; ++dice)
    for (int pending = 0; pending < rules.pending_faces(); ++pending)
      if (rules.reachable(dice, pending)) {
        index_[dice * kDiceSlots + pending] = static_cast<int>(dp_.size());
        dp_.push_back(dice * kDiceSlots + pending);
      }
  count_ = static_cast<int>(dp_.size()) + 1;  // the last: hot dice
}

WinPolicy::WinPolicy(const Rules& rules, int units)
    : units_(units), kinds_(Landings(rules).count()), top_(std::size_t(2) * units * units), bank_offset_(top_.size()) {
  if (!rules.continue_previous) return;
  take_offset_.resize(top_.size());
  for (std::size_t s = 0; s < take_offset_.size(); ++s) {
    take_offset_[s] = size_;
    size_ += std::size_t(s % units_) * (kinds_ - 1);  // totals 1..theirs
  }
  bits_.resize((size_ + 63) / 64);
}

void WinPolicy::set_top(int seat, int mine, int theirs, int top) {
  const std::size_t s = state(seat, mine, theirs);
  top_[s] = static_cast<std::uint32_t>(top);
  bank_offset_[s] = size_;
  size_ += std::size_t(top + 1) * kinds_;  // totals 1..top, then one row for all above
  bits_.resize((size_ + 63) / 64);
}

bool WinPolicy::consistent(int units, int kinds) const {
  const std::size_t states = std::size_t(2) * units * units;
  if (units_ != units || kinds_ != kinds || top_.size() != states || bank_offset_.size() != states) return false;
  if (!take_offset_.empty() && take_offset_.size() != states) return false;
  if (bits_.size() != (size_ + 63) / 64) return false;
  for (std::size_t s = 0; s < states; ++s)
    if (bank_offset_[s] + std::size_t(top_[s] + 1) * kinds_ > size_) return false;
  for (std::size_t s = 0; s < take_offset_.size(); ++s)
    if (take_offset_[s] + std::size_t(s % units_) * (kinds_ - 1) > size_) return false;
  return true;
}

WinStrategy::WinStrategy(const Scoring& scoring, WinPolicy solved)
    : landings(scoring.rules()),
      policy(std::move(solved)),
      reach(scoring.rules(), throw_outcomes(scoring), scoring.rules().target / kPoint + 1000,
            scoring.rules().exact_target),
      units(scoring.rules().target / kPoint) {}

}  // namespace dicesim::tenk
