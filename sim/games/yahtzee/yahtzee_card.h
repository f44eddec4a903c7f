// Where a player stands between turns: the boxes filled, the upper section's
// total (capped at the bonus threshold, past which it no longer matters) and
// whether the Yahtzee box holds 50 (then each further Yahtzee earns the
// bonus). Its index numbers the solvers' arrays; a turn's outcome (the box
// scored, its points, a Yahtzee bonus) moves it on.
#pragma once

#include <cstdint>
#include <vector>

#include "games/yahtzee/yahtzee_rules.h"

namespace dicesim::yahtzee {

struct Card {
  std::uint32_t filled = 0;  // bit b: box b of the card is filled
  int upper = 0;             // the upper section's total, capped at the threshold
  bool yahtzee_50 = false;   // the Yahtzee box holds 50
};

// What a turn ends with, in 11 bits: the box, its points, and whether the
// throw earned the Yahtzee bonus.
struct Outcome {
  int box = 0;
  int points = 0;
  bool yahtzee_bonus = false;

  std::uint32_t code() const {
    return std::uint32_t(box) | std::uint32_t(yahtzee_bonus) << 4 | std::uint32_t(points) << 5;
  }
  static Outcome of(std::uint32_t code) { return {int(code & 15), int(code >> 5), bool(code >> 4 & 1)}; }
};
constexpr int kOutcomeCodes = 1 << 11;

class CardSpace {
 public:
  explicit CardSpace(const Rules& rules);

  const Rules& rules() const { return rules_; }
  int boxes() const { return boxes_; }
  std::uint32_t full() const { return (1u << boxes_) - 1; }
  std::size_t size() const { return (std::size_t(full()) + 1) * uppers_ * flags_; }
  std::size_t index(const Card& c) const {
    return (std::size_t(c.filled) * uppers_ + std::size_t(c.upper)) * flags_ + (flags_ > 1 && c.yahtzee_50);
  }
  Card card(std::size_t index) const {
    Card c;
    c.yahtzee_50 = flags_ > 1 && index % flags_;
    index /= flags_;
    c.upper = static_cast<int>(index % uppers_);
    c.filled = static_cast<std::uint32_t>(index / uppers_);
    return c;
  }
  // Whether the card can arise in a game: its upper total is one the filled
  // upper boxes can make, and 50 stands in the Yahtzee box only if it is filled.
  bool possible(const Card& c) const;

  // The card after `o`, and the points it adds to the score (the box's, the
  // Yahtzee bonus and the upper bonus when the total reaches the threshold).
  Card after(const Card& c, const Outcome& o, int& gained) const {
    Card next = c;
    next.filled |= 1u << o.box;
    gained = o.points + (o.yahtzee_bonus ? kYahtzeeBonus : 0);
    if (o.box < kUpperBoxes) {
      const int total = c.upper + o.points;
      next.upper = total >= rules_.bonus_threshold ? rules_.bonus_threshold : total;
      if (c.upper < rules_.bonus_threshold && total >= rules_.bonus_threshold) gained += rules_.upper_bonus;
    }
    if (o.box == yahtzee_box_ && o.points > 0) next.yahtzee_50 = true;
    return next;
  }
  static constexpr int kYahtzeeBonus = 100;

 private:
  Rules rules_;
  int boxes_;
  int yahtzee_box_;
  std::size_t uppers_;                             // threshold + 1
  std::size_t flags_;                              // 2 with a Yahtzee bonus, else 1
  std::vector<std::vector<bool>> upper_possible_;  // [filled upper boxes][total]
};

}  // namespace dicesim::yahtzee
