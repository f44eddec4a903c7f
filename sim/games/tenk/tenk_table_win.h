// Win-optimal 10,000 at a table of n seats (three, or as many as the memory
// allows): each seat maximises its own chance of winning, given that the
// others do the same.
//
// The race: a turn start is the seat to move and every seat's banked score
// (units of kPoint); within the turn the state is (turn total, landing kind:
// the dice and pending face of the next throw, or hot dice). A bank raises
// the sum of the scores and a bust hands the same scores to the next seat,
// so score tuples are solved from high sums to low, the n turn starts of a
// tuple together (each turn affine in the next seat's value there through
// the bust, the cycle closed exactly, the decisions improved by policy
// iteration until each is its seat's best reply), as Pig's table solver
// (pig_table_win.h) does.
//
// What makes 10,000 to 10,000 (2.4e7 turn starts) take minutes: the tuples
// of one sum are solved in parallel (each reads only higher sums); a
// state's numbers sit side by side in lanes of a fixed width
// (tenk_table_lanes.h), summed over a throw's outcomes in vector registers
// (tenk_table_kernel.cpp); policy iteration starts from the solved values of
// a neighbouring tuple, and a later round keeps each row of a turn whose
// decisions stay best at the new bust value (an interval per row), so most
// tuples cost one pass per seat and a check; a mover's turn starts are
// numbered from the previous seat's score, so the values a bank reads lie
// side by side; the answers are solved first, in parallel, and dropped
// after the race; the decisions kept for play are runs (DecisionRuns).
//
// The end game: a seat that banks a score at or past the target ("the
// reacher") ends the race; the seats that answer (the rest of the round, or
// with last_turn every other seat) each play one last turn, in seat order,
// against the best score so far. An answer counts only if it beats that
// score (it never banks a tie, as the two-player solver and the play loop's
// chase); the last answerer therefore throws until it beats the best
// (ReachChances), and an earlier one, once past the best, may throw on to
// raise the bar for those after it, as the reacher itself may ("padding").
// Each answer is solved once per (answerers still to play, their scores),
// for every best score at once: the turn's values with banking allowed do
// not depend on the best score, and the chance of first passing each best
// score follows from one forward pass. Scores past the horizon, where a
// fresh turn's chance of beating them is below 1e-16, are taken as won.
//
// The tie rule: a seat's value is P(it wins alone) + the sum over ties it
// shares of P(that tie) / (the seats tied). Ties arise only with an exact
// target (IV.3), where every answerer that hits the target ties the reacher.
// A seat indifferent between banking and throwing on banks.
//
// Where the rounds of best replies at a tuple cycle (a seat's best turn
// flips another's, which flips it back), the tuple's turns are solved as a
// game of their own (math/turn_cycle.h): each seat's best plans as its bust
// value grows, and a profile on them at which no seat gains, some seats
// randomising between two plans at the turn's start (TableWin::Mix, the
// other plan kept beside the decisions). Where every tuple settled so, the
// table is an equilibrium (stats says; `solve` checks it by each seat's
// best reply).
//
// Fixed seats (FixedSeat) play a given strategy instead of optimising,
// which is how a deviation from the solved play is valued (the others keep
// their solved decisions), and how a table of the solved play and other
// strategies is valued for `check`.
//
// Places (solve_table_places): at a table of three whose seats all play
// fixed, the same race in as many lanes follows each seat's chance of
// finishing last (and, with ties, first) instead of its utility: at a
// reach, the answers' chances of beating in turn (tenk_table_answers.h)
// and the scores banked below the target rank every seat. `check` compares
// every place with it.
//
// The house rule bank_at_target (a turn banks as soon as it reaches the
// target, in a last turn as soon as it beats the best) leaves no padding.
//
// Not taken: IV.1 (no stop on hot dice), IV.4 (partial setting aside) and
// IV.5 (continuing the previous position); table_win_refusal says why.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/rng.h"
#include "games/tenk/tenk.h"
#include "games/tenk/tenk_decision_runs.h"
#include "games/tenk/tenk_rules.h"
#include "games/tenk/tenk_table_lanes.h"
#include "games/tenk/tenk_win_policy.h"

namespace dicesim::tenk {

// The most memory a table solve may hold (values, answers, decisions).
constexpr std::uint64_t kMostTableWinBytes = std::uint64_t(6) << 30;

// Each seat's chance of finishing last (strictly below both others) and,
// where ties can happen (IV.3), first (alone or shared), at a table of three.
struct TablePlaceOdds {
  SeatNumbers last{}, first{};

  // Seat k's chances of first, second and last place, given its chance of
  // winning alone `win` (a win solve's): where ties can happen (`ties`) the
  // first is this solve's, which counts shared wins; second is what is left.
  std::array<double, 3> of(int k, double win, bool ties) const {
    const double top = ties ? first[std::size_t(k)] : win, bottom = last[std::size_t(k)];
    return {top, std::max(0.0, 1 - top - bottom), bottom};
  }
};

// The progress label of a table solve's stage: "10,000 win-optimal table
// of 3: score sums", or "places at a table of 3" for a place solve.
inline std::string table_solve_label(bool places, int seats, std::string_view stage) {
  return std::string("10,000 ") + (places ? "places at a table of " : "win-optimal table of ") + std::to_string(seats) +
         ": " + std::string(stage);
}

// A fixed seat's race decision after a throw landed at turn total `total`
// (units) as Landings kind `kind`, `scores` every seat's banked score
// (units): true banks. Asked for every total up to the seat's top; only
// the answers where the rules allow a bank are used. Fixed seats' functions
// are called from several threads at once (the solve is parallel).
using TableDecision = std::function<bool(int seat, const int* scores, int total, int kind)>;
// An answer's decision once past the best score: answer `answer` (0: the
// first after `reacher`) at turn total `total`, kind `kind`; true banks.
// Only the scores of the answerers from `answer` on are set.
using AnswerDecision = std::function<bool(int reacher, const int* scores, int answer, int total, int kind)>;

struct FixedSeat {
  TableDecision banks;
  // The highest turn total at which the seat may still throw on (above it,
  // it banks); empty: it banks at once once the target is reached.
  std::function<int(int seat, const int* scores)> top;
  // Optional, for speed: every decision of the seat's turn at `scores` up to
  // `top` at once, into banks[(t - 1) * kinds + kind] (as `banks` would
  // answer each).
  std::function<void(int seat, const int* scores, int top, std::uint8_t* banks)> decide_turn;
  // How the seat answers a reached score once past the best: these
  // decisions; empty: win-optimally (padding where it pays) with
  // answers_optimally, else it banks at once.
  AnswerDecision answer_banks;
  bool answers_optimally = false;
  // Optional: where the seat randomises at a turn start (the table solve's
  // mixed play, below), the chance it plays another plan there, and that
  // plan's top and decisions (as top and decide_turn give its first).
  struct Alternative {
    double chance = 0;
    int top = 0;
    std::function<void(int top, std::uint8_t* banks)> decide;
  };
  std::function<std::optional<Alternative>(int seat, const int* scores)> alternative;
};

struct TableWinStats {
  std::uint64_t turn_starts = 0;
  std::uint64_t answers = 0;  // answer turns solved (per answerers left and their scores)
  int horizon = 0;            // units past the target followed (a fresh beat beyond it: < 1e-16)
  int most_iterations = 0;    // of policy iteration at one tuple
  // Score tuples whose rounds of best replies cycled (returned to earlier
  // decisions), where an equilibrium of the tuple's turns was found on the
  // seats' best-turn paths instead (math/turn_cycle.h); of those, the ones
  // where some seat randomises between two plans at its turn start; and
  // the most a seat gains at any of them by another turn (rounding).
  std::uint64_t cycled_tuples = 0, mixed_tuples = 0;
  double most_cycled_gain = 0;
  // Score tuples whose rounds neither settled nor found such an
  // equilibrium: their values are the last round's, not known to be an
  // equilibrium's.
  std::uint64_t unsettled_tuples = 0;
  double seconds = 0;
  std::uint64_t peak_bytes = 0;
  std::uint64_t decision_bytes = 0;  // the decisions kept for play (DecisionRuns), where they are
};

// Which answer a reached score calls for: per reacher its answerers in the
// order they play, and answer i of them numbered by the scores of answerers
// i.. (the answers of one (reacher, i) contiguous).
class AnswerIndex {
 public:
  AnswerIndex() = default;
  AnswerIndex(int seats, int units, bool last_turn);
  const std::vector<int>& answerers(int reacher) const { return answerers_[std::size_t(reacher)]; }
  std::size_t count() const { return count_; }
  std::size_t first(int reacher, int i) const { return first_[std::size_t(reacher)][std::size_t(i)]; }
  std::size_t size(int reacher, int i) const;  // units ^ (answerers from i on)
  std::size_t index(int reacher, int i, const int* scores) const;
  // The scores of answerers i.. of the n-th answer of (reacher, i).
  void scores_of(int reacher, int i, std::size_t n, int* scores) const;
  static std::uint64_t count(int seats, int units, bool last_turn);

 private:
  int units_ = 0;
  std::vector<std::vector<int>> answerers_;      // [reacher]
  std::vector<std::vector<std::size_t>> first_;  // [reacher][i]
  std::size_t count_ = 0;
};

class TableWin {
 public:
  int seats() const { return seats_; }
  int units() const { return units_; }
  int kinds() const { return kinds_; }  // Landings kinds, as banks() takes them
  // Seat `mover` to start a turn at banked scores `scores`.
  TableWinOdds value(int mover, const int* scores) const;     // of a win solve
  TablePlaceOdds places(int mover, const int* scores) const;  // of a place solve
  TableWinOdds start() const;
  double tie() const;  // P(the game ends in a shared win), from the start
  // With keep_decisions: whether `mover` banks in the race at turn total t
  // (units) landing as `kind`, where the rules allow a bank.
  bool banks(int mover, const int* scores, int total, int kind) const {
    return decisions_.banks(state(mover, scores), total, kind);
  }
  // Where the seat to move randomises (mixed play where best replies cycle):
  // with chance `chance` it plays plan `plan` instead of banks().
  struct Mix {
    std::size_t state = 0;
    double chance = 0;
  };
  // The plan `mover` plays this turn: -1 its kept decisions (banks), else
  // an alternative plan (alternative_banks), drawn from `rng` where it mixes.
  int plan(int mover, const int* scores, Rng& rng) const;
  // The chance `mover` plays its other plan at these scores; 0 where it does not mix.
  double mix_chance(int mover, const int* scores) const {
    const int mix = mixes_.empty() ? -1 : mix_of(state(mover, scores));
    return mix < 0 ? 0 : mixes_[std::size_t(mix)].chance;
  }
  bool alternative_banks(int plan, int total, int kind) const {
    return alternatives_.banks(std::size_t(plan), total, kind);
  }
  // Whether the answerer `answer` (0: the first after the reacher `reacher`)
  // banks at turn total t, kind `kind`, once its score is past the best.
  bool answer_banks(int reacher, const int* scores, int answer, int total, int kind) const {
    return answer_decisions_.banks(answers_.index(reacher, answer, scores), total, kind);
  }
  // The seats that answer `reacher`, in the order they play.
  const std::vector<int>& answerers(int reacher) const { return answers_.answerers(reacher); }
  // The Landings kind of a throw that left `dice` for the next throw with a
  // pending face (hot: it used every die), as banks() takes it.
  int kind(int dice, int pending, bool hot) const { return landings_.of(dice, pending, hot); }
  // This table's play, race and answers, as a fixed seat (it refers to this
  // table, solved with keep_decisions).
  FixedSeat fixed_seat() const;
  TableWinStats stats;

 private:
  template <int L>
  friend class TableWinSolver;
  std::size_t state(int mover, const int* scores) const;
  // The index of the state's mix in mixes_, or -1.
  int mix_of(std::size_t state) const;
  int seats_ = 0, units_ = 0, kinds_ = 0;
  bool places_ = false;  // a place solve: values_ hold TablePlaceOdds
  LaneLayout layout_;
  Landings landings_{Rules{}};
  std::size_t tuples_ = 0;
  std::vector<double> values_;  // per state, layout_.stored() numbers
  DecisionRuns decisions_;      // per state, with keep_decisions
  AnswerIndex answers_;
  DecisionRuns answer_decisions_;  // per answer, with keep_decisions
  std::vector<Mix> mixes_;         // by state
  DecisionRuns alternatives_;      // [i]: the other plan of mixes_[i]
};

// What a solve of `seats` seats holds, from the rules alone.
std::uint64_t table_win_bytes(const Rules& rules, int seats, bool keep_decisions = false);
// Why these rules or seats cannot be solved, in one line; nullopt if they can.
std::optional<std::string> table_win_refusal(const Rules& rules, int seats, bool keep_decisions = false);
// Charges the memory budget (engine/memory_budget.h) for the table solve
// once, before it is solved: `what` asked for it.
void charge_table_win(const Rules& rules, int seats, bool keep_decisions, const std::string& what);

// Solves the table; fixed[k], where given and set, plays seat k. Throws
// InputError (table_win_refusal) before allocating. Progress on stderr
// (progress.h), which also stops the solve with Interrupted.
TableWin solve_table_win(const Scoring& scoring, int seats, const std::vector<std::optional<FixedSeat>>& fixed = {},
                         bool keep_decisions = false);

// The places of a table of three, seat k playing fixed[k], seat 0 to move
// at scores `start` (units). Throws InputError as solve_table_win does.
TablePlaceOdds solve_table_places(const Scoring& scoring, const std::vector<FixedSeat>& fixed, const int* start);

// bank_at `points` (the family's play, chase on) as a fixed seat: banks once
// the turn total reaches `points` or the target is reached.
FixedSeat bank_at_seat(const Rules& rules, int points);

// A strategy that plays by its tables (not optimal_win), chase on, as a
// fixed seat: its play in the engine (after_throw).
FixedSeat policy_seat(const Rules& rules, const Policy& policy);

// A turn of `seat` playing the table solve `table` (optimal_win with
// "seats"): its race decisions, or its answer once someone has reached the
// target. Throw by throw (the game loop's, tenk_game_loop.h).
TurnResult play_solved_table_turn(const Scoring& scoring, const TableWin& table, int seat, const GameState& g,
                                  Rng& rng);

}  // namespace dicesim::tenk
