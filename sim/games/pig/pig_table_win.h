// Win-optimal Pig at a table of n seats: each seat maximises its own chance
// of winning, given that the others do the same. Two-player solvers (Neller
// and Presser) stop at two; this one takes any n the memory allows (three at
// goal 100: 3 x 10^6 turn starts).
//
// The state is whose turn it is and every seat's banked score. Holding raises
// the sum of the scores and a single 1 passes the same scores to the next
// seat, so score tuples are solved from high sums to low, the n turn starts
// of one tuple together: each seat's turn is an affine function of the next
// seat's value there (through the chance of busting), so for fixed decisions
// the cycle is solved exactly, and the decisions are improved until they are
// each seat's best reply to the values they give (policy iteration). Two 1s
// (two dice) reset a score to 0, a lower sum: those values come from the
// previous pass over every tuple, repeated until no value moves by more
// than kTableWinTolerance. A seat indifferent between holding and throwing
// holds (as the two-player solver does).
//
// Within one score tuple, best replies need not settle either (one die at
// three seats and goal 100: 270 of 10^6 tuples): a seat's best turn flips
// another's, which flips it back. There the solver finds a mixed
// equilibrium of the tuple's turns (math/turn_cycle.h): each seat's best
// turns as what busting is worth to it grows, and a profile in which some
// seats randomise one decision each (TableWin::Mix), the chance chosen so
// that the others' best replies hold. Its values are exact and no seat
// gains at the tuple by another turn (to rounding), so the whole table is
// an equilibrium where the passes settle (deviation_gains checks it).
//
// Best replies need not settle: at three seats, two dice and goal 100 the
// passes return to earlier decisions again and again (a seat's best reply
// flips another's, which flips it back). After kReturnsToCycle returns the
// solve stops, keeps the last pass's decisions, evaluates them exactly and
// says so (TableWin::cycle); deviation_gains then measures how far from an
// equilibrium they are. A best reply (one seat free, the others fixed) has
// a pure optimum: where its passes return, the accelerated jumps caused it,
// and it goes on with plain passes until they settle.
//
// The tuples of one score sum are solved in parallel (none reads another),
// so the result is the same on any number of threads. The values are held
// by score sum (TupleLayers): with one die a pass reads only higher sums,
// at most goal - 1 above, so where the whole table would pass
// kMostKeptValuesBytes the sums no longer read are dropped as the pass goes
// down (four seats at goal 100: 7 GiB held instead of 12), and the values
// kept are those of the tuples whose scores sum below the goal (the start,
// and any head start that small). The decisions are kept for every state.
//
// The same code evaluates fixed strategies: a seat given a Decision plays it
// instead of optimising, which is how a deviation from the solved play is
// valued (an equilibrium check) and how any table of fixed strategies gets
// its exact odds, whatever they watch.
#pragma once

#include <array>
#include <climits>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "games/pig/pig.h"
#include "math/score_tuples.h"
#include "math/turn_cycle.h"

namespace dicesim::pig {

constexpr int kMostTableSeats = 4;
constexpr double kTableWinTolerance = 1e-13;
// The most memory a table solve may hold (values and decisions).
constexpr std::uint64_t kMostTableWinBytes = std::uint64_t(16) << 30;
// Past this, a one-die solve keeps only the values it still reads (above).
constexpr std::uint64_t kMostKeptValuesBytes = std::uint64_t(2) << 30;

using SeatOdds = std::array<double, kMostTableSeats>;  // P(seat k wins), k < seats

// A fixed strategy's decision at turn total `total` (>= 1) with the banked
// scores `scores` (every seat's, in seat order), `seat` to move: the chance
// it holds (1 holds, 0 throws; between, at most one total a turn start).
using Decision = std::function<double(int seat, const int* scores, int total)>;

class TableWin {
 public:
  int seats() const { return seats_; }
  int goal() const { return goal_; }
  // Seat `mover` to start a turn with the banked scores `scores`; a
  // logic_error where that value was dropped (has_value).
  const SeatOdds& value(int mover, const int* scores) const;
  bool has_value(const int* scores) const { return !layers_[std::size_t(TupleLayers::sum(scores, seats_))].empty(); }
  // Where values were dropped: those kept are of tuples summing below this.
  int kept_below_sum() const { return kept_below_sum_; }
  // Whether the seat to move holds at turn total `total` (1 .. goal - own
  // score - 1); where it randomises, what the pure decisions there were.
  bool holds(int mover, const int* scores, int total) const;
  // The chance it holds there: holds(), or between 0 and 1 where it randomises.
  double hold_chance(int mover, const int* scores, int total) const;
  // This table's decisions (hold_chance), as a Decision (for evaluating a deviation of
  // another seat). It refers to this table, which must outlive it.
  Decision decision() const;
  // One turn of seat `mover` at the banked scores `scores` (every seat's, in
  // seat order), throw by throw by the solved decisions: the engine's play of
  // optimal_win with "seats". A bit per decision, found from the state once
  // a turn: no allocation and no call per throw. Returns the new banked
  // score, or the final score (>= goal) if the turn reached the goal, as
  // play_turn does. Where the seat randomises, it draws
  // dice.chance() (uniform in [0, 1)) at that total.
  template <class Stream>
  int play_turn(int mover, const int* scores, Stream& dice) const {
    const int score = scores[mover], room = goal_ - score;
    const std::size_t at = state(mover, scores), first = at * std::size_t(goal_);
    int mixed_total = 0;  // total 0 is never decided: no mix
    double hold = 0;
    if (const Mix* mix = mix_at(at)) mixed_total = mix->total, hold = mix->hold;
    for (int total = 0;;) {
      const int points = dice.next();
      if (points <= 0) return points == kBust ? score : 0;
      total += points;
      if (total >= room) return score + total;  // the goal: no decision is stored there
      if (total == mixed_total) {
        if (dice.chance() < hold) return score + total;
        continue;
      }
      const std::size_t bit = first + std::size_t(total);
      if ((hold_bits_[bit / 64] >> (bit % 64)) & 1) return score + total;
    }
  }
  // Where a seat randomises: its state (mover and tuple), the turn total
  // and the chance it holds there.
  struct Mix {
    std::uint64_t state = 0;
    int total = 0;
    double hold = 0;
  };
  // Set where the passes cycled instead of settling (see above).
  struct Cycle {
    int returns = 0;            // passes whose decisions were those of a recent pass (PassHistory)
    std::uint64_t flipped = 0;  // decisions the last pass changed
    double change = 0;          // how far the last pass moved a value
  };
  std::optional<Cycle> cycle;
  // Score tuples whose seats' decisions, improved in turn (each seat's best
  // reply to the others' values there), did not settle in the last pass
  // (they returned to earlier decisions, or changed for kRoundsAtATuple
  // rounds) and where no equilibrium of the tuple's turns was found on the
  // seats' paths either. Where any did not, the values are those of the
  // last round's decisions, exactly, and they are not known to be an
  // equilibrium (deviation_gains).
  std::size_t unsettled_tuples = 0;
  // Score tuples whose rounds of best replies cycled, where an equilibrium
  // of the tuple's turns was found on the seats' best-turn paths instead;
  // of those, the ones where some seat randomises (at the others, a pure
  // profile the rounds passed over: all seats replying at once can
  // oscillate around it); and the most a seat gains at any of them by
  // another turn (rounding).
  std::size_t cycled_tuples = 0, mixed_tuples = 0;
  double most_cycled_gain = 0;
  bool passes_settled = true;  // false: two dice's passes stopped at their limit still moving the values
  int passes = 0;              // sweeps over every tuple (two dice: resets reach lower sums)
  std::uint64_t turn_starts() const { return tuples_ * std::size_t(seats_); }
  double seconds = 0;

 private:
  friend class TableWinSolver;
  std::size_t tuple(const int* scores) const;
  // The state's mix, or null (a bit per state says whether to look).
  const Mix* mix_at(std::size_t state) const;
  void set_mixes(std::vector<Mix> mixes);
  std::size_t state(int mover, const int* scores) const { return std::size_t(mover) * tuples_ + tuple(scores); }
  SeatOdds& cell(int mover, const int* scores, int sum) {
    return layers_[std::size_t(sum)][layering_.rank(scores, sum) * std::size_t(seats_) + std::size_t(mover)];
  }
  int seats_ = 0, goal_ = 0;
  std::size_t tuples_ = 0;
  TupleLayers layering_{1, 1};
  std::vector<std::vector<SeatOdds>> layers_;  // [score sum][rank * seats + mover]; empty: dropped
  int kept_below_sum_ = INT_MAX;
  std::vector<std::uint64_t> hold_bits_;     // per state, per total 0..goal-1
  std::vector<Mix> mixes_;                   // by state
  std::vector<std::uint64_t> mixed_states_;  // a bit per state with a mix; empty: none
};

// Whether a solve of `seats` seats drops the values it no longer reads.
bool drops_values(const Rules& rules, int seats);
// What a solve of `seats` seats holds in memory, from the rules alone (a
// deviation's reply, which keeps no decisions: `decisions` false).
std::uint64_t table_win_bytes(const Rules& rules, int seats, bool decisions = true);
// Why a table of `seats` cannot be solved under these rules (seat count, memory), or empty.
std::string table_win_refusal(const Rules& rules, int seats);
// Charges the memory budget (engine/memory_budget.h) for the table solve of
// `seats` once, before it is solved: `what` asked for it.
void charge_table_win(const Rules& rules, int seats, const std::string& what);

// Solves the table; `fixed[k]`, where given and set, plays seat k instead of
// optimising. Throws InputError where table_win_refusal says why.
// keep_decisions false (one die; a deviation's reply, read at the start
// only): no decisions are stored, and holds() may not be asked.
// drop_values: whether values no longer read are dropped (one die;
// default: past kMostKeptValuesBytes).
struct TableWinOptions {
  bool keep_decisions = true;
  std::optional<bool> drop_values;
};
TableWin solve_table_win(const Rules& rules, int seats, const std::vector<Decision>& fixed = {},
                         const TableWinOptions& options = {});

// The most rounds of decisions one score tuple gets in a pass (they stop
// sooner once they settle, or return to an earlier round's decisions).
constexpr int kRoundsAtATuple = 1000;

// How the passes' decisions went: a pass whose decisions (a hash of them)
// are those of one of the last RoundHistory::kRecall passes, and not the
// one just before, is a return (the solves that settle, at goals 60 and
// 80, showed none; the pass that ends a solve is never asked).
class PassHistory {
 public:
  static constexpr int kReturnsToCycle = 3;
  // Records a pass's decisions; true once they have returned kReturnsToCycle times.
  bool cycles_after(std::uint64_t decisions_hash);
  int returns() const { return returns_; }

 private:
  RoundHistory passes_;
  std::optional<std::uint64_t> last_;
  int returns_ = 0;
};

// What each seat gains, from the start, by switching alone to its best
// reply to the others' decisions in `table` (one solve per seat): 0 (to
// rounding) at an equilibrium; NaN where the best reply's passes did not
// settle within the most passes. (A best reply's passes never stop at a
// cycle: where its accelerated passes return, it goes on with plain ones.)
std::vector<double> deviation_gains(const Rules& rules, const TableWin& table);

// hold_at h as a Decision: holds once the turn total reaches h.
Decision hold_at_decision(int total);
// A stationary policy (one phase) as a Decision at a table of `seats`: its
// row for the seat's score and the highest score among the others, as the
// engine plays it. It refers to the policy, which must outlive it.
Decision policy_decision(const Policy& policy, int seats);

}  // namespace dicesim::pig
