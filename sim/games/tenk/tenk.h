// 10,000: a strategy compiled to tables (Policy) and the hot loop of one
// turn and of one game. The rules of a throw are in tenk_rules.h.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "games/tenk/tenk_rules.h"
#include "games/tenk/tenk_win_policy.h"
#include "rng.h"

namespace dicesim::tenk {

constexpr int kMaxPlayers = 8;
constexpr int kRegimes = 2;  // the bank minimum below / above high_from (IV.2)

// Whether to throw again, per (regime, pending face, dice for the next
// throw, turn total), and whether to take over the previous player's banked
// position (IV.5). Turn totals past the last slot use the last slot.
class Policy {
 public:
  Policy() = default;
  explicit Policy(const Rules& rules);

  int slots() const { return slots_; }
  int slot(int total) const { return total / kPoint < slots_ ? total / kPoint : slots_ - 1; }
  bool throws(int regime, int pending, int dice, int total) const { return go_[index(regime, pending, dice, total)]; }
  bool takes_over(int regime, int pending, int dice, int total) const {
    return take_[index(regime, pending, dice, total)];
  }
  void set_throws(int regime, int pending, int dice, int total, bool go) {
    go_[index(regime, pending, dice, total)] = go;
  }
  void set_takes_over(int regime, int pending, int dice, int total, bool take) {
    take_[index(regime, pending, dice, total)] = take;
  }
  // With partial setting aside: the value of a position after setting aside
  // (the policy keeps the move of highest value); empty: the best move.
  std::vector<double> value;
  std::size_t index(int regime, int pending, int dice, int total) const {
    return ((std::size_t(regime) * kDiceSlots + pending) * kDiceSlots + dice) * slots_ + slot(total);
  }
  // In a last turn (someone has reached the target) throw until the banked
  // score beats the best score at the table.
  bool chase = true;
  // optimal_win (two seats): the solved decisions, which depend on both
  // banked scores; the tables above are then unused. Otherwise a turn
  // that reaches the target banks at once (where the rules allow): a choice
  // of the families, not a rule; the solved policy may throw on (pad).
  std::shared_ptr<const WinStrategy> win;
  // optimal_win compiled: the solution is attached (Solutions::attach_win)
  // when the strategy first plays or is evaluated, so loading a config never
  // solves.
  bool plays_to_win = false;

 private:
  int slots_ = 1;
  std::vector<std::uint8_t> go_, take_;
};

// Where a turn starts, and where a banked turn ended (for IV.5).
struct Position {
  int total = 0;
  int dice = 0;
  int pending = kNoPending;
};

struct TurnResult {
  int score = 0;      // banked points, 0 on a bust
  Position position;  // the banked position (dice for the next throw)
};

inline int regime_of(const Rules& rules, int banked) { return banked > rules.high_from ? 1 : 0; }

// The move a policy sets aside from throw i: with partial setting aside the
// one leading to the highest value, otherwise the best move.
Step choose_move(const Scoring& scoring, const Policy& policy, int regime, int dice, int pending, int i, int total);

// Whether banking is allowed after a throw that left `total` and `dice` for
// the next throw (hot: the throw used every die).
inline bool may_bank(const Rules& rules, int banked, int total, bool hot) {
  if (rules.exact_target && banked + total == rules.target) return true;  // no minimum for the last turn
  return total >= rules.bank_minimum_at(banked) && !(hot && rules.no_stop_on_hot_dice);
}

// What the table of `solve tenk` shows: the least turn total below the target
// at which `policy` banks in a fresh turn (nothing banked, no pending triple)
// with `dice` for the next throw (the full hand only after hot dice), the
// bank minimum and IV.1 applied; -1 when it throws on to the target.
int first_bank_total(const Rules& rules, const Policy& policy, int dice);

// IV.4: a throw and the part of it the policy sets aside (kBust if none).
// beat >= 0: a last turn chasing that score.
inline Step set_aside(const Scoring& scoring, const Policy& policy, int seat, int banked, int regime, int theirs,
                      int dice, int pending, int total, int beat, Rng& rng) {
  const int i = scoring.roll(dice, rng);
  if (policy.win) return policy.win->keep(scoring, seat, banked, theirs, dice, pending, i, total, beat);
  return choose_move(scoring, policy, regime, dice, pending, i, total);
}

// One turn of `seat`, its banked score `banked`, the other's `theirs` (two
// seats; optimal_win reads them). beat >= 0: a last turn, where only a
// score above beat counts.
inline TurnResult play_turn(const Scoring& scoring, const Policy& policy, int seat, int banked, int theirs,
                            Position start, int beat, Rng& rng) {
  const Rules& rules = scoring.rules();
  const int regime = regime_of(rules, banked);
  const bool partial = rules.partial_set_aside;
  const bool exact = rules.exact_target;
  const bool chase = beat >= 0 && policy.chase;
  const int to_target = rules.target - banked;
  int total = start.total, dice = start.dice, pending = start.pending;
  for (;;) {
    const Step step =
        partial ? set_aside(scoring, policy, seat, banked, regime, theirs, dice, pending, total, chase ? beat : -1, rng)
                : scoring.throw_best(dice, pending, rng);
    if (step == kBust) return {};
    total += step_points(step);
    dice = step_dice(step);
    pending = step_pending(step);
    const bool hot = step_hot(step);
    if (exact && total > to_target) return {};
    if (!may_bank(rules, banked, total, hot)) continue;
    const bool bank = chase        ? banked + total > beat || (exact && total == to_target)
                      : policy.win ? policy.win->banks(seat, banked, theirs, total, dice, pending, hot)
                                   : total >= to_target || !policy.throws(regime, pending, dice, total);
    if (bank) return {total, {total, dice, pending}};
  }
}

// What one game leaves per seat.
struct GameResult {
  int score[kMaxPlayers];
  int turns[kMaxPlayers];
  int first_turn[kMaxPlayers];
  int place[kMaxPlayers];  // 1 = won (shared when several hold place 1)
  bool capped;             // nobody reached the target within max_rounds
};

// Places (seed 000, III): who reached the target in an earlier round
// first, then the higher score; with last turns for everyone, the score
// alone. reached_round[s] < 0: seat s never reached it.
inline void assign_places(const Rules& rules, int players, const int* reached_round, GameResult& out) {
  const auto key = [&](int s) {
    const long reached = reached_round[s] >= 0 && !rules.last_turn ? reached_round[s] : rules.max_rounds;
    return reached * 100000000L - out.score[s];
  };
  for (int s = 0; s < players; ++s) {
    int place = 1;
    for (int o = 0; o < players; ++o) place += key(o) < key(s);
    out.place[s] = place;
  }
}

// IV.5: whether a turn starts from the position the previous player banked.
// optimal_win answers a reached score (beat >= 0) from where that is likelier.
inline bool takes_over(const Rules& rules, const Policy& policy, int seat, int banked, int theirs, int beat,
                       const Position& handed) {
  if (!policy.win) return policy.takes_over(regime_of(rules, banked), handed.pending, handed.dice, handed.total);
  const WinStrategy& win = *policy.win;
  const Handed h{handed.total / kPoint, handed.dice, handed.pending};
  if (beat < 0)
    return win.policy.takes_over(seat, banked / kPoint, theirs / kPoint, h, win.landings.of(h.dice, h.pending, false));
  const int need = WinStrategy::need_to_beat(rules, banked, beat);
  if (rules.exact_target && need <= h.total) return false;
  return win.reach.at(need - h.total, h.dice, h.pending) > win.reach.fresh(need);
}

// Turn scores go to on_turn(seat, score) as they happen.
template <class OnTurn>
void play_game(const Scoring& scoring, const Policy* const* seats, int players, Rng& rng, GameResult& out,
               OnTurn on_turn) {
  const Rules& rules = scoring.rules();
  int reached_round[kMaxPlayers];
  for (int s = 0; s < players; ++s) out.score[s] = out.turns[s] = 0, reached_round[s] = -1;
  int finisher = -1, best = 0;
  Position handed{};  // the last banked position, for IV.5
  bool handed_valid = false;
  bool over = false;
  int round = 0;
  for (; round < rules.max_rounds && !over; ++round) {
    for (int s = 0; s < players; ++s) {
      if (finisher == s) {  // everyone else has had a last turn
        over = true;
        break;
      }
      const Policy& policy = *seats[s];
      const int banked = out.score[s];
      const int theirs = players == 2 ? out.score[1 - s] : 0;  // read by optimal_win only, at two seats
      const int beat = finisher >= 0 ? best : -1;
      Position start{0, rules.dice, kNoPending};
      if (rules.continue_previous && handed_valid && takes_over(rules, policy, s, banked, theirs, beat, handed))
        start = handed;
      const TurnResult turn = play_turn(scoring, policy, s, banked, theirs, start, beat, rng);
      handed = turn.position;
      handed_valid = turn.score > 0;
      if (out.turns[s]++ == 0) out.first_turn[s] = turn.score;
      on_turn(s, turn.score);
      out.score[s] += turn.score;
      best = out.score[s] > best ? out.score[s] : best;
      const bool reached = rules.exact_target ? out.score[s] == rules.target : out.score[s] >= rules.target;
      if (reached && reached_round[s] < 0) {
        reached_round[s] = round;
        if (finisher < 0) finisher = s;
      }
    }
    if (finisher >= 0 && !rules.last_turn) over = true;
  }
  out.capped = finisher < 0;
  assign_places(rules, players, reached_round, out);
}

}  // namespace dicesim::tenk
