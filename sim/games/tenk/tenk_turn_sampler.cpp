// Building TurnSampler's tables (tenk_turn_sampler.h): the exact distribution of how a
// fresh turn ends, by dynamic programming over the positions about to
// throw, counted in ordered outcomes of the dice so that every weight is an
// integer out of sides^budget.
#include "games/tenk/tenk_turn_sampler.h"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>
#include <tuple>
#include <unordered_map>

namespace dicesim::tenk {
namespace {

// 12 bits of a 64-bit draw pick a column (up to 4096 entries per table),
// the other 52 the level: the fewest dice a sampler counts (build() takes
// more where every table draws well).
constexpr int kColumnBits = 12;
constexpr std::uint64_t kMaxOutcomes = std::uint64_t(1) << (64 - kColumnBits);

// Weights by position (a Step word: units, dice, pending face, hot), dense
// over the units below a bound: the dynamic programming adds to them often.
class Tally {
 public:
  explicit Tally(int units) : weight_(std::size_t(units) << 7, 0) {}
  void add(Step position, std::uint64_t weight) {
    weight_[std::size_t(step_units(position)) << 7 | position >> 24] += weight;
  }
  // Each position's weight, under the payload `tag | position`.
  void add_to(PayloadWeights& out, std::uint32_t tag) const {
    for (std::size_t i = 0; i < weight_.size(); ++i)
      if (weight_[i] != 0) out[tag | Step(i >> 7) | Step(i & 0x7f) << 24] += weight_[i];
  }

 private:
  std::vector<std::uint64_t> weight_;
};

// The weight of each way a fresh turn of `seat` with `banked` (the other's
// `theirs`: optimal_win) ends, out of sides^budget: the turn's throws use at
// most `budget` dice in all, and the turn totals followed stay below
// `window`; the turns left to decide are one entry of `ending`, told apart
// in `decided`.
struct TurnEndings {
  PayloadWeights ending, decided;
};
class TurnEndingsOf {
 public:
  TurnEndingsOf(const Scoring& scoring, int window, int budget, std::uint64_t sides)
      : scoring_(scoring), cap_(window / kPoint), budget_(budget), power_(budget + 1, 1) {
    for (int k = 1; k <= budget; ++k) power_[k] = power_[k - 1] * sides;
    const Rules& rules = scoring.rules();
    throws_.resize(kDiceSlots * kDiceSlots);
    for (int dice = 1; dice <= rules.dice; ++dice)
      for (int pending = 0; pending < rules.pending_faces(); ++pending)
        for (const auto& [step, weight] : scoring.throw_weights(dice, pending)) {
          throws_[dice * kDiceSlots + pending].emplace_back(step, weight);
          most_units_ = std::max(most_units_, step_units(step));
        }
  }

  // What every turn's weights sum to: sides^budget.
  std::uint64_t outcomes() const { return power_[budget_]; }

  TurnEndings operator()(const Policy& policy, int seat, int banked, int theirs) const {
    const Rules& rules = scoring_.rules();
    const int regime = regime_of(rules, banked), cap = cap_, budget = budget_;
    // mass[((thrown * kDiceSlots + dice) * kDiceSlots + pending) * cap + units]:
    // the outcomes of `thrown` dice that lead to this position about to throw.
    std::vector<std::uint64_t> mass(std::size_t(budget + 1) * kDiceSlots * kDiceSlots * cap, 0);
    const auto at = [&](int thrown, int dice, int pending, int units) -> std::uint64_t& {
      return mass[((std::size_t(thrown) * kDiceSlots + dice) * kDiceSlots + pending) * cap + units];
    };
    at(0, rules.dice, kNoPending, 0) = 1;
    std::uint64_t busts = 0, to_decide = 0;
    Tally banks(cap), decided(cap + most_units_ + 1);
    const auto leave_to_decide = [&](Step position, std::uint64_t weight) {
      to_decide += weight;
      decided.add(position, weight);
    };
    for (int thrown = 0; thrown < budget; ++thrown)
      for (int dice = 1; dice <= rules.dice && thrown + dice <= budget; ++dice)
        for (int pending = 0; pending < rules.pending_faces(); ++pending)
          for (int units = 0; units < cap; ++units) {
            const std::uint64_t here = at(thrown, dice, pending, units);
            if (here == 0) continue;
            const int after = thrown + dice;
            for (const auto& [step, weight] : throws_[dice * kDiceSlots + pending]) {
              const std::uint64_t ways = here * weight;  // out of sides^after
              const std::uint64_t scaled = ways * power_[budget - after];
              if (step == kBust) {
                busts += scaled;
                continue;
              }
              const int total = units * kPoint + step_points(step);
              const int next = step_dice(step), next_pending = step_pending(step);
              const bool hot = step_hot(step);
              const Step position = make_step(total, next, next_pending, hot);
              if (total / kPoint >= cap) {
                leave_to_decide(position, scaled);
                continue;
              }
              switch (after_throw(rules, policy, seat, banked, theirs, regime, -1, total, next, next_pending, hot)) {
                case AfterThrow::bust:
                  busts += scaled;
                  break;
                case AfterThrow::bank:
                  // The banked position matters only to the next player's
                  // taking over (IV.5); elsewhere one entry per total.
                  banks.add(rules.continue_previous ? make_step(total, next, next_pending, false)
                                                    : make_step(total, 0, 0, false),
                            scaled);
                  break;
                case AfterThrow::throw_on:
                  if (after + next > budget)
                    leave_to_decide(position, scaled);
                  else
                    at(after, next, next_pending, total / kPoint) += ways;
                  break;
              }
            }
          }
    return endings(busts, to_decide, banks, decided);
  }

 private:
  // A turn's endings from what the dynamic programming gathered: the
  // weights of a bust, of the turns left to decide and of each bank, and
  // the positions left to decide; their sum checked against sides^budget.
  TurnEndings endings(std::uint64_t busts, std::uint64_t to_decide, const Tally& banks, const Tally& decided) const {
    TurnEndings out;
    if (busts != 0) out.ending[TurnSampler::kBustEntry] = busts;
    if (to_decide != 0) out.ending[TurnSampler::kDecideEntry] = to_decide;
    banks.add_to(out.ending, TurnSampler::kBankEntry);
    decided.add_to(out.decided, 0);
    unsigned __int128 sum = 0;
    for (const auto& [entry, weight] : out.ending) sum += weight;
    if (sum != power_[budget_]) throw std::logic_error("TurnSampler: a turn's endings do not sum to sides^budget");
    return out;
  }

  const Scoring& scoring_;
  int cap_, budget_;
  std::vector<std::uint64_t> power_;
  std::vector<std::vector<std::pair<Step, std::uint64_t>>> throws_;  // [dice * kDiceSlots + pending]
  int most_units_ = 0;                                               // the most units of one throw
};

// A table of more than 4096 positions left to decide (none of the presets
// comes near) would leave too few bits for its level: such turns are
// played throw by throw.
bool fits(const PayloadWeights& decided) { return decided.size() <= (std::size_t(1) << kColumnBits); }

// Whether numbers below `range` draw well from one 64-bit number: range
// below 2^64, and at most one draw in 32 rejected (Lemire's bound, 2^64 mod
// range). Measured on ev_heuristic's tables: 22 dice reject 8.7% of draws
// and ran slower than 21 dice (1.0%), which leave a quarter fewer turns to
// decide than 20.
bool draws_well(unsigned __int128 range) {
  if (range > UINT64_MAX) return false;
  const auto r = static_cast<std::uint64_t>(range);
  return (0 - r) % r <= (UINT64_MAX >> 5);
}

// The range a table of positions left to decide draws below: its weights'
// sum times its columns, padded to a power of two (1 for no table).
unsigned __int128 range_of(const PayloadWeights& weights) {
  if (weights.empty()) return 1;
  unsigned __int128 sum = 0;
  for (const auto& [entry, weight] : weights) sum += weight;
  return sum << (weights.size() <= 1 ? 0 : std::bit_width(weights.size() - 1));
}

}  // namespace

std::unique_ptr<TurnSampler> TurnSampler::build(const Scoring& scoring, const Policy& policy, int window,
                                                int dice_budget, std::size_t win_bytes) {
  const Rules& rules = scoring.rules();
  // optimal_win plays from its solution, attached when it first plays.
  if ((policy.plays_to_win && !policy.win) || policy.table || rules.partial_set_aside || window < kPoint)
    return nullptr;
  std::uint64_t sides = 0;
  for (const auto& [step, weight] : scoring.throw_weights(1, kNoPending)) sides += weight;
  // The most dice whose ordered outcomes stay below 2^52 (20 fair dice).
  int budget = 0;
  for (unsigned __int128 outcomes = sides; budget < dice_budget && outcomes < kMaxOutcomes; outcomes *= sides) ++budget;
  if (budget < rules.dice) return nullptr;
  // A table has few columns (the totals banked, a bust, "decide"), which
  // leaves room for more dice than 52 bits of level: the most that draw
  // well (draws_well), so that fewer turns are left to decide.
  const auto build_at = [&](int dice, bool one_draw) {
    return policy.win ? build_win(scoring, policy, std::min(window, kWinWindow), dice, sides, win_bytes, one_draw)
                      : build_by_score(scoring, policy, window, dice, sides, one_draw);
  };
  int most = budget;
  unsigned __int128 more = sides;  // sides^(most + 1)
  for (int k = 0; k < most; ++k) more *= sides;
  for (; most < dice_budget && more <= UINT64_MAX; more *= sides) ++most;
  for (int tried = most; tried > budget; --tried)
    if (std::unique_ptr<TurnSampler> sampler = build_at(tried, true)) return sampler;
  return build_at(budget, false);
}

bool TurnSampler::set_codes(const Rules& rules, int window, std::uint64_t levels, bool one_draw) {
  // Without IV.5 a bank keeps no position (number 0, Step bits 0).
  keeps_positions_ = rules.continue_previous;
  int positions = 1;
  if (keeps_positions_) {
    positions = 0;
    for (int dice = 1; dice <= rules.dice; ++dice)
      for (int pending = 0; pending < rules.pending_faces(); ++pending)
        if (rules.reachable(dice, pending)) {
          const Step bits = make_step(0, dice, pending, false);
          position_of_[bits >> 24 & 0x3f] = static_cast<std::uint8_t>(positions);
          position_step_[positions++] = bits;
        }
  }
  position_bits_ = static_cast<std::uint32_t>(std::bit_width(unsigned(positions - 1)));
  const auto bits = static_cast<std::uint32_t>(std::bit_width(std::uint32_t(window / kPoint) << position_bits_));
  if (bits > kColumnBits || !CodeTables::fit(levels, bits)) return false;
  if (one_draw && !draws_well(static_cast<unsigned __int128>(levels) << bits)) return false;
  decide_code_ = (1u << bits) - 1;  // above every bank's: a bank's units stay below the window
  codes_ = CodeTables(levels, bits);
  return true;
}

void TurnSampler::add_row(const PayloadWeights& ending, const PayloadWeights& decided) {
  std::vector<std::uint64_t> weights(std::size_t(1) << codes_.code_bits(), 0);
  for (const auto& [entry, weight] : ending) {
    if (entry_of(code_of(entry)) != entry && entry != kDecideEntry)
      throw std::logic_error("TurnSampler: a turn's ending has no code");
    weights.at(code_of(entry)) += weight;
  }
  codes_.append(weights);
  decided_at_.push_back(decided.empty() ? WidePayloadTable{} : append_payload_table(decided, decided_columns_));
}

// The table policies' sampler: a table per banked score (shared far from
// the target, by regime). one_draw: the tables must draw well (else
// nullptr), not merely fit.
std::unique_ptr<TurnSampler> TurnSampler::build_by_score(const Scoring& scoring, const Policy& policy, int window,
                                                         int budget, std::uint64_t sides, bool one_draw) {
  const Rules& rules = scoring.rules();
  const TurnEndingsOf endings(scoring, window, budget, sides);
  std::unique_ptr<TurnSampler> sampler(new TurnSampler);
  sampler->dice_budget_ = budget;
  if (!sampler->set_codes(rules, window, endings.outcomes(), one_draw)) return nullptr;
  int far[kRegimes] = {-1, -1};  // the row of each regime's shared tables
  for (int banked = 0; banked < rules.target; banked += kPoint) {
    const bool near = rules.target - banked <= window;
    int& shared = far[regime_of(rules, banked)];
    if (near || shared < 0) {
      const TurnEndings turn = endings(policy, 0, banked, 0);
      if (!fits(turn.decided) || (one_draw && !draws_well(range_of(turn.decided)))) return nullptr;
      if (!near) shared = sampler->tables();
      sampler->row_at_.push_back(static_cast<std::uint16_t>(sampler->tables()));
      sampler->add_row(turn.ending, turn.decided);
    } else {
      sampler->row_at_.push_back(static_cast<std::uint16_t>(shared));
    }
  }
  return sampler;
}

// optimal_win: a table per distinct row of what after_throw answers at the
// turn totals below the window, for every landing. The turn starts are met
// in a fixed order, so the tables, and the rows left without one once the
// tables reach most_bytes, are the same in every run.
std::unique_ptr<TurnSampler> TurnSampler::build_win(const Scoring& scoring, const Policy& policy, int window,
                                                    int budget, std::uint64_t sides, std::size_t most_bytes,
                                                    bool one_draw) {
  const Rules& rules = scoring.rules();
  const int units = policy.win->units, cap = window / kPoint;
  // Every landing a throw can leave: (dice, pending face), and hot dice.
  std::vector<std::tuple<int, int, bool>> landings;
  for (int dice = 1; dice <= rules.dice; ++dice)
    for (int pending = 0; pending < rules.pending_faces(); ++pending)
      if (rules.reachable(dice, pending)) landings.emplace_back(dice, pending, false);
  landings.emplace_back(rules.dice, kNoPending, true);
  const TurnEndingsOf endings(scoring, window, budget, sides);
  std::unique_ptr<TurnSampler> sampler(new TurnSampler);
  sampler->dice_budget_ = budget;
  if (!sampler->set_codes(rules, window, endings.outcomes(), one_draw)) return nullptr;
  sampler->win_window_ = cap;
  sampler->seat_stride_ = std::size_t(units) * units;
  sampler->mine_stride_ = units;
  sampler->row_at_.reserve(2 * sampler->seat_stride_);
  std::unordered_map<std::string, std::uint16_t> row_of;
  std::string row;
  for (int seat = 0; seat < 2; ++seat)
    for (int mine = 0; mine < units; ++mine)
      for (int theirs = 0; theirs < units; ++theirs) {
        const int banked = mine * kPoint, their = theirs * kPoint, regime = regime_of(rules, banked);
        row.clear();
        for (int total = kPoint; total < cap * kPoint; total += kPoint)
          for (const auto& [dice, pending, hot] : landings)
            row.push_back(static_cast<char>(
                after_throw(rules, policy, seat, banked, their, regime, -1, total, dice, pending, hot)));
        const auto [at, fresh] = row_of.try_emplace(row, kNoRow);
        if (fresh && sampler->bytes() < most_bytes && sampler->tables() < kNoRow) {
          const TurnEndings turn = endings(policy, seat, banked, their);
          // Positions left to decide are drawn seldom: any rejection rate
          // will do, within 64 bits.
          if (!fits(turn.decided) || (one_draw && range_of(turn.decided) > UINT64_MAX)) return nullptr;
          at->second = static_cast<std::uint16_t>(sampler->tables());
          sampler->add_row(turn.ending, turn.decided);
        }
        sampler->row_at_.push_back(at->second);
      }
  return sampler;
}

}  // namespace dicesim::tenk
