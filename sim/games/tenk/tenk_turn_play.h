// 10,000: the hot loop of one turn, throw by throw (inline: the engine's
// game loops, tenk_game_loop.h, and the turn sampler's decided turns,
// tenk_turn_sampler.h, play it), and whether a turn takes over the
// previous player's position (IV.5).
#pragma once

#include "engine/rng.h"
#include "games/tenk/tenk.h"
#include "games/tenk/tenk_rules.h"
#include "games/tenk/tenk_win_policy.h"

namespace dicesim::tenk {

// IV.4: a throw and the part of it the policy sets aside (kBust if none).
// beat >= 0: a last turn chasing that score.
inline Step set_aside(const Scoring& scoring, const Policy& policy, int seat, int banked, int regime, int theirs,
                      int dice, int pending, int total, int beat, Rng& rng) {
  const int i = scoring.roll(dice, rng);
  if (policy.win) return policy.win->keep(scoring, seat, banked, theirs, dice, pending, i, total, beat);
  return choose_move(scoring, policy, regime, dice, pending, i, total);
}

// What a turn does after a throw that left `total` and `dice` for the next
// throw (hot: the throw used every die). chase_beat >= 0: a last turn,
// where only a banked score above chase_beat counts.
enum class AfterThrow { throw_on, bank, bust };
inline AfterThrow after_throw(const Rules& rules, const Policy& policy, int seat, int banked, int theirs, int regime,
                              int chase_beat, int total, int dice, int pending, bool hot) {
  const int to_target = rules.target - banked;
  if (rules.exact_target && total > to_target) return AfterThrow::bust;
  if (!may_bank(rules, banked, total, hot)) return AfterThrow::throw_on;
  const bool no_padding = rules.bank_at_target && total >= to_target;  // the house rule binds optimal_win too
  const bool bank = chase_beat >= 0 ? banked + total > chase_beat || (rules.exact_target && total == to_target)
                    : policy.win && !no_padding ? policy.win->banks(seat, banked, theirs, total, dice, pending, hot)
                                                : total >= to_target || !policy.throws(regime, pending, dice, total);
  return bank ? AfterThrow::bank : AfterThrow::throw_on;
}

// A turn that ends (busts or banks) where its last throw left `at`.
inline TurnResult turn_end(AfterThrow end, const Position& at) {
  return end == AfterThrow::bank ? TurnResult{at.total, at} : TurnResult{};
}

// One turn of `seat`, its banked score `banked`, the other's `theirs` (two
// seats; optimal_win reads them). beat >= 0: a last turn, where only a
// score above beat counts.
inline TurnResult play_turn(const Scoring& scoring, const Policy& policy, int seat, int banked, int theirs,
                            Position start, int beat, Rng& rng) {
  const Rules& rules = scoring.rules();
  const int regime = regime_of(rules, banked);
  const bool partial = rules.partial_set_aside;
  const int chase_beat = beat >= 0 && policy.chase ? beat : -1;
  int total = start.total, dice = start.dice, pending = start.pending;
  for (;;) {
    const Step step =
        partial ? set_aside(scoring, policy, seat, banked, regime, theirs, dice, pending, total, chase_beat, rng)
                : scoring.throw_best(dice, pending, rng);
    if (step == kBust) return {};
    total += step_points(step);
    dice = step_dice(step);
    pending = step_pending(step);
    const AfterThrow next =
        after_throw(rules, policy, seat, banked, theirs, regime, chase_beat, total, dice, pending, step_hot(step));
    if (next != AfterThrow::throw_on) return turn_end(next, {total, dice, pending});
  }
}

// play(copy) on a copy of the generator, whose state is taken back after:
// the rare turns played throw by throw (calls the compiler does not inline)
// then never see the caller's generator, which can stay in registers
// instead of being stored before every store to a counter.
template <class Play>
[[gnu::always_inline]] inline TurnResult on_copy(Rng& rng, Play play) {
  Rng copy = rng;
  const TurnResult turn = play(copy);
  rng = copy;
  return turn;
}
inline TurnResult play_turn_apart(const Scoring& scoring, const Policy& policy, int seat, int banked, int theirs,
                                  Position start, int beat, Rng& rng) {
  return on_copy(rng, [&](Rng& copy) { return play_turn(scoring, policy, seat, banked, theirs, start, beat, copy); });
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

}  // namespace dicesim::tenk
