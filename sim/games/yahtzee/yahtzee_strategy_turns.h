// A strategy compiled for the hot loop and for its exact odds: from every
// card it can reach, the outcome of its whole turn (the box scored, its
// points, a Yahtzee bonus) drawn from one alias table, weighted exactly by
// the throws of the sampling die; and, thrown forward layer by layer with the
// fair die, the exact distribution of its final score.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "engine/dice.h"
#include "engine/prefetch.h"
#include "engine/rng.h"
#include "games/yahtzee/yahtzee_card.h"
#include "games/yahtzee/yahtzee_turn.h"

namespace dicesim::yahtzee {

// Fills `plan` with what the strategy does in a turn from `card`. Called
// from several threads at once.
using PlanOf = std::function<void(const Card& card, TurnPlan& plan)>;

class StrategyTurns {
 public:
  // The tables of every card reachable from the empty card, thrown with
  // `die`; with `distribution`, the exact final-score distribution too.
  StrategyTurns(const Rules& rules, const PlanOf& plan_of, const Die& die, bool distribution);

  // Plays N games from the empty card side by side (their chains of loads
  // overlap), turn by turn in lockstep, writing their final scores. The
  // draws come from `rng` in a fixed order: lane by lane, turn by turn.
  template <int N>
  void play(Rng& rng, int (&score)[N]) const {
    Card card[N];
    std::uint64_t level[N];
    const std::uint64_t* table[N];  // the lane's card's columns
    std::uint64_t column[N];
    for (int i = 0; i < N; ++i) score[i] = 0;
    for (int turn = 0; turn < turns_; ++turn) {
      for (int i = 0; i < N; ++i) {  // draw each lane's column, and start loading it
        const std::uint64_t t = turn_of_[space_.index(card[i])];
        const std::uint32_t count = static_cast<std::uint32_t>(t >> 32);
        const std::uint64_t r = uniform_below64(rng, total_ * count, reject_below_[count]);
        const std::uint64_t c = r / total_;
        level[i] = r - c * total_;
        table[i] = &columns_[static_cast<std::uint32_t>(t)];
        column[i] = c;
        prefetch(table[i] + c);
      }
      for (int i = 0; i < N; ++i) {  // its outcome, and the next card's table
        std::uint64_t entry = table[i][column[i]];
        if (level[i] >= (entry & kThresholdMask)) entry = table[i][entry >> 43 & 255];
        int gained;
        card[i] = space_.after(card[i], Outcome::of(static_cast<std::uint32_t>(entry >> 51)), gained);
        score[i] += gained;
        prefetch(&turn_of_[space_.index(card[i])]);
      }
    }
  }

  // P(final score = s), s = 0 .. rules.max_score(); empty unless asked for.
  const std::vector<double>& distribution() const { return distribution_; }
  std::size_t cards() const { return cards_; }              // reachable, the full card included
  std::size_t outcomes() const { return columns_.size(); }  // summed over the cards
  // What the tables hold, for the memory budget: about this per card and outcome.
  static constexpr std::uint64_t kBytesPerOutcome = 8;
  static constexpr std::uint64_t kBytesPerCard = 8;

 private:
  static constexpr std::uint64_t kThresholdMask = (std::uint64_t(1) << 43) - 1;
  CardSpace space_;
  int turns_ = 0;
  std::uint64_t total_ = 1;  // sides^(5 x rolls): each table's weights sum to it
  std::size_t cards_ = 0;
  // By CardSpace index: the card's first column | its number of columns << 32.
  std::vector<std::uint64_t> turn_of_;
  std::uint64_t reject_below_[256] = {};  // Lemire's bound for each number of columns
  // Per column: threshold (43 bits) | alias column (8) | own code (11).
  std::vector<std::uint64_t> columns_;
  std::vector<double> distribution_;
};

}  // namespace dicesim::yahtzee
