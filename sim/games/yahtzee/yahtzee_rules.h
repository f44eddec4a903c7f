// Yahtzee's rules as data: the score card (Yahtzee's 13 boxes or
// Scandinavian Yatzy's 15), rolls per turn, the upper bonus, the Yahtzee
// bonus and the joker rule; what a throw scores in each box.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "games/yahtzee/yahtzee_dice.h"

namespace dicesim::yahtzee {

enum class CardKind { yahtzee, yatzy };  // the box set
// What a Yahtzee scores when its own box is already filled (README: "The joker").
enum class Joker { none, forced, free };

enum class Box : std::uint8_t {
  ones,
  twos,
  threes,
  fours,
  fives,
  sixes,  // the upper section
  three_kind,
  four_kind,
  full_house,
  small_straight,
  large_straight,
  yahtzee,  // Yahtzee's lower section
  chance,
  // Yatzy's own: kinds score only the matching dice, straights 15 and 20, a full house its sum
  one_pair,
  two_pairs,
  yatzy_three_kind,
  yatzy_four_kind,
  yatzy_small_straight,
  yatzy_large_straight,
  yatzy_full_house
};
constexpr int kUpperBoxes = 6;
constexpr int kMaxBoxes = 15;
constexpr int kMaxRolls = 3;             // a turn's table weights (7^15 on the test die) fit 44 bits
constexpr int kMaxBonusThreshold = 105;  // five of each face

std::string_view box_name(Box box);  // "full_house"

struct Rules {
  CardKind card = CardKind::yahtzee;
  int rolls = 3;
  int bonus_threshold = 63;
  int upper_bonus = 35;  // Yatzy's default: 50
  bool yahtzee_bonus = true;
  Joker joker = Joker::forced;

  // The boxes of the card in card order; the upper six first.
  const std::vector<Box>& boxes() const;
  int box_count() const { return static_cast<int>(boxes().size()); }
  // The card's Yahtzee box (-1 for Yatzy, which has no bonus or joker).
  int yahtzee_box() const;
  bool has_joker() const { return card == CardKind::yahtzee && joker != Joker::none; }
  bool has_yahtzee_bonus() const { return card == CardKind::yahtzee && yahtzee_bonus; }
  // The highest final score these rules allow (a bound for the histograms).
  int max_score() const;
};

// What `counts` (five dice) scores in `box` by the box's own rule (no joker).
int box_points(Box box, const FaceCounts& counts);
// The face of a five-of-a-kind, or 0.
int five_of_a_kind(const FaceCounts& counts);

// The points of every roll in every box of the card, by the box's own rule.
class ScoreTable {
 public:
  explicit ScoreTable(const Rules& rules);
  const Rules& rules() const { return rules_; }
  int points(int box, int roll) const { return points_[box][roll]; }
  // The face of roll r's five of a kind, or 0.
  int yahtzee_face(int roll) const { return yahtzee_face_[roll]; }

 private:
  Rules rules_;
  std::array<std::array<std::uint8_t, kRolls>, kMaxBoxes> points_{};
  std::array<std::uint8_t, kRolls> yahtzee_face_{};
};

}  // namespace dicesim::yahtzee
