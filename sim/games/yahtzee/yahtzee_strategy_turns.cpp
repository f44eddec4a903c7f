#include "games/yahtzee/yahtzee_strategy_turns.h"

#include <oneapi/tbb/parallel_for.h>

#include <cstdint>
#include <stdexcept>

#include "engine/interrupt.h"

namespace dicesim::yahtzee {
namespace {

// A distribution of the score so far, over [low, low + p.size()).
struct ScoreSoFar {
  int low = 0;
  std::vector<double> p;

  // Adds `from`, each score moved up by `shift`, times q.
  void add(const ScoreSoFar& from, double q, int shift) {
    const int new_low = from.low + shift;
    if (p.empty()) {
      low = new_low;
    } else if (new_low < low) {
      p.insert(p.begin(), std::size_t(low - new_low), 0.0);
      low = new_low;
    }
    const std::size_t at = std::size_t(new_low - low);
    if (p.size() < at + from.p.size()) p.resize(at + from.p.size(), 0.0);
    for (std::size_t i = 0; i < from.p.size(); ++i) p[at + i] += q * from.p[i];
  }
};

struct CardTurnWeights {
  OutcomeWeights sampling, fair;
};

}  // namespace

StrategyTurns::StrategyTurns(const Rules& rules, const PlanOf& plan_of, const Die& die, bool distribution)
    : space_(rules), turns_(rules.box_count()), total_(die.outcomes(kDice * rules.rolls)) {
  if (rules.rolls < 1 || rules.rolls > kMaxRolls) throw std::invalid_argument("yahtzee: rolls out of range");
  const bool fair = die.sides == fair_die().sides;
  const double fair_total = double(fair_die().outcomes(kDice * rules.rolls));
  turn_of_.assign(space_.size(), 0);
  for (std::uint64_t count = 1; count < 256; ++count) reject_below_[count] = (0 - total_ * count) % (total_ * count);
  std::vector<std::size_t> layer{space_.index(Card{})};
  std::vector<ScoreSoFar> so_far(1, ScoreSoFar{0, {1.0}});
  std::vector<std::int32_t> slot_of_card(space_.size(), -1);
  for (int filled = 0; filled < turns_; ++filled) {
    throw_if_interrupted();
    std::vector<CardTurnWeights> weights(layer.size());
    tbb::parallel_for(std::size_t(0), layer.size(), [&](std::size_t i) {
      TurnPlan plan;
      plan_of(space_.card(layer[i]), plan);
      weights[i].sampling = turn_weights(plan, rules.rolls, die);
      weights[i].fair = fair ? weights[i].sampling : turn_weights(plan, rules.rolls, fair_die());
    });
    // The next layer's cards in the order first reached (slot_of_card marks them).
    std::vector<std::size_t> next_layer;
    std::vector<ScoreSoFar> next_so_far;
    for (std::size_t i = 0; i < layer.size(); ++i) {
      // The alias table of this card's turn.
      std::vector<std::uint64_t> w;
      std::vector<std::uint32_t> codes;
      for (const auto& [code, weight] : weights[i].sampling) codes.push_back(code), w.push_back(weight);
      // A column names its alias in 8 bits: a card has at most about 150 outcomes.
      if (w.size() > 255 || columns_.size() + w.size() > UINT32_MAX)
        throw std::logic_error("yahtzee: a turn table outgrew its column layout");
      turn_of_[layer[i]] = columns_.size() | std::uint64_t(w.size()) << 32;
      for (std::uint32_t c = 0; const AliasColumn& a : alias_columns(w, total_))
        columns_.push_back(a.threshold | std::uint64_t(a.alias) << 43 | std::uint64_t(codes[c++]) << 51);
      // The cards it leads to, and (fair die) the score so far there.
      const Card card = space_.card(layer[i]);
      for (const auto& [code, weight] : weights[i].fair) {
        int gained;
        const std::size_t to = space_.index(space_.after(card, Outcome::of(code), gained));
        if (slot_of_card[to] < 0) {
          slot_of_card[to] = static_cast<std::int32_t>(next_layer.size());
          next_layer.push_back(to);
          next_so_far.emplace_back();
        }
        if (distribution)
          next_so_far[std::size_t(slot_of_card[to])].add(so_far[i], double(weight) / fair_total, gained);
      }
    }
    cards_ += layer.size();
    for (std::size_t to : next_layer) slot_of_card[to] = -1;
    layer = std::move(next_layer);
    so_far = std::move(next_so_far);
  }
  cards_ += layer.size();
  if (!distribution) return;
  distribution_.assign(std::size_t(rules.max_score()) + 1, 0.0);
  for (const ScoreSoFar& d : so_far)
    for (std::size_t i = 0; i < d.p.size(); ++i) distribution_.at(std::size_t(d.low) + i) += d.p[i];
}

}  // namespace dicesim::yahtzee
