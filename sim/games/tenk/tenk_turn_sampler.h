// 10,000: a fresh turn drawn whole from tables (TurnSampler); the tables
// are built in tenk_turn_sampler.cpp.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/dice.h"
#include "engine/rng.h"
#include "games/tenk/tenk.h"
#include "games/tenk/tenk_rules.h"
#include "games/tenk/tenk_turn_play.h"

namespace dicesim::tenk {

// A whole fresh turn drawn at once: for a banked score, one alias table over
// how the turn ends (bust, or banked with a total and the position left),
// built from the exact distribution of every sequence of throws up to
// dice_budget dice in all. A sequence that would go on beyond the budget,
// or a turn total reaching `window` points, ends in a third kind of entry,
// "decide": the position after its last throw, from which the turn goes on
// as play_turn plays it; the draws are exact either way. Banked scores more
// than `window` below the target share one table per bank-minimum regime,
// since no decision below the window looks at the target there; nearer ones
// have a table each. For policies that throw by the tables, without partial
// setting aside; chases and taken-over positions (IV.5) are played throw by
// throw. Without IV.5 a banked entry holds the total alone: the position
// handed on is read only under IV.5.
//
// optimal_win (two seats) decides by the turn start (seat, mine, theirs):
// its sampler has a table per turn start, built from the solved decisions
// the turn can meet below the window (kWinWindow: what after_throw answers
// at every turn total and landing there), one table per distinct row of
// those, all built when the strategy first plays (seed 000: 1,803 rows for
// 80,000 turn starts, 0.46 MB of tables and 12.6 MB of positions left to
// decide, about 0.25 s).
//
// A table draws a code (CodeTables): 0 a bust, the decide code (the
// highest), else a bank of (code >> position_bits) units, which under IV.5
// keeps the banked position's number in its low position_bits bits. Every
// table's weights sum to sides^budget and it has a column per code, so all
// tables share one range: the number drawn does not wait on which table it
// is for.
// Without IV.5 (the whole-turn loops) a code is the units banked.
class TurnSampler {
 public:
  static constexpr int kWindow = 3000;  // measured: 2000 was no faster (more turns left to decide)
  // optimal_win's window (the least of it and `window`): measured at seed
  // 000 (0.7.0, 10^6 games' time less the build's), 1,150, 1,350 and 1,500
  // were 2 to 7% slower, 1,000 and 2,000 slower still: a wider window
  // leaves fewer turns to decide but has more tables, which leave the caches.
  static constexpr int kWinWindow = 1250;
  // optimal_win's tables stop growing past this many bytes (win_bytes; seed
  // 000 needs 13.3 MB): the turn starts of rows met later are played throw
  // by throw.
  static constexpr std::size_t kWinBytes = std::size_t(64) << 20;
  // The dice budget (a cap): at least the most dice whose ordered outcomes
  // stay below 2^52 (20 fair dice), a table's level and up to 4,096 codes
  // sharing one draw; as many more as the tables draw well with (21 fair
  // dice for the presets without IV.5: tenk_turn_sampler.cpp).
  static constexpr int kDiceBudget = 64;
  // nullptr where the sampler does not apply (or the die is too loaded for
  // a full hand within 52 bits).
  static std::unique_ptr<TurnSampler> build(const Scoring& scoring, const Policy& policy, int window = kWindow,
                                            int dice_budget = kDiceBudget, std::size_t win_bytes = kWinBytes);

  // A fresh turn of `seat` from `banked` points, the other's `theirs` (read
  // by optimal_win only: two seats, neither at the target).
  TurnResult play_turn(const Scoring& scoring, const Policy& policy, int seat, int banked, int theirs, Rng& rng) const {
    const std::size_t unit = this->unit(seat, banked / kPoint, theirs / kPoint);
    const std::uint32_t code = draw_code(unit, rng);
    if (code == decide_code_) [[unlikely]]
      return on_copy(rng, [&](Rng& copy) { return decided_turn(scoring, policy, seat, banked, theirs, copy); });
    return entry_result(entry_of(code));
  }
  TurnResult play_turn(const Scoring& scoring, const Policy& policy, int banked, Rng& rng) const {
    return play_turn(scoring, policy, 0, banked, 0, rng);
  }
  // The same in units of kPoint, without the position handed on: for
  // samplers without IV.5 (whole_turns()), whose codes are the units
  // banked. From `mine` units, the other's `theirs`. kByScore: the caller
  // knows the tables are per banked score (not optimal_win's), which leaves
  // out the turn start's slot.
  // (Inlined: a call per turn, which the compiler chose, measured slower.)
  template <bool kByScore = false>
  [[gnu::always_inline]] int turn_units(const Scoring& scoring, const Policy& policy, int seat, int mine, int theirs,
                                        Rng& rng) const {
    const std::uint32_t code = kByScore ? by_score().draw(mine, rng) : draw_code(unit(seat, mine, theirs), rng);
    if (code == decide_code_) [[unlikely]]
      return decided_units(scoring, policy, seat, mine, theirs, rng);
    return static_cast<int>(code);
  }

  // The tables per banked score (not optimal_win's), for a loop that holds
  // them: draw(mine) is the code of a fresh turn from `mine` units
  // (decide_code: go on with decided_units).
  struct ByScore {
    const std::uint16_t* row_at;  // [mine]: its table
    std::size_t count;
    CodeTables::Drawer codes;
    std::uint32_t decide_code;
    std::uint32_t draw(int mine, Rng& rng) const {
      if (std::size_t(mine) >= count) [[unlikely]]
        return decide_code;
      const std::uint64_t r = codes.number(rng);  // before the row: it does not wait on it
      return codes.pick(row_at[mine], r);
    }
  };
  ByScore by_score() const { return {row_at_.data(), row_at_.size(), codes_.drawer(), decide_code_}; }
  // The rest of a fresh turn whose draw gave the decide code.
  TurnResult decided_turn(const Scoring& scoring, const Policy& policy, int seat, int banked, int theirs,
                          Rng& rng) const {
    return decide(scoring, policy, seat, banked, theirs, decided_of(unit(seat, banked / kPoint, theirs / kPoint)), rng);
  }
  // The same in units, from `mine` units, on a copy of the generator (so
  // that the caller's stays in registers).
  int decided_units(const Scoring& scoring, const Policy& policy, int seat, int mine, int theirs, Rng& rng) const {
    return on_copy(rng,
                   [&](Rng& copy) { return decided_turn(scoring, policy, seat, mine * kPoint, theirs * kPoint, copy); })
               .score /
           kPoint;
  }

  int dice_budget() const { return dice_budget_; }
  int tables() const { return static_cast<int>(codes_.tables()); }
  // Whether the tables are per turn start (seat, mine, theirs): optimal_win.
  bool per_turn_start() const { return seat_stride_ != 0; }
  // Whether the codes are the units banked (no IV.5): the whole-turn loops.
  bool whole_turns() const { return !keeps_positions_; }
  // The bytes of the tables and of the indices of them per turn start.
  std::size_t bytes() const {
    return codes_.bytes() + decided_columns_.size() * sizeof(WidePayloadColumn) +
           decided_at_.size() * sizeof(WidePayloadTable) + row_at_.size() * sizeof(std::uint16_t);
  }

  // The entries of a turn's endings (TurnEndings, tenk_turn_sampler.cpp):
  // 0 a bust; kBankEntry | the Step word of the banked total and position
  // (turn total in place of a throw's points); or kDecideEntry, whose
  // position comes from a second draw, in the table's `decided_at_` table of
  // Step words of positions after the last throw. The rare positions left
  // to decide, apart, keep the first tables small enough to stay in the
  // nearest caches.
  static constexpr std::uint32_t kBustEntry = 0;
  static constexpr std::uint32_t kDecideEntry = 1;
  static constexpr std::uint32_t kBankEntry = 1u << 31;

 private:
  TurnSampler() = default;
  static std::unique_ptr<TurnSampler> build_by_score(const Scoring& scoring, const Policy& policy, int window,
                                                     int budget, std::uint64_t sides, bool one_draw);
  static std::unique_ptr<TurnSampler> build_win(const Scoring& scoring, const Policy& policy, int window, int budget,
                                                std::uint64_t sides, std::size_t most_bytes, bool one_draw);
  // The codes of a sampler of `window` points whose tables' weights sum to
  // `levels`; false where they do not fit a draw, or (one_draw) draw badly.
  bool set_codes(const Rules& rules, int window, std::uint64_t levels, bool one_draw);
  // Appends a table: its row of codes and its positions left to decide.
  void add_row(const PayloadWeights& ending, const PayloadWeights& decided);
  std::uint32_t code_of(std::uint32_t entry) const {
    if (entry == kDecideEntry) return decide_code_;
    return static_cast<std::uint32_t>(step_units(entry)) << position_bits_ | position_of_[entry >> 24 & 0x3f];
  }
  // (A mask, not a branch, between a bust and a bank: the processor cannot
  // predict which.)
  std::uint32_t entry_of(std::uint32_t code) const {
    const std::uint32_t bank =
        kBankEntry | code >> position_bits_ | position_step_[code & ((1u << position_bits_) - 1)];
    return bank & (0u - (code != 0));
  }
  // The slot of a turn start: the banked units for the table policies,
  // (seat, mine, theirs) for optimal_win.
  std::size_t unit(int seat, int mine, int theirs) const {
    if (seat_stride_ == 0) return std::size_t(mine);
    // A score at or past the target (no table: played throw by throw).
    if (std::size_t(mine) >= mine_stride_ || std::size_t(theirs) >= mine_stride_) return ~std::size_t(0);
    return std::size_t(seat) * seat_stride_ + std::size_t(mine) * mine_stride_ + std::size_t(theirs);
  }
  // The table of slot `unit`, kNoRow where it has none.
  std::uint16_t row(std::size_t unit) const { return unit < row_at_.size() ? row_at_[unit] : kNoRow; }
  // The table of the positions its turns left to decide reach (nullptr:
  // slot `unit` has no tables).
  const WidePayloadTable* decided_of(std::size_t unit) const {
    const std::uint16_t r = row(unit);
    return r == kNoRow ? nullptr : &decided_at_[r];
  }
  // The code of a fresh turn from slot `unit`; the decide code (the turn
  // goes on from the position a second draw gives) also where `unit` has
  // no table.
  std::uint32_t draw_code(std::size_t unit, Rng& rng) const {
    const std::uint16_t r = row(unit);
    if (r == kNoRow) [[unlikely]]
      return decide_code_;
    return codes_.drawer().draw(r, rng);
  }
  // A bust's entry is 0, so its score is 0: no branch between a bust and
  // a bank, which the processor cannot predict.
  static TurnResult entry_result(std::uint32_t entry) {
    const int score = step_points(entry);
    return {score, {score, step_dice(entry), step_pending(entry)}};
  }
  // A turn whose table drew "decide": the position after its last throw
  // drawn from `decided` (nullptr: the turn start has no table, so it is
  // thrown from the start), then throw by throw.
  [[gnu::noinline]] TurnResult decide(const Scoring& scoring, const Policy& policy, int seat, int banked, int theirs,
                                      const WidePayloadTable* decided, Rng& rng) const {
    const Position fresh{0, scoring.rules().dice, kNoPending};
    if (decided == nullptr) return tenk::play_turn(scoring, policy, seat, banked, theirs, fresh, -1, rng);
    // optimal_win's decisions are a cache miss away, like the position
    // drawn: start loading them first (the positions lie mostly between a
    // third of the window and twice it).
    if (policy.win)
      policy.win->policy.prefetch_banks(seat, banked / kPoint, theirs / kPoint, win_window_ / 3, win_window_ * 2);
    const std::uint32_t entry = draw_payload(decided_columns_.data(), *decided, rng);
    const int total = step_points(entry), dice = step_dice(entry), pending = step_pending(entry);
    const Rules& rules = scoring.rules();
    const AfterThrow next = after_throw(rules, policy, seat, banked, theirs, regime_of(rules, banked), -1, total, dice,
                                        pending, step_hot(entry));
    if (next != AfterThrow::throw_on) return turn_end(next, {total, dice, pending});
    return tenk::play_turn(scoring, policy, seat, banked, theirs, {total, dice, pending}, -1, rng);
  }

  int dice_budget_ = 0;
  std::size_t seat_stride_ = 0, mine_stride_ = 0;  // see unit()
  int win_window_ = 0;                             // optimal_win's window, in units
  CodeTables codes_;                               // [row]: a turn's code
  // Under IV.5 a bank's code keeps its position, numbered densely in
  // position_bits_ bits: position_of_[a Step's dice and pending face bits]
  // and back, position_step_[number] (those bits in place).
  bool keeps_positions_ = false;
  std::uint32_t position_bits_ = 0;
  std::array<std::uint8_t, 64> position_of_{};
  std::array<Step, 64> position_step_{};
  std::uint32_t decide_code_ = 0;
  WideColumns decided_columns_;
  std::vector<WidePayloadTable> decided_at_;  // [row]: the positions left to decide
  // [unit(...)]: the row of a turn start (2 bytes: the turn starts of a
  // game stay in the caches). The table policies: [banked units], scores
  // far from the target sharing their row.
  std::vector<std::uint16_t> row_at_;
  static constexpr std::uint16_t kNoRow = 0xffff;  // a turn start without a table
};

}  // namespace dicesim::tenk
