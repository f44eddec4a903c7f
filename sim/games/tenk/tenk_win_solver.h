// The two-player win solve of tenk_win.h at work (Solver), shared by the
// files that carry it out, and by no other: tenk_win_solver.cpp sets it up
// and runs the passes over the score sums (each pair of scores solved by
// policy iteration, its decisions recorded into the policy);
// tenk_win_turn.cpp works out one turn's value, linear in what a bust hands
// over; tenk_win_answers.cpp values a bank that reaches the target (the
// other seat's answer, a chase); tenk_win_shape.cpp follows how a fixed
// strategy's turns end, and the game's shape.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <tuple>
#include <vector>

#include "games/tenk/tenk.h"
#include "games/tenk/tenk_rules.h"
#include "games/tenk/tenk_win.h"
#include "games/tenk/tenk_win_policy.h"
#include "math/race.h"

namespace dicesim::tenk::win_solve {

inline int units_up(int points) { return (points + kPoint - 1) / kPoint; }

// A turn's value under a fixed policy, linear in what a bust hands over:
// (win, tie) + bust * (the mover's win and tie after a bust).
struct Linear {
  double win = 0, tie = 0, bust = 0;
  double utility(double bust_utility) const { return win + tie / 2 + bust * bust_utility; }
  void add(double p, const Linear& v) { win += p * v.win, tie += p * v.tie, bust += p * v.bust; }
};

// The values of decisions stay optimal while the bust value's utility
// stays inside [low, high]: then a second pass would find the same policy.
struct Stability {
  double low = -1, high = 2;
  // A choice of `chosen` over `other` made at bust utility u.
  void keep(const Linear& chosen, const Linear& other) {
    const double slope = chosen.bust - other.bust;
    if (slope == 0) return;
    const double gap = other.win + other.tie / 2 - chosen.win - chosen.tie / 2;  // the crossing is gap / slope
    // Most choices leave the bounds as they are: a product tells so well
    // clear of rounding, and only a crossing that may move a bound is
    // divided out (the same bounds as dividing every time).
    const double bound = slope > 0 ? low : high, scaled = bound * slope;
    constexpr double kMargin = 4 * std::numeric_limits<double>::epsilon();
    if (std::abs(scaled) > kFarFromUnderflow && gap < scaled - kMargin * std::abs(scaled)) return;
    const double cross = gap / slope;
    if (slope > 0)
      low = std::max(low, cross);
    else
      high = std::min(high, cross);
  }
  static constexpr double kFarFromUnderflow = 1e-280;
  bool holds(double u) const { return u >= low && u <= high; }
  // Whether a choice made at u by a margin of `ahead` in utility may move
  // a bound: its crossing lies at least `ahead` from u (the bust values
  // differ by at most 1); the rest leaves room for rounding.
  bool may_move(double u, double ahead) const { return ahead <= std::max(u - low, high - u) + 1e-12; }
};

// What a bust hands the mover: the other seat to move at the same scores.
inline WinValue handed_over(const WinValue& other) { return {1 - other.win - other.tie, other.tie}; }
inline WinValue apply(const Linear& l, const WinValue& on_bust) {
  return {l.win + l.bust * on_bust.win, l.tie + l.bust * on_bust.tie};
}

inline bool same_linear(const Linear& a, const Linear& b) {
  return a.win == b.win && a.tie == b.tie && a.bust == b.bust;
}

// What a thread works with while it solves a pair of scores.
struct SeatScratch {
  int mine = -1, theirs = -1;   // the turn start of the last turn solved
  std::vector<Linear> landing;  // [total][kind]
  std::vector<Stability> rows;  // [total]: where the decisions of the row and the rows above it stand
  std::vector<Linear> above;    // the rows past the top, of the pass before
  std::vector<double> utility;  // [total][kind]: the landing's utility at the pass's bust value
};
struct Scratch {
  std::array<SeatScratch, 2> seat;
  std::array<std::vector<Linear>, 2> throwing;          // [seat][total][state]: the last turn solved
  std::array<std::vector<std::uint8_t>, 2> decided;     // [seat][(total - 1) * kinds + kind]: banks
  std::array<std::vector<std::uint8_t>, 2> kept_parts;  // [seat][total * groups + group]: IV.4
  std::array<int, 2> tops{};                            // [seat]: the last turn's top total
  std::uint64_t turn_states = 0;                        // as WinSolveStats counts them
  int most_iterations = 0;
};

// A pair's decisions for the policy, kept until they are recorded in order.
struct SeatDecisions {
  int top = 0;
  std::vector<std::uint8_t> banks;  // [(total - 1) * kinds + kind], totals 1..top + 1
  std::vector<PartRun> parts;       // IV.4
  std::vector<std::uint8_t> takes;  // IV.5: [(total - 1) * states + state], totals 1..theirs
};
struct PairDecisions {
  std::array<SeatDecisions, 2> seat;
};
// Solves (seats without a rule) or evaluates (seats with one) the game,
// turn start by turn start from high score sums to low.
class Solver {
 public:
  Solver(const Scoring& scoring, const SeatRule* first, const SeatRule* second);

  // The pairs of one score sum only read pairs of higher sums, so they are
  // solved in parallel when both seats are solved (a fixed strategy's
  // SeatRule and the tables worked out for it are not shared across
  // threads); their decisions enter the policy afterwards in the order of
  // a sequential solve, so the solution does not depend on the threads.
  WinSolution solve();

  // Each seat's first turn and the turns of the game, followed forward from
  // the start turn by turn (both seats evaluated).
  GameShape shape() const;

  // IV.5: keep the values of turn starts handed a position for
  // hand_over_handed (else each is dropped once read).
  void keep_handed() { keep_handed_ = true; }
  // IV.5: the values of turn starts handed a position, for a caller that
  // asked for them (keep_handed, then solve()), per turn start the totals
  // 1..theirs by Landings state.
  void hand_over_handed(WinSolution& solution) const;

 private:
  // The throws' outcomes flattened: per starting state its groups, per
  // group its options as offsets into a landing row.
  void index_throws();

  // Units past which a fresh chase succeeds with a chance below kNegligible:
  // how far padding can matter.
  int negligible_chase() const;

  int bank_minimum(int banked) const { return units_up(rules_.bank_minimum_at(banked * kPoint)); }
  // Whether the values past the top total need the fixed point of
  // land_above_top (else they are the bank values).
  bool stationary() const { return rules_.no_stop_on_hot_dice || rules_.continue_previous; }
  bool reached(int score) const { return rules_.exact_target ? score == units_ : score >= units_; }
  // The other seat answers a reached target in the same round: seat 0 always
  // (seat 1 plays after it), seat 1 only with last turns.
  bool answered(int seat) const { return seat == 0 || rules_.last_turn; }
  Handed handed(int t, int kind) const { return {t, landings_.dice(kind), landings_.pending(kind)}; }

  // The chance that `seat`, at `theirs`, answers a reached score in its last
  // turn: from a fresh hand, or (IV.5) taking over the banked position.
  double chase(int seat, int theirs, int score, const Handed& h) const;

  // IV.4: the chance that a fixed strategy at `mine` chasing `need` units
  // from total t in state s reaches it (exactly, with an exact target),
  // keeping the parts it values rather than those that reach likeliest
  // (ReachChances). From past the need (a taken-over position, IV.5) one
  // more throw must end where it may stop.
  double rule_chase(int seat, int mine, int theirs, int need, int t, int s) const;
  struct RuleChase {
    std::vector<double> reach;   // [total][state], totals below the need
    std::vector<double> beyond;  // [state]: the chance of a throw past the need ending where it may stop
  };
  const RuleChase& rule_chase_table(int seat, int mine, int theirs, int need) const;

  // The mover's (win, tie) after banking a final score that reaches the
  // target, the other seat at `theirs`.
  Linear reached_value(int seat, int theirs, int score, const Handed& h) const;

  // The reacher's (win, tie) when `answerer`, at `theirs`, answers `score`
  // with its usual turn: it may bank short of the score, or tie it.
  Linear plain_answer(int answerer, int theirs, int score, const Handed& h) const;

  // The mover's (win, tie) after banking h.total more units, not reaching:
  // the other seat's turn, which under IV.5 may take over.
  Linear banked_value(int seat, int mine, int theirs, const Handed& h) const {
    const int score = mine + h.total;
    const WinValue& next = rules_.continue_previous
                               ? handed_at(1 - seat, theirs, score, h.total, landings_.of(h.dice, h.pending, false))
                               : solution_.at(1 - seat, theirs, score);
    return {1 - next.win - next.tie, next.tie, 0};
  }

  Linear bank_value(int seat, int mine, int theirs, int t, int kind) const {
    const int score = mine + t;
    return reached(score) ? reached_value(seat, theirs, score, handed(t, kind))
                          : banked_value(seat, mine, theirs, handed(t, kind));
  }

  // IV.5: the value of the turn start (seat, mine, theirs) handed total t
  // (1..theirs) in Landings state s. It is written when the pair of scores
  // is solved, at sum mine + theirs, and read once the pair at sum
  // mine + theirs - t is: it is kept in a block of that later sum and of t,
  // so that a block is freed as soon as its sum is solved (the values alive
  // at once are about a third of them all).
  WinValue& handed_at(int seat, int mine, int theirs, int t, int s) {
    const int sum = mine + theirs, lowest = std::max(0, sum - (units_ - 1));
    return handed_[std::size_t(sum - t) * units_ + t][(std::size_t(mine - lowest) * 2 + seat) * landings_.states() + s];
  }
  const WinValue& handed_at(int seat, int mine, int theirs, int t, int s) const {
    return const_cast<Solver*>(this)->handed_at(seat, mine, theirs, t, s);
  }
  // Before the pairs at `sum` are solved: the blocks they write, the turn
  // starts whose mine is at most the sum read from.
  void allocate_handed(int sum);
  // After the pairs at `sum` are solved: the blocks they read.
  void release_handed(int sum);

  // The pieces of turn() declared inline below are defined in
  // tenk_win_turn.cpp and used there alone, so that they are inlined into
  // turn() as they were when the solver was one file.

  // The highest turn total that needs a state of its own: above it every
  // total has reached the target and the decisions no longer depend on it.
  inline int top_total(int seat, int mine, int theirs, double bust_utility, Stability& stability) const;

  // Banking (unless forbidden) against throwing on, into `out`; the
  // decision is recorded for the seat's policy.
  inline void choose(Scratch& work, int seat, int mine, int theirs, int t, int kind, bool forbidden, const Linear& bank,
                     const Linear& on, double bust_utility, Stability& stability, Linear& out);

  // The option a fixed strategy keeps of group g thrown at total t: the
  // solved one (optimal_win), else under IV.4 the first of the highest value
  // it gives the parts, worked out once per (seat, regime, total) row of
  // groups.
  int kept_option(int seat, int mine, int theirs, int t, int g) const {
    const int first = first_option_[g];
    if (first_option_[g + 1] - first == 1) return first;
    if (const std::optional<int> solved = seat_rule_[seat]->solved_part(seat, mine, theirs, t, g))
      return first + *solved;
    const int regime = regime_of(rules_, mine * kPoint);
    std::vector<int>& kept = kept_[seat][regime];
    const std::size_t groups = group_probability_.size();
    while (kept.size() <= std::size_t(t) * groups) add_kept_row(seat, regime, kept);
    return kept[std::size_t(t) * groups + g];
  }
  void add_kept_row(int seat, int regime, std::vector<int>& kept) const;

  // IV.4: the scan of the options [first, end) of a group again, for the
  // bounds of `stability`: each option compared with the best before it,
  // a comparison close enough to a tie to move a bound narrows them (most
  // that come close are of the same bust chance, which moves none).
  static inline void narrow_by_parts(int first, int end, const Linear* from, const double* utility, const int* offsets,
                                     double bust_utility, Stability& stability);

  // IV.4: the part kept of the options [first, end) of a group, the first
  // of the highest utility, and in `closest` how close a comparison of an
  // option with the best before it came to a tie: only a group with one
  // that may move the bounds of a Stability is scanned again for them
  // (narrow_by_parts), most have none.
  static inline int best_part(int first, int end, const double* utility, const int* offsets, double& closest);

  // The value of a throw from state s at total t, its outcomes landing in
  // `from` (a landing row at the throw's total, offsets adding the points).
  // The parts kept under IV.4 are recorded for the seat's policy.
  // `utility` holds from's utilities at bust_utility, at the same offsets.
  inline Linear throw_value(Scratch& work, int seat, int mine, int theirs, int t, int s, const Linear* from,
                            const double* utility, const int* offsets, double bust_utility, Stability& stability);

  // Where a throw lands at total t <= top: banking, where allowed, against
  // throwing on.
  inline void land(Scratch& work, int seat, int mine, int theirs, int t, const Linear* go, double bust_utility,
                   Stability& stability, Linear* row);

  // Where a throw lands past the top total t: the target is reached and a
  // fresh chase of the score is negligible, so values no longer depend on
  // the total. Banking is best unless a bank is forbidden (hot dice under
  // IV.1) or (IV.5) the position handed over matters: then a small fixed
  // point over the dice in hand.
  inline void land_above_top(Scratch& work, int seat, int mine, int theirs, int t, bool first, double bust_utility,
                             Stability& stability, Linear* row);

  int full_hand() const { return landings_.of(rules_.dice, kNoPending, false); }

  // How a fixed strategy's turn from (mine, theirs) ends: the chances of
  // banking each total (or of a bust). A strategy that ignores the other's
  // score ends it the same way whatever that score: worked out once per own
  // score (turn_ends).
  struct TurnEnds {
    double bust = 0;
    int lowest = 0;            // the total of bank[0]
    std::vector<double> bank;  // [total - lowest]
    double banks(int t) const { return t >= lowest && t - lowest < int(bank.size()) ? bank[t - lowest] : 0; }
  };
  // From total t0 in state s0: a fresh hand, or a position taken over (IV.5).
  TurnEnds follow_turn(int seat, int mine, int theirs, int t0, int s0) const;
  // IV.5: a fixed strategy's usual turn from a taken-over position, which
  // (unlike a chase) answers a reached score without knowing it.
  const TurnEnds& taken_turn_ends(int seat, int mine, int t0, int s0) const;
  const TurnEnds& turn_ends(int seat, int mine) const;

  // A strategy that reads the other's score ends its turns differently at
  // every pair of scores, each followed once: about 4 s a pair at 10,000.
  bool turns_are_cheap() const;

  // How the turn of `seat` at (mine, theirs) ends, for the game's shape.
  const TurnEnds& ends_at(int seat, int mine, int theirs) const;

  std::vector<double> first_turn_of_first_seat() const;

  // The second seat starts at (0, the first seat's first turn). Where the
  // first seat reached the target in one turn the second's turn is a last
  // one: its score is not followed, so it is left unknown unless that
  // chance is negligible.
  std::vector<double> first_turn_of_second_seat(const std::vector<double>& first) const;

  // Spreads a turn from `mine` with chance `here`: every bank short of the
  // target goes to on_bank(score, p); returns the chance of reaching it
  // (every such bank ends the game alike, so they are not followed apart).
  template <class OnBank>
  double spread_turn(const TurnEnds& ends, int mine, double here, OnBank&& on_bank) const;

  // The turns each seat plays; a seat that reaches the target ends its round
  // (and with last turns the first seat answers in the next).
  std::array<std::vector<double>, 2> turns_played() const;

  // At most the chance that a game lasts into its last round, max_rounds,
  // where the cap may change who wins (no one may reach the target, or a
  // last turn may be cut): the game's own chance where its turns were
  // followed (the second seat plays in every round), else that of a seat
  // which plays its turns alone (without IV.5 the game ends no later than
  // it reaches the target on its own); nullopt where neither is known.
  std::optional<double> cut_chance(const GameShape& shape) const;

  // A seat whose strategy ignores the other's score, racing alone to the
  // target, turn by turn.
  Race race_alone(int seat) const;

  bool may_bank(int mine, int t, int kind) const {
    const bool hot = kind == landings_.hot();
    return (rules_.exact_target && reached(mine + t)) ||
           (t >= bank_minimum(mine) && !(hot && rules_.no_stop_on_hot_dice));
  }

  // The value of a turn of a fixed strategy that ignores the other's score
  // (without IV.5): each way its turn ends (turn_ends), banks valued.
  inline Linear fixed_turn(int seat, int mine, int theirs) const;

  // The value of a turn for the seat to move at (mine, theirs), linear in
  // what a bust hands over; decisions are taken at on_bust.
  // A row's values depend on the decisions in it and above it, and its
  // decisions on the bust value only through the interval where they stay
  // optimal. So the next pass of policy iteration at the same turn start
  // keeps every row from the top down while the new bust value lies in
  // each row's interval (and the rows past the top came out the same), and
  // works out the rest: the same numbers as a pass over every row.
  Linear turn(Scratch& work, int seat, int mine, int theirs, const WinValue& on_bust, Stability& stability);

  // The two turn starts at scores (a, b): seat 0 to move with a, and seat 1
  // to move with b. A bust hands each to the other, so they are solved
  // together: the policies best against a guess, then the exact values of
  // those policies (a 2x2 linear system), until the policies stand.
  void solve_pair(Scratch& work, int a, int b, PairDecisions& decided);

  // Keeps what later pairs and the policy need of the pair just solved: its
  // decisions (for record), and (IV.5) the value of each turn start handed
  // a position, the better of a fresh hand and throwing on from it.
  void finish_pair(const Scratch& work, int a, int b, PairDecisions& decided);

  // The decisions of the pair (a, b) into the policy, pair by pair in the
  // order of a sequential solve (the policy's layout follows it).
  void record(int a, int b, const PairDecisions& decided);

  Rules rules_;
  std::vector<ThrowOutcomes> throws_;
  Landings landings_;
  WinSolution solution_;
  int units_;
  std::array<const SeatRule*, 2> seat_rule_;  // nullptr: the seat maximises
  int reach_span_ = 0;                        // units beyond which a fresh chase is negligible
  std::unique_ptr<ReachChances> reach_;

  std::vector<double> bust_;               // [state]
  std::vector<int> first_group_;           // [state]: its groups
  std::vector<double> group_probability_;  // [group]
  std::vector<int> first_option_;          // [group]: its options
  std::vector<int> option_offset_;         // [option]: points * kinds + kind, from a landing row
  std::vector<int> option_kind_;           // [option]: the kind it lands as
  std::vector<int> option_points_;         // [option]: the points it adds, in units
  double fewest_busts_ = 1;                // the least chance of a bust of any throw
  int most_points_ = 0;                    // of any one throw, in units

  mutable std::array<std::vector<std::optional<TurnEnds>>, 2> turn_ends_;  // [seat][mine], for fixed strategies
  mutable std::vector<std::optional<TurnEnds>> ends_by_state_;             // [seat][mine][theirs], for shape()
  mutable std::map<std::tuple<int, int, int, int>, std::optional<TurnEnds>> taken_turn_ends_;  // IV.5, plain answers
  mutable std::map<std::tuple<int, int, int>, RuleChase> rule_chases_;  // (seat, regime, need): IV.4
  mutable std::array<std::array<std::vector<int>, kRegimes>, 2> kept_;  // [seat][regime][total][group]: IV.4
  // IV.5: the value of each turn start handed a position, in blocks
  // [sum read at][total] (handed_at).
  std::vector<std::vector<WinValue>> handed_;
  bool keep_handed_ = false;
};

}  // namespace dicesim::tenk::win_solve
