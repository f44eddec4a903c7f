#include "games/tenk/tenk_win_policy.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace dicesim::tenk {

std::vector<ThrowOutcomes> throw_outcomes(const Scoring& scoring) {
  const Rules& rules = scoring.rules();
  std::vector<ThrowOutcomes> all(kDiceSlots * kDiceSlots);
  for (int dice = 1; dice <= rules.dice; ++dice)
    for (int pending = 0; pending < rules.pending_faces(); ++pending) {
      if (!rules.reachable(dice, pending)) continue;
      ThrowOutcomes& out = all[dice * kDiceSlots + pending];
      out.group_of.assign(scoring.multisets(dice), -1);
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
        out.group_of[i] = it->second;
      }
    }
  return all;
}

std::vector<int> first_groups(const Landings& landings, const std::vector<ThrowOutcomes>& throws) {
  std::vector<int> first{0};
  for (int s = 0; s < landings.states(); ++s)
    first.push_back(first.back() +
                    static_cast<int>(throws[landings.dice(s) * kDiceSlots + landings.pending(s)].groups.size()));
  return first;
}

double ReachChances::after(int need, const ThrowOption& o) const {
  const int left = need - o.points;
  if (exact_) return left == 0 ? 1.0 : left < 0 ? 0.0 : at(left, o.dice, o.pending);
  if (left <= 0 && !(o.hot && rules_.no_stop_on_hot_dice)) return 1.0;
  return at(std::max(left, 0), o.dice, o.pending);
}

ReachChances::ReachChances(const Rules& rules, const std::vector<ThrowOutcomes>& throws, int most, bool exact)
    : rules_(rules), most_(most), exact_(exact), reach_(std::size_t(most + 1) * kDiceSlots * kDiceSlots, 0.0) {
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

int WinPolicy::kept_part(int seat, int mine, int theirs, int total, int group) const {
  if (part_first_.empty()) return 0;
  const std::size_t s = state(seat, mine, theirs);
  total = std::min(total, static_cast<int>(top_[s]) + 1);
  const PartRun* begin = parts_.data() + part_first_[s];
  const PartRun* end = begin + part_count_[s];
  // The last run starting at or before (group, total).
  const auto starts_after = [](std::pair<int, int> key, const PartRun& run) {
    return key < std::pair<int, int>(run.group, run.from);
  };
  const PartRun* next = std::upper_bound(begin, end, std::pair(group, total), starts_after);
  if (next == begin) return 0;
  const PartRun& run = next[-1];
  return run.group == group && total <= run.to ? run.option : 0;
}

std::vector<PartRun> WinPolicy::runs_of(const std::vector<std::uint8_t>& kept, int totals, int groups) {
  if (totals > 0xffff || groups > 0xffff) throw std::length_error("too many turn totals or throw groups for IV.4");
  std::vector<PartRun> runs;
  for (int g = 0; g < groups; ++g)
    for (int t = 0; t < totals;) {
      const int option = kept[std::size_t(t) * groups + g];
      int end = t + 1;
      while (end < totals && kept[std::size_t(end) * groups + g] == option) ++end;
      if (option != 0)
        runs.push_back({static_cast<std::uint16_t>(g), static_cast<std::uint16_t>(t),
                        static_cast<std::uint16_t>(end - 1), static_cast<std::uint16_t>(option)});
      t = end;
    }
  return runs;
}

void WinPolicy::set_runs(int seat, int mine, int theirs, const std::vector<PartRun>& runs) {
  const std::size_t s = state(seat, mine, theirs);
  if (part_first_.empty()) part_first_.assign(top_.size(), 0), part_count_.assign(top_.size(), 0);
  part_first_[s] = static_cast<std::uint32_t>(parts_.size());
  parts_.insert(parts_.end(), runs.begin(), runs.end());
  if (parts_.size() > 0xffffffffu) throw std::length_error("too many part runs for IV.4");
  part_count_[s] = static_cast<std::uint32_t>(parts_.size() - part_first_[s]);
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
  if (part_first_.empty()) return part_count_.empty() && parts_.empty();
  if (part_first_.size() != states || part_count_.size() != states) return false;
  for (std::size_t s = 0; s < states; ++s)
    if (std::size_t(part_first_[s]) + part_count_[s] > parts_.size()) return false;
  return true;
}

WinStrategy::WinStrategy(const Scoring& scoring, WinPolicy solved)
    : landings(scoring.rules()),
      policy(std::move(solved)),
      throws(throw_outcomes(scoring)),
      first_group(first_groups(landings, throws)),
      reach(scoring.rules(), throws, scoring.rules().target / kPoint + 1000, scoring.rules().exact_target),
      units(scoring.rules().target / kPoint) {}

int WinStrategy::need_to_beat(const Rules& rules, int banked, int beat) {
  if (rules.exact_target) return (rules.target - banked) / kPoint;
  return std::max((beat - banked) / kPoint + 1, (rules.bank_minimum_at(banked) + kPoint - 1) / kPoint);
}

Step WinStrategy::keep(const Scoring& scoring, int seat, int banked, int theirs, int dice, int pending, int i,
                       int total, int beat) const {
  const ThrowOutcomes& outcomes = throws[dice * kDiceSlots + pending];
  const int group = outcomes.group_of[i];
  if (group < 0) return kBust;
  const ThrowGroup& g = outcomes.groups[group];
  int option = 0;
  if (g.count > 1 && beat < 0) {
    const int number = first_group[landings.of(dice, pending, false)] + group;
    option = policy.kept_part(seat, banked / kPoint, theirs / kPoint, total / kPoint, number);
  } else if (g.count > 1) {  // a last turn: the part likeliest to beat the score, the first of equals
    const int need = need_to_beat(scoring.rules(), banked, beat);
    double best = -1;
    for (int k = 0; k < g.count; ++k)
      if (const double p = reach.after(need - total / kPoint, outcomes.options[g.first + k]); p > best)
        best = p, option = k;
  }
  // The first move that keeps that option (the group's options are its
  // moves' outcomes, repeats dropped).
  const ThrowOption& kept = outcomes.options[g.first + option];
  const Move* moves = scoring.moves(dice, pending, i);
  for (int m = 0; m < scoring.move_count(dice, pending, i); ++m) {
    const Step step = scoring.step(dice, moves[m]);
    if (step_points(step) == kept.points * kPoint && step_dice(step) == kept.dice &&
        step_pending(step) == kept.pending && step_hot(step) == kept.hot)
      return step;
  }
  return kBust;  // not reached: every option is some move's
}

}  // namespace dicesim::tenk
