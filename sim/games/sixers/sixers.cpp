#include "games/sixers/sixers.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace dicesim::sixers {

Hands::Hands(const Rules& rules, const Die& sampling_die) : rules_(rules), stride_(rules.dice + 1) {
  offset_.push_back(0);
  for (int n = 0; n <= rules.dice; ++n) {
    tables_.emplace_back(n, sampling_die);
    const RollOutcomes& table = tables_.back();
    for (std::size_t i = 0; i < table.size(); ++i) {
      std::vector<int> scores;
      for (int face = 1; face <= kFaces; ++face)
        scores.insert(scores.end(), table[i].count[face - 1], rules.face_score(face));
      std::sort(scores.begin(), scores.end());
      multiset_dice_.push_back(n);
      probability_.push_back(table.probability(i));
      int running = 0;
      for (int k = 0; k <= rules.dice; ++k) {
        if (k > 0 && k <= n) running += scores[k - 1];
        kept_score_.push_back(static_cast<std::uint16_t>(running));
      }
      sorted_scores_.push_back(std::move(scores));
    }
    offset_.push_back(static_cast<int>(multiset_dice_.size()));
  }
}

int Hands::hand_of(const std::vector<int>& faces) const {
  const int n = static_cast<int>(faces.size());
  std::vector<int> scores;
  for (int face : faces) scores.push_back(rules_.face_score(face));
  std::sort(scores.begin(), scores.end());
  // Hands of n dice with the same sorted scores are the same multiset.
  for (int hand = first(n); hand < first(n + 1); ++hand)
    if (sorted_scores_[hand] == scores) return hand;
  throw std::invalid_argument("Hands::hand_of: not a hand of these rules");
}

Policy::Policy(const Hands& hands, int slots)
    : hands_(&hands),
      slots_(slots),
      hand_count_(hands.count()),
      scores_(hands.rules().max_score() + 1),
      decision_(std::size_t(hands.rules().rolls) * slots * hands.count()) {
  const int top = hands.rules().max_score();
  slot_map_.resize(std::size_t(slot_rows(scores_)) * scores_);
  for (int score = 0; score <= top; ++score) {
    set_slot(kNoTarget, score, 0);
    for (int target = 0; target <= top + 1; ++target) set_slot(target, score, slot_of(target - 1 - score));
  }
  for (int roll = 0; roll < hands.rules().rolls; ++roll)
    for (int slot = 0; slot < slots; ++slot)
      for (int hand = 0; hand < hands.count(); ++hand) {
        const bool last = roll + 1 == hands.rules().rolls;
        set_keep(roll, slot, hand, last ? hands.dice_of(hand) : std::min(1, hands.dice_of(hand)));
      }
}

void Policy::set_keep(int roll, int slot, int hand, int keep) {
  const int dice = hands_->dice_of(hand);
  if (keep > dice || (dice > 0 && keep < 1)) throw std::logic_error("Policy: a roll must keep 1..dice dice");
  decision_[index(roll, slot, hand)] = static_cast<std::uint16_t>(keep | hands_->kept_score(hand, keep) << 8);
}

void Policy::set_slot(int target, int score, int slot) {
  if (slot < 0 || slot >= slots_ || score < 0 || score >= scores_) throw std::logic_error("Policy: no such slot");
  slot_map_[std::size_t(target_code(target)) * scores_ + score] = static_cast<std::uint16_t>(slot);
}

PolicySampler::PolicySampler(const Hands& hands, const Policy& policy)
    : rolls_(hands.rules().rolls), dice_(hands.rules().dice), scores_(hands.rules().max_score() + 1) {
  std::map<PayloadWeights, PayloadTable> shared;
  for (int slot = 0; slot < policy.slots(); ++slot)
    for (int roll = 0; roll < rolls_; ++roll)
      for (int dice = 0; dice <= dice_; ++dice) {
        PayloadWeights weight_of;  // by what the decision adds to a turn's state
        const RollOutcomes& outcomes = hands.outcomes(dice);
        for (std::size_t i = 0; i < outcomes.size(); ++i) {
          const std::uint32_t decision = policy.decision(roll, slot, hands.first(dice) + static_cast<int>(i));
          weight_of[(decision & ~0xffu) - (decision & 0xffu)] += outcomes.sampling_weight(i);  // score << 8, less keep
        }
        const auto [table, added] = shared.try_emplace(weight_of);
        if (added) table->second = append_payload_table(weight_of, columns_);
        tables_.push_back(table->second);
      }
  slotted_ = policy.slots() > 1;
  const int tables_per_slot = rolls_ * (dice_ + 1);
  for (int row = 0; row < slot_rows(scores_); ++row)
    for (int score = 0; score < scores_; ++score)
      slot_tables_.push_back(static_cast<std::uint32_t>(policy.slot(target_of_row(row), score) * tables_per_slot));
}

}  // namespace dicesim::sixers
