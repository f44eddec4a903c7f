// The solitaire optimum: the strategy that maximises the expected final
// score, by retrograde dynamic programming over every card (boxes filled,
// upper total capped at the threshold, Yahtzee box holding 50), fullest
// cards first.
#pragma once

#include <vector>

#include "games/yahtzee/yahtzee_card.h"
#include "games/yahtzee/yahtzee_rules.h"

namespace dicesim::yahtzee {

struct Optimum {
  Rules rules;
  // value[CardSpace::index(card)]: the expected score still to come from
  // the card under optimal play (0 for a card no game reaches).
  std::vector<double> value;
  double expected() const { return value[0]; }  // from the empty card
};

// Uses every thread; prints nothing. About 1 M cards for Yahtzee's card.
Optimum solve_optimum(const Rules& rules);

}  // namespace dicesim::yahtzee
