// Sixers: roll N dice up to R times, set aside at least one die after every
// roll, and score the dice set aside; one face scores zero, the others their
// value. The lowest total wins.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "dice.h"
#include "rng.h"

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
// of k: how many of the lowest dice to set aside.
class Hands {
 public:
  explicit Hands(const Rules& rules);

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

  int roll(int dice, Rng& rng) const {
    const Sampler& s = samplers_[dice];
    return s.first + static_cast<int>(s.sampler.sample(rng));
  }

 private:
  Rules rules_;
  int stride_;
  std::vector<int> offset_;
  std::vector<int> multiset_dice_;
  std::vector<double> probability_;
  std::vector<std::uint16_t> kept_score_;
  std::vector<std::vector<int>> sorted_scores_;
  std::vector<RollOutcomes> tables_;
  struct Sampler {
    RollOutcomes::Sampler sampler;
    int first;
  };
  std::vector<Sampler> samplers_;  // by dice in hand
};

constexpr int kNoTarget = std::numeric_limits<int>::min() / 2;

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

  // keep | (score of the kept dice) << 8: one lookup per roll in the hot loop.
  std::uint16_t decision(int roll, int slot, int hand) const { return decision_[index(roll, slot, hand)]; }

  // The slot of each score so far (0..max score), facing `target` (kNoTarget
  // or a score): looked up once per turn, then indexed by the score.
  const std::uint16_t* slots_for(int target) const { return &slot_map_[std::size_t(target_code(target)) * scores_]; }
  int slot(int target, int score) const { return slots_for(target)[score]; }
  void set_slot(int target, int score, int slot);
  // Targets that need a slot row of their own: kNoTarget and 0..max score + 1
  // (a larger target plays as max score + 1: nothing can reach it).
  int target_code(int target) const { return target == kNoTarget ? 0 : 1 + std::clamp(target, 0, scores_); }

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

// One turn: the final score. target is the score to beat (kNoTarget if none).
inline int play_turn(const Hands& hands, const Policy& policy, int target, Rng& rng) {
  const int rolls = hands.rules().rolls;
  const std::uint16_t* slot = policy.slots_for(target);
  int dice = hands.rules().dice;
  int score = 0;
  for (int roll = 0; roll < rolls; ++roll) {
    const int hand = hands.roll(dice, rng);
    const std::uint16_t decision = policy.decision(roll, slot[score], hand);
    score += decision >> 8;
    dice -= decision & 0xff;
    if (dice == 0) break;
  }
  return score;
}

}  // namespace dicesim::sixers
