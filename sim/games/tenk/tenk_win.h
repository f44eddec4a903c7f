// Two-player 10,000 solved for the chance of winning the whole game.
//
// A position at the start of a turn is (seat to move, the mover's banked
// score, the other's). A bank adds at least one scoring throw, so the sum of
// the banked scores never falls: positions are solved from high sums to low.
// At one pair of scores only the two turn starts are coupled (a bust hands
// the same pair to the other seat), and they are solved together by policy
// iteration with an exact 2x2 solve. The seats are kept apart: under seed
// 000's III the second seat may still answer in the round where the first
// reached the target, so the first seat may go on throwing ("pad") to raise
// the bar.
//
// Value = P(win) + P(tie) / 2, which is what the solver maximises; ties only
// arise with an exact target (IV.3), when both reach it in the same round.
// Under IV.5 a turn may start from the position the other seat banked.
// The game's max_rounds cap is ignored (it ends games of ~1e-100 probability
// under the shipped rules).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "games/tenk/tenk.h"
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
};
// [dice * 7 + pending], for every reachable (dice, pending).
std::vector<ThrowOutcomes> throw_outcomes(const Scoring& scoring);

// The chance of reaching at least `need` units in one turn from a fresh
// hand, stopping only where the rules allow (not on hot dice under IV.1),
// choosing moves to maximise it; need = 0 asks for one more allowed stop.
// exact: the chance of hitting exactly `need` (passing it busts).
class ReachTable {
 public:
  ReachTable(const Rules& rules, const std::vector<ThrowOutcomes>& throws, int most, bool exact);
  double fresh(int need) const { return at(need, rules_.dice, kNoPending); }
  // The same from `dice` in hand with a pending face (a taken-over position).
  double at(int need, int dice, int pending) const {
    return reach_[(std::size_t(std::clamp(need, 0, most_)) * 7 + dice) * 7 + pending];
  }
  int most() const { return most_; }

 private:
  Rules rules_;
  int most_;
  std::vector<double> reach_;
};

struct WinValue {
  double win = 0;  // P(the seat wins)
  double tie = 0;  // P(a tie)
  double utility() const { return win + tie / 2; }
};

struct WinSolveStats {
  std::uint64_t positions = 0;    // turn starts solved
  std::uint64_t turn_states = 0;  // (turn total, dice, pending) states visited, summed over iterations
  int most_iterations = 0;        // of policy iteration at one pair of scores
  double seconds = 0;
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
  int of(int dice, int pending, bool hot) const { return hot ? count_ - 1 : index_[dice * 7 + pending]; }
  int dice(int kind) const { return kind == hot() ? full_dice_ : dp_[kind] / 7; }
  int pending(int kind) const { return kind == hot() ? kNoPending : dp_[kind] % 7; }
  int states() const { return count_ - 1; }  // (dice, pending) a throw starts from: the kinds but hot

 private:
  std::array<int, 49> index_{};
  std::vector<int> dp_;
  int count_ = 0, full_dice_ = 0;
};

// The win-optimal decisions, one bit each: whether to bank where the rules
// allow it, per turn start (seat, mine, theirs) and landing (total, kind);
// past the state's top total the decision no longer depends on the total.
// Under IV.5 also whether to take over a handed position.
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
  std::size_t bytes() const { return bits_.size() * sizeof(std::uint64_t); }

  // Filled by the solver, state by state.
  void set_top(int seat, int mine, int theirs, int top);
  void set_bank(int seat, int mine, int theirs, int total, int kind, bool bank) {
    const std::size_t s = state(seat, mine, theirs);
    set_bit(bank_offset_[s] + std::size_t(total - 1) * kinds_ + kind, bank);
  }
  void set_take(int seat, int mine, int theirs, const Handed& h, int dp, bool take) {
    set_bit(take_offset_[state(seat, mine, theirs)] + std::size_t(h.total - 1) * (kinds_ - 1) + dp, take);
  }

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
  std::vector<std::uint64_t> bank_offset_, take_offset_;  // bit offsets per state
  std::vector<std::uint64_t> bits_;
};

// The solution: the value of every turn start for the seat to move.
// The solution: the value of every turn start for the seat to move.
class WinSolution {
 public:
  WinSolution(const Rules& rules);
  int units() const { return units_; }  // the target in units of kPoint
  // Seat `seat` to move, its banked score `mine`, the other's `theirs` (units).
  const WinValue& at(int seat, int mine, int theirs) const { return values_[index(seat, mine, theirs)]; }
  WinValue& at(int seat, int mine, int theirs) { return values_[index(seat, mine, theirs)]; }
  // The game from the start: P(first seat wins), P(second wins), P(tie).
  double first_wins() const { return at(0, 0, 0).win; }
  double tie() const { return at(0, 0, 0).tie; }
  double second_wins() const { return 1 - first_wins() - tie(); }
  WinSolveStats stats;
  WinPolicy policy;  // the decisions that reach these values

 private:
  std::size_t index(int seat, int mine, int theirs) const {
    return (std::size_t(seat) * units_ + mine) * units_ + theirs;
  }
  int units_;
  std::vector<WinValue> values_;
};

// Solves two-player 10,000 for the rules (the target a multiple of kPoint).
// Throws std::invalid_argument for rules it cannot solve.
WinSolution solve_win(const Scoring& scoring);

// A fixed strategy's decisions within a turn, for the exact odds of a game
// between two of them.
class SeatRule {
 public:
  virtual ~SeatRule() = default;
  // The highest turn total (units) whose decisions depend on the total, at
  // least `least` (past the target a strategy that never pads banks at once).
  virtual int top(int seat, int mine, int theirs, int least) const = 0;
  // Where the rules allow a bank, after a throw landed at total t (units)
  // in a turn that started at (mine, theirs): whether to bank.
  virtual bool banks(int seat, int mine, int theirs, int t, int kind) const = 0;
  // IV.5: whether to take over the position handed at the start of a turn
  // (dense state dp = Landings::of(dice, pending, false)).
  virtual bool takes_over(int seat, int mine, int theirs, const Handed& h, int dp) const = 0;
  // IV.5, in the last turn that answers a reached score: true to take over
  // whenever that makes the answer likelier, false to ask takes_over.
  virtual bool answers_optimally() const = 0;
};

// The solved decisions as a SeatRule.
class WinRule : public SeatRule {
 public:
  explicit WinRule(const WinPolicy& policy) : policy_(policy) {}
  int top(int seat, int mine, int theirs, int) const override { return policy_.top(seat, mine, theirs); }
  bool banks(int seat, int mine, int theirs, int t, int kind) const override {
    return policy_.banks(seat, mine, theirs, t, kind);
  }
  bool takes_over(int seat, int mine, int theirs, const Handed& h, int dp) const override {
    return policy_.takes_over(seat, mine, theirs, h, dp);
  }
  bool answers_optimally() const override { return true; }

 private:
  const WinPolicy& policy_;
};

// A compiled strategy (tenk.h) as a SeatRule: banks as play_turn does,
// at once when the target is reached.
class PolicyRule : public SeatRule {
 public:
  PolicyRule(const Rules& rules, const Policy& policy) : rules_(rules), policy_(policy), landings_(rules) {}
  int top(int, int, int, int least) const override { return least; }
  bool banks(int seat, int mine, int theirs, int t, int kind) const override;
  bool takes_over(int seat, int mine, int theirs, const Handed& h, int dp) const override;
  bool answers_optimally() const override { return false; }

 private:
  const Rules& rules_;
  const Policy& policy_;
  Landings landings_;
};

// The exact odds of a two-player game, seat 0 playing `first` and seat 1
// `second`: at(0, 0, 0) is the first seat's (win, tie).
WinSolution evaluate_win(const Scoring& scoring, const SeatRule& first, const SeatRule& second);

}  // namespace dicesim::tenk
