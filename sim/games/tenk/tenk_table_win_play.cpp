// A turn played by the table solve's decisions (tenk_table_win.h): the
// engine's game loop (tenk_game_loop.h) plays a seat of optimal_win with
// "seats" by it.
#include "engine/rng.h"
#include "games/tenk/tenk.h"
#include "games/tenk/tenk_rules.h"
#include "games/tenk/tenk_table_win.h"

namespace dicesim::tenk {

TurnResult play_solved_table_turn(const Scoring& scoring, const TableWin& table, int seat, const GameState& g,
                                  Rng& rng) {
  const Rules& rules = scoring.rules();
  const int own = g.units[seat];
  const bool answers = g.finisher >= 0;
  const int answer = (seat - g.finisher - 1 + table.seats()) % table.seats();  // its place among the answerers
  // Where the seat mixes two plans, it draws which at the turn's start.
  const int plan = answers ? -1 : table.plan(seat, g.units, rng);
  int total = 0, dice = rules.dice, pending = kNoPending;
  for (;;) {
    const Step step = scoring.throw_best(dice, pending, rng);
    if (step == kBust) return {};
    total += step_points(step), dice = step_dice(step), pending = step_pending(step);
    const int score = own + total / kPoint;
    if (rules.exact_target && score > table.units()) return {};
    if (!may_bank(rules, own * kPoint, total, step_hot(step))) continue;
    const int kind = table.kind(dice, pending, step_hot(step));
    // An answer must beat the best score (or, to an exact target, hit it).
    const bool banks = plan >= 0            ? table.alternative_banks(plan, total / kPoint, kind)
                       : !answers           ? table.banks(seat, g.units, total / kPoint, kind)
                       : rules.exact_target ? score == table.units()
                                            : score > g.best(table.seats()) &&
                                                  table.answer_banks(g.finisher, g.units, answer, total / kPoint, kind);
    if (banks) return {total, {total, dice, pending}};
  }
}

}  // namespace dicesim::tenk
