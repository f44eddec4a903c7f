// The strategies a person could follow at the table, as plans a turn at a
// time: which box to score a final throw in, and which dice to keep after
// the others. Each is a rule of thumb with its knobs as data
// (yahtzee_strategies.cpp lists them as families; README: "Strategy families").
#pragma once

#include "games/yahtzee/yahtzee_card.h"
#include "games/yahtzee/yahtzee_rules.h"
#include "games/yahtzee/yahtzee_turn.h"

namespace dicesim::yahtzee {

struct Heuristic {
  enum class Aim { best_box, upper_first, keep_most };
  Aim aim = Aim::best_box;
  // While the upper bonus is not yet won, each point an upper box scores
  // above (or below) three of its face counts this many extra when choosing.
  int bonus_push = 0;
  // best_box: with this many of a face or more and a Yahtzee still worth
  // having (its box open, or holding 50), keep that face for a Yahtzee.
  int yahtzee_from = 6;
  // upper_first: score an upper box once this many dice show its face.
  int par = 3;
  // keep_most: keep the most common face only when it shows this often.
  int min_count = 1;
};

// The plan of `h` for a turn from `card`.
void heuristic_plan(const ScoreTable& table, const Heuristic& h, const Card& card, TurnPlan& plan);

}  // namespace dicesim::yahtzee
