// Sixers: roll N dice up to R times, set aside at least one die after every
// roll, and score the dice set aside; one face scores zero, the others their
// value. The lowest total wins.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "engine/device.h"
#include "engine/dice.h"
#include "engine/gpu.h"
#include "engine/rng.h"

namespace dicesim::sixers {

// A die is kept after every roll, so rolls beyond the number of dice never
// happen; the cap only keeps per_roll lists and tables small.
constexpr int kMaxRolls = 20;

struct Rules {
  int dice = 6;
  int rolls = 3;
  int zero_face = 3;

  int face_score(int face) const { return face == zero_face ? 0 : face; }
  int max_score() const { return dice * (zero_face == 6 ? 5 : 6); }
};

// Every hand of n dice (n = 0..dice) as a multiset with one global index, and
// for each the score of its k lowest-scoring dice. Since keeping a lower die
// is never worse than keeping a higher one, every strategy here is a choice
// of k: how many of the lowest dice to set aside. The probabilities are the
// fair die's; the samplers draw on `sampling_die` (outcomes()).
class Hands {
 public:
  explicit Hands(const Rules& rules, const Die& sampling_die = fair_die());

  const Rules& rules() const { return rules_; }
  int count() const { return static_cast<int>(multiset_dice_.size()); }
  int first(int dice) const { return offset_[dice]; }
  int count_of(int dice) const { return offset_[dice + 1] - offset_[dice]; }
  int dice_of(int hand) const { return multiset_dice_[hand]; }
  double probability(int hand) const { return probability_[hand]; }
  int kept_score(int hand, int keep) const { return kept_score_[hand * stride_ + keep]; }
  // The hand with these faces (any order); for tests and examples.
  int hand_of(const std::vector<int>& faces) const;
  // Scores of the hand's dice in ascending order (for the strategy families).
  const std::vector<int>& sorted_scores(int hand) const { return sorted_scores_[hand]; }

  const RollOutcomes& outcomes(int dice) const { return tables_[dice]; }

 private:
  Rules rules_;
  int stride_;
  std::vector<int> offset_;
  std::vector<int> multiset_dice_;
  std::vector<double> probability_;
  std::vector<std::uint16_t> kept_score_;
  std::vector<std::vector<int>> sorted_scores_;
  std::vector<RollOutcomes> tables_;
};

constexpr int kNoTarget = std::numeric_limits<int>::min() / 2;

// The row of a slot map (a slot per score so far, `scores` of them) that
// serves a target: kNoTarget and 0..scores (max score + 1) each have one; a
// larger target plays as max score + 1, which nothing can reach.
DICESIM_HD inline int slot_row(int target, int scores) {
  return target == kNoTarget ? 0 : 1 + std::clamp(target, 0, scores);
}
constexpr int slot_rows(int scores) { return scores + 2; }
constexpr int target_of_row(int row) { return row == 0 ? kNoTarget : row - 1; }

// A strategy compiled to a table: how many of the lowest dice to set aside
// after roll r (0-based; after the last roll, all of them), for each hand and
// "slot". A turn's slot depends on its score to beat and its score so far
// (slots_for); policies without a target have one slot, target_aware one per
// allowance (slot_of), optimal_win one per distinct row of decisions.
class Policy {
 public:
  Policy() = default;
  Policy(const Hands& hands, int slots);

  int slots() const { return slots_; }
  int keep(int roll, int slot, int hand) const { return decision(roll, slot, hand) & 0xff; }
  void set_keep(int roll, int slot, int hand, int keep);

  // keep | (score of the kept dice) << 8: what a roll decides, which
  // PolicySampler turns into the change of a turn's state.
  std::uint16_t decision(int roll, int slot, int hand) const { return decision_[index(roll, slot, hand)]; }

  // The slot of each score so far (0..max score), facing `target` (kNoTarget
  // or a score): looked up once per turn, then indexed by the score.
  const std::uint16_t* slots_for(int target) const { return &slot_map_[std::size_t(target_code(target)) * scores_]; }
  int slot(int target, int score) const { return slots_for(target)[score]; }
  void set_slot(int target, int score, int slot);
  int target_code(int target) const { return slot_row(target, scores_); }

  // Allowance = the most the player may still add and finish strictly below
  // the score to beat. Slot 0 is "no target, or already lost"; slot a + 1 is
  // allowance a, capped where nothing more can be lost. The default slot map.
  int slot_of(int allowance) const {
    if (slots_ == 1 || allowance < 0) return 0;
    return allowance + 1 < slots_ ? allowance + 1 : slots_ - 1;
  }

 private:
  std::size_t index(int roll, int slot, int hand) const {
    return (std::size_t(roll) * slots_ + slot) * hand_count_ + hand;
  }
  const Hands* hands_ = nullptr;
  int slots_ = 1;
  int hand_count_ = 0;
  int scores_ = 0;  // max score + 1: the width of a slot map row
  std::vector<std::uint16_t> decision_;
  std::vector<std::uint16_t> slot_map_;  // [target_code][score]
};

// A turn in play, one of several that play side by side.
struct TurnInPlay {
  const std::uint32_t* tables_at_score;  // the first table of each score's slot, facing the turn's target
  std::uint32_t state;                   // score so far << 8 | dice in hand: one add per roll
  DICESIM_HD int score() const { return static_cast<int>(state >> 8); }
  DICESIM_HD int dice() const { return static_cast<int>(state & 0xff); }
};

// What a turn's play reads of a compiled policy (PolicySampler): its tables
// by address, so that the same play runs on the host and, on copies in a
// GPU's memory, on the device (PolicySampler::view_in).
struct SamplerView {
  const std::uint32_t* slot_tables = nullptr;  // [target row][score]: the slot's first table
  const PayloadTable* tables = nullptr;        // [slot][roll][dice in hand]
  const PayloadColumn* columns = nullptr;
  int rolls = 0;
  int dice = 0;
  int scores = 0;
  // Whether the decisions depend on the target and the score so far; a
  // policy with one slot skips looking its slot up at every roll.
  bool slotted = false;

  DICESIM_HD TurnInPlay start(int target) const {
    return {&slot_tables[std::size_t(slot_row(target, scores)) * scores], static_cast<std::uint32_t>(dice)};
  }
  template <bool kSlotted>
  DICESIM_HD void play_roll(int roll, TurnInPlay& turn, Rng& rng) const {
    const std::uint32_t slot_first = kSlotted ? turn.tables_at_score[turn.score()] : 0;
    turn.state += draw_payload(columns, tables[slot_first + roll * (dice + 1) + turn.dice()], rng);
  }
};

// A policy compiled for play: for each (slot, roll, dice in hand) an alias
// table over the decisions the policy takes there, each weighted by the
// chance of the hands that lead to it. One draw and one load give the
// decision, where drawing the hand and then looking up its decision would
// take two dependent loads; and the tables are small enough for L1. Slots
// that decide alike share their tables' columns. A decision's payload is
// what it adds to a TurnInPlay's state: the kept dice's score << 8, less
// the dice kept.
class PolicySampler {
 public:
  PolicySampler() = default;
  PolicySampler(const Hands& hands, const Policy& policy);

  SamplerView view() const {
    return {slot_tables_.data(), tables_.data(), columns_.data(), rolls_, dice_, scores_, slotted_};
  }
  // The same on copies of its tables in a GPU's memory.
  SamplerView view_in(DeviceArrays& device) const {
    SamplerView on_device = view();
    on_device.slot_tables = device.copy(slot_tables_);
    on_device.tables = device.copy(tables_);
    on_device.columns = device.copy(columns_);
    return on_device;
  }

 private:
  int rolls_ = 0;
  int dice_ = 0;
  int scores_ = 0;
  bool slotted_ = false;
  std::vector<std::uint32_t> slot_tables_;
  std::vector<PayloadTable> tables_;
  std::vector<PayloadColumn> columns_;
};

// How many of a turn's first rolls are played whatever the dice do: a turn
// that has already kept every die rolls an empty hand (one draw, nothing
// kept). Wasting a draw now and then is cheaper than a branch on the dice,
// which would stop the processor from overlapping the turns in play.
constexpr int kUnbranchedRolls = 3;

// Plays `N` turns side by side, their rolls interleaved (roll 1 of every
// turn, then roll 2, ...): each turn is a chain of dependent steps (draw,
// table, decision, dice), and independent chains side by side keep the
// processor busy. The draws go to the turns in that order, so the results
// depend on N: it is fixed per game.
template <int N, bool kSlotted>
DICESIM_HD inline void play_turns(const SamplerView& policy, TurnInPlay (&turns)[N], Rng& rng) {
  const int unbranched =
      std::min(std::min(policy.rolls, policy.dice), int(kUnbranchedRolls));  // a value: no device copy
  for (int roll = 0; roll < unbranched; ++roll) DICESIM_UNROLL
  for (TurnInPlay& turn : turns) policy.play_roll<kSlotted>(roll, turn, rng);
  for (TurnInPlay& turn : turns)
    for (int roll = unbranched; roll < policy.rolls && turn.dice() > 0; ++roll)
      policy.play_roll<kSlotted>(roll, turn, rng);
}
template <int N>
DICESIM_HD inline void play_turns(const SamplerView& policy, TurnInPlay (&turns)[N], Rng& rng) {
  if (policy.slotted)
    play_turns<N, true>(policy, turns, rng);
  else
    play_turns<N, false>(policy, turns, rng);
}

}  // namespace dicesim::sixers
