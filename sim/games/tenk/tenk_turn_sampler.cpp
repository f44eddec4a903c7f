// Building TurnSampler's tables (tenk.h): the exact distribution of how a
// fresh turn ends, by dynamic programming over the positions about to
// throw, counted in ordered outcomes of the dice so that every weight is an
// integer out of sides^budget.
#include <algorithm>
#include <stdexcept>

#include "games/tenk/tenk.h"

namespace dicesim::tenk {
namespace {

// 12 bits of a 64-bit draw pick a column (up to 4096 entries per table),
// the other 52 the level.
constexpr int kColumnBits = 12;
constexpr std::uint64_t kMaxOutcomes = std::uint64_t(1) << (64 - kColumnBits);

// The weight of each way a fresh turn with `banked` ends, out of
// sides^budget: the turn's throws use at most `budget` dice in all, and the
// turn totals followed stay below `window`; the turns left to decide are
// one entry of `ending`, told apart in `decided`.
struct TurnEndings {
  PayloadWeights ending, decided;
};
TurnEndings turn_endings(const Scoring& scoring, const Policy& policy, int banked, int window, int budget,
                         std::uint64_t sides) {
  constexpr std::uint32_t bust = TurnSampler::kBustEntry, bank = TurnSampler::kBankEntry;
  const Rules& rules = scoring.rules();
  const int regime = regime_of(rules, banked);
  const int cap = window / kPoint;  // turn totals in the table: below cap units
  std::vector<std::uint64_t> power(budget + 1, 1);
  for (int k = 1; k <= budget; ++k) power[k] = power[k - 1] * sides;
  // mass[((thrown * kDiceSlots + dice) * kDiceSlots + pending) * cap + units]:
  // the outcomes of `thrown` dice that lead to this position about to throw.
  std::vector<std::uint64_t> mass(std::size_t(budget + 1) * kDiceSlots * kDiceSlots * cap, 0);
  const auto at = [&](int thrown, int dice, int pending, int units) -> std::uint64_t& {
    return mass[((std::size_t(thrown) * kDiceSlots + dice) * kDiceSlots + pending) * cap + units];
  };
  at(0, rules.dice, kNoPending, 0) = 1;
  PayloadWeights ending, decided;
  const auto leave_to_decide = [&](std::uint32_t position, std::uint64_t weight) {
    ending[TurnSampler::kDecideEntry] += weight;
    decided[position] += weight;
  };
  for (int thrown = 0; thrown < budget; ++thrown)
    for (int dice = 1; dice <= rules.dice && thrown + dice <= budget; ++dice)
      for (int pending = 0; pending < rules.pending_faces(); ++pending)
        for (int units = 0; units < cap; ++units) {
          const std::uint64_t here = at(thrown, dice, pending, units);
          if (here == 0) continue;
          const int after = thrown + dice;
          for (const auto& [step, weight] : scoring.throw_weights(dice, pending)) {
            const std::uint64_t ways = here * weight;  // out of sides^after
            const std::uint64_t scaled = ways * power[budget - after];
            if (step == kBust) {
              ending[bust] += scaled;
              continue;
            }
            const int total = units * kPoint + step_points(step);
            const int next = step_dice(step), next_pending = step_pending(step);
            const bool hot = step_hot(step);
            const std::uint32_t decide = make_step(total, next, next_pending, hot);
            if (total / kPoint >= cap) {
              leave_to_decide(decide, scaled);
              continue;
            }
            switch (after_throw(rules, policy, 0, banked, 0, regime, -1, total, next, next_pending, hot)) {
              case AfterThrow::bust:
                ending[bust] += scaled;
                break;
              case AfterThrow::bank:
                // The banked position matters only to the next player's
                // taking over (IV.5); elsewhere one entry per total.
                ending[bank | (rules.continue_previous ? make_step(total, next, next_pending, false)
                                                       : make_step(total, 0, 0, false))] += scaled;
                break;
              case AfterThrow::throw_on:
                if (after + next > budget)
                  leave_to_decide(decide, scaled);
                else
                  at(after, next, next_pending, total / kPoint) += ways;
                break;
            }
          }
        }
  unsigned __int128 sum = 0;
  for (const auto& [entry, weight] : ending) sum += weight;
  if (sum != power[budget]) throw std::logic_error("TurnSampler: a turn's endings do not sum to sides^budget");
  return {ending, decided};
}

}  // namespace

std::unique_ptr<TurnSampler> TurnSampler::build(const Scoring& scoring, const Policy& policy, int window,
                                                int dice_budget) {
  const Rules& rules = scoring.rules();
  if (policy.win || policy.plays_to_win || rules.partial_set_aside || window < kPoint) return nullptr;
  std::uint64_t sides = 0;
  for (const auto& [step, weight] : scoring.throw_weights(1, kNoPending)) sides += weight;
  // The most dice whose ordered outcomes stay below 2^52 (20 fair dice).
  int budget = 0;
  for (unsigned __int128 outcomes = sides; budget < dice_budget && outcomes < kMaxOutcomes; outcomes *= sides) ++budget;
  if (budget < rules.dice) return nullptr;
  std::unique_ptr<TurnSampler> sampler(new TurnSampler);
  sampler->dice_budget_ = budget;
  int far[kRegimes] = {-1, -1};  // the unit of each regime's shared tables
  for (int banked = 0; banked < rules.target; banked += kPoint) {
    const bool near = rules.target - banked <= window;
    int& shared = far[regime_of(rules, banked)];
    if (near || shared < 0) {
      const TurnEndings turn = turn_endings(scoring, policy, banked, window, budget, sides);
      // More than 4096 entries (none of the presets comes near) would leave
      // too few bits for the level: such turns are played throw by throw.
      if (std::max(turn.ending.size(), turn.decided.size()) > (std::size_t(1) << kColumnBits)) return nullptr;
      if (!near) shared = banked / kPoint;
      ++sampler->tables_;
      sampler->table_at_.push_back(append_payload_table(turn.ending, sampler->columns_));
      sampler->decided_at_.push_back(
          turn.decided.empty() ? WidePayloadTable{} : append_payload_table(turn.decided, sampler->decided_columns_));
    } else {
      sampler->table_at_.push_back(sampler->table_at_[shared]);
      sampler->decided_at_.push_back(sampler->decided_at_[shared]);
    }
  }
  return sampler;
}

}  // namespace dicesim::tenk
