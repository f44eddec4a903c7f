// 10,000's win-optimal play as the engine needs it: the throws' outcomes
// grouped, the chance of answering a reached score, and the solved
// decisions, one bit each (solved in tenk_win.h).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <iosfwd>
#include <vector>

#include "engine/huge_pages.h"
#include "engine/prefetch.h"
#include "games/tenk/tenk_rules.h"

namespace dicesim::tenk {

// One throw of some dice, its outcomes grouped: the probability of a bust,
// then groups of multisets that offer the same set of moves.
struct ThrowOption {
  int points = 0;  // in units of kPoint
  int dice = 0;    // dice for the next throw (a full hand after hot dice)
  int pending = kNoPending;
  bool hot = false;
};
struct ThrowGroup {
  double probability = 0;
  int first = 0, count = 0;  // its options: options[first .. first + count)
};
struct ThrowOutcomes {
  double bust = 0;
  std::vector<ThrowGroup> groups;
  std::vector<ThrowOption> options;
  std::vector<int> group_of;  // [multiset]: its group, -1 for a bust
};
// [dice * kDiceSlots + pending], for every reachable (dice, pending).
std::vector<ThrowOutcomes> throw_outcomes(const Scoring& scoring);

// The chance of reaching at least `need` units in one turn from a fresh
// hand, stopping only where the rules allow (not on hot dice under IV.1),
// choosing moves to maximise it; need = 0 asks for one more allowed stop.
// exact: the chance of hitting exactly `need` (passing it busts).
class ReachChances {
 public:
  ReachChances(const Rules& rules, const std::vector<ThrowOutcomes>& throws, int most, bool exact);
  double fresh(int need) const { return at(need, rules_.dice, kNoPending); }
  // The same from `dice` in hand with a pending face (a taken-over position).
  double at(int need, int dice, int pending) const {
    return reach_[(std::size_t(std::clamp(need, 0, most_)) * kDiceSlots + dice) * kDiceSlots + pending];
  }
  int most() const { return most_; }
  // The chance of reaching `need` after keeping option o of a throw.
  double after(int need, const ThrowOption& o) const;

 private:
  Rules rules_;
  int most_;
  bool exact_;
  std::vector<double> reach_;
};

// A banked position a turn may take over (IV.5): total in units.
struct Handed {
  int total = 0, dice = 0, pending = kNoPending;
};

// How a throw landed, as decisions see it: the dice and pending face of the
// next throw, or hot dice (a full hand, which IV.1 forbids banking on).
class Landings {
 public:
  explicit Landings(const Rules& rules);
  int count() const { return count_; }
  int hot() const { return count_ - 1; }
  int of(int dice, int pending, bool hot) const { return hot ? count_ - 1 : index_[dice * kDiceSlots + pending]; }
  int dice(int kind) const { return kind == hot() ? full_dice_ : dp_[kind] / kDiceSlots; }
  int pending(int kind) const { return kind == hot() ? kNoPending : dp_[kind] % kDiceSlots; }
  int states() const { return count_ - 1; }  // (dice, pending) a throw starts from: the kinds but hot

 private:
  std::array<int, kDiceSlots * kDiceSlots> index_{};
  std::vector<int> dp_;
  int count_ = 0, full_dice_ = 0;
};

// The throws' groups numbered one after another over the states a throw
// starts from, in Landings order (how the solver and WinPolicy name them):
// [state] the first group of the state, then the number of groups.
std::vector<int> first_groups(const Landings& landings, const std::vector<ThrowOutcomes>& throws);

// Under IV.4, a stretch of turn totals [from, to] over which the solved
// policy keeps option `option` (not the first) of a throw group.
struct PartRun {
  std::uint16_t group = 0, from = 0, to = 0, option = 0;
};

// The win-optimal decisions, one bit each: whether to bank where the rules
// allow it, per turn start (seat, mine, theirs) and landing (total, kind);
// past the state's top total the decision no longer depends on the total.
// Under IV.5 also whether to take over a handed position. Under IV.4 also
// the part kept of each throw group that offers a choice: mostly the first
// option, and seldom changing with the total, so kept as runs of the other
// options (1.8 million runs, 14 MiB, for seed 000, where the choices
// number 1.7e9).
class WinPolicy {
 public:
  WinPolicy() = default;
  WinPolicy(const Rules& rules, int units);
  bool banks(int seat, int mine, int theirs, int total, int kind) const {
    const std::size_t s = state(seat, mine, theirs);
    return bit(bank_offset_[s] + std::size_t(std::min(total, int(top_[s]) + 1) - 1) * kinds_ + kind);
  }
  bool takes_over(int seat, int mine, int theirs, const Handed& h, int dp) const {
    return bit(take_offset_[state(seat, mine, theirs)] + std::size_t(h.total - 1) * (kinds_ - 1) + dp);
  }
  int top(int seat, int mine, int theirs) const { return static_cast<int>(top_[state(seat, mine, theirs)]); }
  // Starts loading the decisions banks() reads at totals from..to (units)
  // for this turn start: one load of the state's offset, then prefetches,
  // which do not wait.
  void prefetch_banks(int seat, int mine, int theirs, int from, int to) const {
    const std::size_t s = state(seat, mine, theirs);
    const int last = std::min(to, int(top_[s]) + 1);
    from = std::max(from, 1);
    if (from > last) return;
    const std::size_t first_bit = bank_offset_[s] + std::size_t(from - 1) * kinds_;
    const std::size_t last_bit = bank_offset_[s] + std::size_t(last) * kinds_ - 1;
    prefetch_lines(&bits_[first_bit / 64], &bits_[last_bit / 64]);
  }
  // IV.4: the option kept (0: the first) of `group` thrown at `total`.
  int kept_part(int seat, int mine, int theirs, int total, int group) const;
  // Reads (Self non-const) or writes every member through io(member), for
  // the disk cache.
  template <class Self, class Io>
  static void transfer(Self& self, Io& io) {
    io(self.units_), io(self.kinds_), io(self.size_), io(self.top_), io(self.bank_offset_), io(self.take_offset_),
        io(self.bits_), io(self.part_first_), io(self.part_count_), io(self.parts_);
  }
  // Whether the sizes agree with each other (a file read back).
  bool consistent(int units, int kinds) const;
  std::size_t bytes() const {
    return bits_.size() * sizeof(std::uint64_t) + parts_.size() * sizeof(PartRun) +
           (part_first_.size() + part_count_.size()) * sizeof(std::uint32_t);
  }

  // Filled by the solver, state by state.
  void set_top(int seat, int mine, int theirs, int top);
  void set_bank(int seat, int mine, int theirs, int total, int kind, bool bank) {
    const std::size_t s = state(seat, mine, theirs);
    set_bit(bank_offset_[s] + std::size_t(total - 1) * kinds_ + kind, bank);
  }
  void set_take(int seat, int mine, int theirs, const Handed& h, int dp, bool take) {
    set_bit(take_offset_[state(seat, mine, theirs)] + std::size_t(h.total - 1) * (kinds_ - 1) + dp, take);
  }
  // IV.4, after set_top: kept[t * groups + g] is the option kept of group g
  // thrown at total t, for totals 0..top + 1.
  void set_parts(int seat, int mine, int theirs, const std::vector<std::uint8_t>& kept, int groups) {
    set_runs(seat, mine, theirs, runs_of(kept, top(seat, mine, theirs) + 2, groups));
  }
  // The runs set_parts keeps of kept, `totals` rows of `groups`, and keeping them.
  static std::vector<PartRun> runs_of(const std::vector<std::uint8_t>& kept, int totals, int groups);
  void set_runs(int seat, int mine, int theirs, const std::vector<PartRun>& runs);

 private:
  std::size_t state(int seat, int mine, int theirs) const {
    return (std::size_t(seat) * units_ + mine) * units_ + theirs;
  }
  bool bit(std::size_t i) const { return (bits_[i >> 6] >> (i & 63)) & 1; }
  void set_bit(std::size_t i, bool on) {
    const std::uint64_t mask = std::uint64_t(1) << (i & 63);
    bits_[i >> 6] = on ? bits_[i >> 6] | mask : bits_[i >> 6] & ~mask;
  }
  int units_ = 0, kinds_ = 0;
  std::size_t size_ = 0;  // bits in use
  std::vector<std::uint32_t> top_;
  std::vector<std::uint64_t> bank_offset_, take_offset_;               // bit offsets per state
  std::vector<std::uint64_t, HugePageAllocator<std::uint64_t>> bits_;  // MiBs read at random: huge pages
  std::vector<std::uint32_t> part_first_, part_count_;                 // per state, its runs in parts_ (IV.4)
  std::vector<PartRun> parts_;                                         // per state ordered by (group, from)
};

// Everything an optimal_win strategy plays from.
struct WinStrategy {
  WinStrategy(const Scoring& scoring, WinPolicy solved);
  Landings landings;
  WinPolicy policy;
  std::vector<ThrowOutcomes> throws;  // [dice * kDiceSlots + pending]
  std::vector<int> first_group;       // [Landings state]: its groups' numbers (first_groups)
  ReachChances reach;                 // a last turn's chance to answer (takeovers under IV.5, parts under IV.4)
  int units;                          // the target in units of kPoint

  // IV.4: the part kept of throw i (a multiset of `dice`) at `total`
  // (points): the solved one, or in a last turn (beat >= 0) the one likeliest
  // to beat `beat`. kBust if nothing scores.
  Step keep(const Scoring& scoring, int seat, int banked, int theirs, int dice, int pending, int i, int total,
            int beat) const;
  // The units a last turn from `banked` must bank to beat `beat` (points),
  // or under IV.3 to hit the target.
  static int need_to_beat(const Rules& rules, int banked, int beat);

  // Banking a throw that landed at `total` (points), where the rules allow it.
  bool banks(int seat, int mine, int theirs, int total, int dice, int pending, bool hot) const {
    return policy.banks(seat, mine / kPoint, theirs / kPoint, total / kPoint, landings.of(dice, pending, hot));
  }
};

}  // namespace dicesim::tenk
