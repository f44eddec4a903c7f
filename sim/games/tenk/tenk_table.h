// Exact odds of a 10,000 table of any size whose strategies play by their
// compiled tables (every family but optimal_win), without IV.5.
//
// Until someone reaches the target no seat's play depends on another's: a
// seat's banked score is a Markov chain of its own (one turn distribution
// per banked score), so each seat's race is followed alone, turn by turn.
// The first seat to reach it, f in round r, ends the race; what follows is
// short: the seats after f in that round (and, with last turns, those before
// it in the next) each play one more turn, in seat order, against the best
// score so far, which is all that couples them. That chain is followed with
// the best score as its state, each seat's banked score drawn from its own
// race at that round. At three seats the places are followed too: the two
// seats that answer or wait end with scores drawn one after the other (the
// second answers the best of the reach and the first's final score).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "games/tenk/tenk.h"
#include "games/tenk/tenk_rules.h"

namespace dicesim::tenk {

struct TableOutcome {
  std::vector<double> win;                 // per seat, P(it wins alone)
  double tie = 0;                          // P(the win is shared)
  std::vector<std::vector<double>> place;  // per seat, by place (1st at 0; tied seats share the better); at 3 seats
  std::vector<std::vector<double>> turns;  // per seat, by turns played; bin max_rounds + 1: games cut
  std::vector<std::vector<double>> first_turn;  // per seat, its first turn's score by units (0: a bust)
  // At most this chance that max_rounds cuts a game or its last turns (who
  // wins, and the turns, are then decided otherwise than followed here).
  double cut_at_most = 0;
};

// Why a table of these seats has no exact odds here, with the joint state
// it would need; nullopt where evaluate_table applies.
std::optional<std::string> table_refusal(const Rules& rules, const std::vector<const Policy*>& seats);

// The table's odds, seat k playing seats[k] (table_refusal must be nullopt).
TableOutcome evaluate_table(const Scoring& scoring, const std::vector<const Policy*>& seats);

}  // namespace dicesim::tenk
