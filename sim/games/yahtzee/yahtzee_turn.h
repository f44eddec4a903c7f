// One turn of Yahtzee from a card: what a final throw may be scored as (the
// joker applied), the plan a strategy follows (which dice to keep after each
// throw, how to score the last), the weight of each outcome of a plan
// (thrown forward, exact integers), and the plan that maximises the expected
// final score given the values of the cards after the turn (backward).
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "engine/dice.h"
#include "games/yahtzee/yahtzee_card.h"
#include "games/yahtzee/yahtzee_dice.h"
#include "games/yahtzee/yahtzee_rules.h"

namespace dicesim::yahtzee {

// What a strategy does in one turn from one card.
struct TurnPlan {
  // keep[s][r]: the keeper kept from roll r after throw s + 1 (rolls - 1 of them).
  std::array<std::array<std::uint16_t, kRolls>, kMaxRolls - 1> keep{};
  std::array<std::uint16_t, kRolls> outcome{};  // the Outcome code of each final roll
};

// The outcomes a final roll may be scored as on card `c`: each open box with
// its points by its own rule, except for a Yahtzee when the Yahtzee box is
// filled, which the joker rule and the bonus decide (README: "The joker").
template <class Visit>
void for_each_scoring(const ScoreTable& table, const Card& c, int roll, Visit visit) {
  const Rules& rules = table.rules();
  const int boxes = rules.box_count();
  const int yahtzee_box = rules.yahtzee_box();
  const int face = table.yahtzee_face(roll);
  const bool joker_roll = face > 0 && yahtzee_box >= 0 && (c.filled >> yahtzee_box & 1);
  const bool bonus = joker_roll && rules.has_yahtzee_bonus() && c.yahtzee_50;
  auto open = [&](int b) { return !(c.filled >> b & 1); };
  if (!joker_roll || rules.joker == Joker::none) {
    for (int b = 0; b < boxes; ++b)
      if (open(b)) visit(Outcome{b, table.points(b, roll), bonus});
    return;
  }
  const bool face_box_filled = !open(face - 1);
  // A joker's points in a lower box: full house and straights in full.
  auto joker_points = [&](int b) {
    switch (rules.boxes()[b]) {
      case Box::full_house:
        return 25;
      case Box::small_straight:
        return 30;
      case Box::large_straight:
        return 40;
      default:
        return table.points(b, roll);
    }
  };
  if (rules.joker == Joker::free) {
    for (int b = 0; b < boxes; ++b)
      if (open(b))
        visit(Outcome{b, b >= kUpperBoxes && face_box_filled ? joker_points(b) : table.points(b, roll), bonus});
    return;
  }
  // The official forced joker: the face's own upper box if open; else any
  // open lower box; else any open upper box, for 0.
  if (!face_box_filled) return visit(Outcome{face - 1, table.points(face - 1, roll), bonus});
  bool lower_open = false;
  for (int b = kUpperBoxes; b < boxes; ++b)
    if (open(b)) lower_open = true, visit(Outcome{b, joker_points(b), bonus});
  if (lower_open) return;
  for (int b = 0; b < kUpperBoxes; ++b)
    if (open(b)) visit(Outcome{b, 0, bonus});
}

// The weight of each outcome code when `plan` is played with `die`, out of
// die.sides^(5 x rolls): exact, every throw of every die counted. In
// increasing order of code.
using OutcomeWeights = std::vector<std::pair<std::uint16_t, std::uint64_t>>;
OutcomeWeights turn_weights(const TurnPlan& plan, int rolls, const Die& die);

// The turn that maximises the expected score from card `c` on, given
// values[space.index(next)], the expected score still to come, of every card
// a turn can lead to: returns that expected score (this turn's points
// included) and, if `plan` is given, its plan. Ties go to the first keeper
// and the first box in card order.
double best_turn(const CardSpace& space, const ScoreTable& table, const Card& c, const double* values, TurnPlan* plan);

}  // namespace dicesim::yahtzee
