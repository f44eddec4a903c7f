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
#include <optional>
#include <string>
#include <vector>

#include "config/json_input.h"
#include "games/tenk/tenk.h"
#include "games/tenk/tenk_rules.h"
#include "games/tenk/tenk_win_policy.h"

namespace dicesim::tenk {

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
  std::uint64_t peak_bytes = 0;  // the process's peak resident memory when the solve ended (Linux)
  // Not stored in the cache: when the cache file read was written (Unix
  // time), 0 for a solve of this process.
  std::int64_t cached_at = 0;
};

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
  // IV.5, when asked for: the value of a turn start handed a position (the
  // better of a fresh hand and taking it over); not kept in the cache.
  std::vector<WinValue> handed_values;
  std::vector<std::size_t> handed_offset;  // per turn start, of totals 1..theirs by Landings state
  const WinValue& handed_value(int seat, int mine, int theirs, const Handed& h, const Landings& landings) const {
    return handed_values[handed_offset[index(seat, mine, theirs)] + std::size_t(h.total - 1) * landings.states() +
                         landings.of(h.dice, h.pending, false)];
  }

  // Whether a solution read back (the cache) has a value, a probability,
  // for every turn start of `units`: what at() may read.
  bool consistent(int units) const;

  template <class Self, class Io>
  static void transfer(Self& self, Io& io) {
    io(self.units_), io(self.values_), io(self.stats.positions), io(self.stats.turn_states),
        io(self.stats.most_iterations), io(self.stats.seconds), io(self.stats.peak_bytes);
    WinPolicy::transfer(self.policy, io);
  }

 private:
  std::size_t index(int seat, int mine, int theirs) const {
    return (std::size_t(seat) * units_ + mine) * units_ + theirs;
  }
  int units_;
  std::vector<WinValue> values_;
};

// The limits of the two-player solver, checked before it allocates:
// The largest target optimal_win plays (a solve of about a minute here).
constexpr int kMostWinTarget = 20000;
// The largest target at which a game between two fixed strategies is
// evaluated (check): its odds are kept for every pair of banked scores,
// (target / 50)^2 of them a seat, about 0.2 s a pair at 10000 growing as
// the square (some 5 s here).
constexpr int kMostEvaluatedTarget = 50000;
// The most memory a solve or an evaluation may hold: under IV.5 it keeps a
// value for every position that may be handed over, (target / 50)^3 times
// the (dice, pending) states (about 0.8 GB at 10000).
constexpr std::uint64_t kMostWinBytes = std::uint64_t(4) << 30;
// What a solve or an evaluation holds, from the rules alone.
std::uint64_t win_solver_bytes(const Rules& rules);
// Charges the memory budget (engine/memory_budget.h) for the two-player
// solve once, before it is solved (or read from its cache): `what` asked.
void charge_win_solve(const Rules& rules, const std::string& what);
// Why solve_win (optimal_win) or evaluate_win and game_shape (playing_to_win
// false) cannot take these rules, in one line naming the rule and the limit;
// nullopt within the limits.
std::optional<std::string> win_solver_refusal(const Rules& rules, bool playing_to_win);

// Solves two-player 10,000 for the rules (the target a multiple of kPoint).
// Throws InputError (win_solver_refusal) for rules beyond the limits, before
// allocating, and std::invalid_argument for rules it cannot solve.
// Progress goes to stderr (progress.h), which also stops the solve with
// Interrupted on a stop request. keep_handed: keep handed_values (IV.5;
// tests).
WinSolution solve_win(const Scoring& scoring, bool keep_handed = false);

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
  // Whether banks() reads the other seat's score (if not, a turn's outcome
  // is worked out once per own score: a fast path).
  virtual bool reads_theirs() const = 0;
  // Whether a last turn that answers a reached score throws on until it
  // beats it (else the strategy plays its usual turn, banking at a total
  // that may not beat the score).
  virtual bool chases() const = 0;
  // IV.4: the value the strategy gives a throw's part set aside, landing
  // at turn total `after` (units) as `kind`; of a throw's parts it keeps
  // the first (in the order of Scoring's moves) of the highest value. The
  // seat's banked score enters only by its regime (regime_of: IV.2).
  virtual double part_value(int seat, int regime, int after, int kind) const = 0;
  // IV.4: the option kept (0: the first) of throw group `group` (numbered
  // as first_groups does) thrown at total t, where the strategy stores it
  // rather than valuing the parts.
  virtual std::optional<int> solved_part(int /*seat*/, int /*mine*/, int /*theirs*/, int /*t*/, int /*group*/) const {
    return std::nullopt;
  }
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
  bool reads_theirs() const override { return true; }
  bool chases() const override { return true; }
  // Never asked: solved_part answers.
  double part_value(int, int, int, int) const override { return 0; }
  std::optional<int> solved_part(int seat, int mine, int theirs, int t, int group) const override {
    return policy_.kept_part(seat, mine, theirs, t, group);
  }

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
  bool reads_theirs() const override { return false; }
  bool chases() const override { return policy_.chase; }
  double part_value(int seat, int regime, int after, int kind) const override;

 private:
  const Rules& rules_;
  const Policy& policy_;
  Landings landings_;
};

// The exact odds of a two-player game, seat 0 playing `first` and seat 1
// `second`: at(0, 0, 0) is the first seat's (win, tie). Both throw
// InputError beyond the limits (win_solver_refusal).
WinSolution evaluate_win(const Scoring& scoring, const SeatRule& first, const SeatRule& second);

// What else the exact odds of a two-player game know, per seat; an empty
// vector where it is not known.
struct GameShape {
  // The score of the seat's first turn, by units (0: a bust). The second
  // seat's is not known under IV.5 (it may take over the first's position).
  std::array<std::vector<double>, 2> first_turn;
  // The turns the seat plays, by count; games still running after
  // max_rounds rounds in the last bin (max_rounds + 1). Not known under
  // IV.5, nor with optimal_win above a target of 4,000 (its turns end
  // differently at every pair of scores: seconds a pair to follow).
  std::array<std::vector<double>, 2> turns;
  // At most this chance that max_rounds cuts a game (the exact odds of who
  // wins play on past it); unknown where no seat's turns can be followed
  // alone and the game's turns are not known either.
  std::optional<double> cut_at_most;
};
GameShape game_shape(const Scoring& scoring, const SeatRule& first, const SeatRule& second);

}  // namespace dicesim::tenk
