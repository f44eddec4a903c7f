// 10,000: a strategy compiled to tables (Policy) and the hot loop of one
// turn and of one game. The rules of a throw are in tenk_rules.h.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "engine/rng.h"
#include "games/tenk/tenk_rules.h"
#include "games/tenk/tenk_win_policy.h"

namespace dicesim::tenk {

class TableWin;

constexpr int kMaxPlayers = 8;
constexpr int kRegimes = 2;  // the bank minimum below / above high_from (IV.2)

// Whether to throw again, per (regime, pending face, dice for the next
// throw, turn total), and whether to take over the previous player's banked
// position (IV.5). Turn totals past the last slot use the last slot.
class Policy {
 public:
  Policy() = default;
  explicit Policy(const Rules& rules);

  int slots() const { return slots_; }
  int slot(int total) const { return total / kPoint < slots_ ? total / kPoint : slots_ - 1; }
  bool throws(int regime, int pending, int dice, int total) const { return go_[index(regime, pending, dice, total)]; }
  bool takes_over(int regime, int pending, int dice, int total) const {
    return take_[index(regime, pending, dice, total)];
  }
  void set_throws(int regime, int pending, int dice, int total, bool go) {
    go_[index(regime, pending, dice, total)] = go;
  }
  void set_takes_over(int regime, int pending, int dice, int total, bool take) {
    take_[index(regime, pending, dice, total)] = take;
  }
  // With partial setting aside: the value of a position after setting aside
  // (the policy keeps the move of highest value); empty: the best move.
  std::vector<double> value;
  std::size_t index(int regime, int pending, int dice, int total) const {
    return ((std::size_t(regime) * kDiceSlots + pending) * kDiceSlots + dice) * slots_ + slot(total);
  }
  // In a last turn (someone has reached the target) throw until the banked
  // score beats the best score at the table.
  bool chase = true;
  // optimal_win (two seats): the solved decisions, which depend on both
  // banked scores; the tables above are then unused. Otherwise a turn
  // that reaches the target banks at once (where the rules allow): a choice
  // of the families, not a rule; the solved policy may throw on (pad).
  std::shared_ptr<const WinStrategy> win;
  // optimal_win compiled: the solution is attached (Solutions::attach_win)
  // when the strategy first plays or is evaluated, so loading a config never
  // solves.
  bool plays_to_win = false;
  // optimal_win with "seats" (3 or more): the table solve of that many
  // seats (tenk_table_win.h), attached likewise; it plays at tables of
  // exactly that many.
  int table_seats = 0;
  std::shared_ptr<const TableWin> table;

 private:
  int slots_ = 1;
  std::vector<std::uint8_t> go_, take_;
};

// Where a turn starts, and where a banked turn ended (for IV.5).
struct Position {
  int total = 0;
  int dice = 0;
  int pending = kNoPending;
};

struct TurnResult {
  int score = 0;      // banked points, 0 on a bust
  Position position;  // the banked position (dice for the next throw)
};

inline int regime_of(const Rules& rules, int banked) { return banked > rules.high_from ? 1 : 0; }

// The move a policy sets aside from throw i: with partial setting aside the
// one leading to the highest value, otherwise the best move.
Step choose_move(const Scoring& scoring, const Policy& policy, int regime, int dice, int pending, int i, int total);

// Whether banking is allowed after a throw that left `total` and `dice` for
// the next throw (hot: the throw used every die).
inline bool may_bank(const Rules& rules, int banked, int total, bool hot) {
  if (rules.exact_target && banked + total == rules.target) return true;  // no minimum for the last turn
  return total >= rules.bank_minimum_at(banked) && !(hot && rules.no_stop_on_hot_dice);
}

// What the table of `solve tenk` shows: the least turn total below the target
// at which `policy` banks in a fresh turn (nothing banked, no pending triple)
// with `dice` for the next throw (the full hand only after hot dice), the
// bank minimum and IV.1 applied; -1 when it throws on to the target.
int first_bank_total(const Rules& rules, const Policy& policy, int dice);

// IV.4: a throw and the part of it the policy sets aside (kBust if none).
// beat >= 0: a last turn chasing that score.
inline Step set_aside(const Scoring& scoring, const Policy& policy, int seat, int banked, int regime, int theirs,
                      int dice, int pending, int total, int beat, Rng& rng) {
  const int i = scoring.roll(dice, rng);
  if (policy.win) return policy.win->keep(scoring, seat, banked, theirs, dice, pending, i, total, beat);
  return choose_move(scoring, policy, regime, dice, pending, i, total);
}

// What a turn does after a throw that left `total` and `dice` for the next
// throw (hot: the throw used every die). chase_beat >= 0: a last turn,
// where only a banked score above chase_beat counts.
enum class AfterThrow { throw_on, bank, bust };
inline AfterThrow after_throw(const Rules& rules, const Policy& policy, int seat, int banked, int theirs, int regime,
                              int chase_beat, int total, int dice, int pending, bool hot) {
  const int to_target = rules.target - banked;
  if (rules.exact_target && total > to_target) return AfterThrow::bust;
  if (!may_bank(rules, banked, total, hot)) return AfterThrow::throw_on;
  const bool no_padding = rules.bank_at_target && total >= to_target;  // the house rule binds optimal_win too
  const bool bank = chase_beat >= 0 ? banked + total > chase_beat || (rules.exact_target && total == to_target)
                    : policy.win && !no_padding ? policy.win->banks(seat, banked, theirs, total, dice, pending, hot)
                                                : total >= to_target || !policy.throws(regime, pending, dice, total);
  return bank ? AfterThrow::bank : AfterThrow::throw_on;
}

// A turn that ends (busts or banks) where its last throw left `at`.
inline TurnResult turn_end(AfterThrow end, const Position& at) {
  return end == AfterThrow::bank ? TurnResult{at.total, at} : TurnResult{};
}

// One turn of `seat`, its banked score `banked`, the other's `theirs` (two
// seats; optimal_win reads them). beat >= 0: a last turn, where only a
// score above beat counts.
inline TurnResult play_turn(const Scoring& scoring, const Policy& policy, int seat, int banked, int theirs,
                            Position start, int beat, Rng& rng) {
  const Rules& rules = scoring.rules();
  const int regime = regime_of(rules, banked);
  const bool partial = rules.partial_set_aside;
  const int chase_beat = beat >= 0 && policy.chase ? beat : -1;
  int total = start.total, dice = start.dice, pending = start.pending;
  for (;;) {
    const Step step =
        partial ? set_aside(scoring, policy, seat, banked, regime, theirs, dice, pending, total, chase_beat, rng)
                : scoring.throw_best(dice, pending, rng);
    if (step == kBust) return {};
    total += step_points(step);
    dice = step_dice(step);
    pending = step_pending(step);
    const AfterThrow next =
        after_throw(rules, policy, seat, banked, theirs, regime, chase_beat, total, dice, pending, step_hot(step));
    if (next != AfterThrow::throw_on) return turn_end(next, {total, dice, pending});
  }
}

// play(copy) on a copy of the generator, whose state is taken back after:
// the rare turns played throw by throw (calls the compiler does not inline)
// then never see the caller's generator, which can stay in registers
// instead of being stored before every store to a counter.
template <class Play>
[[gnu::always_inline]] inline TurnResult on_copy(Rng& rng, Play play) {
  Rng copy = rng;
  const TurnResult turn = play(copy);
  rng = copy;
  return turn;
}
inline TurnResult play_turn_apart(const Scoring& scoring, const Policy& policy, int seat, int banked, int theirs,
                                  Position start, int beat, Rng& rng) {
  return on_copy(rng, [&](Rng& copy) { return play_turn(scoring, policy, seat, banked, theirs, start, beat, copy); });
}

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

// What one game leaves per seat.
struct GameResult {
  int score[kMaxPlayers];
  int turns[kMaxPlayers];
  int first_turn[kMaxPlayers];
  int place[kMaxPlayers];  // 1 = won (shared when several hold place 1)
  bool capped;             // nobody reached the target within max_rounds
};

// Places (seed 000, III): who reached the target in an earlier round
// first, then the higher score; with last turns for everyone, the score
// alone. reached_round[s] < 0: seat s never reached it.
inline void assign_places(const Rules& rules, int players, const int* reached_round, GameResult& out) {
  const auto key = [&](int s) {
    const long reached = reached_round[s] >= 0 && !rules.last_turn ? reached_round[s] : rules.max_rounds;
    return reached * 100000000L - out.score[s];
  };
  for (int s = 0; s < players; ++s) {
    int place = 1;
    for (int o = 0; o < players; ++o) place += key(o) < key(s);
    out.place[s] = place;
  }
}

// IV.5: whether a turn starts from the position the previous player banked.
// optimal_win answers a reached score (beat >= 0) from where that is likelier.
inline bool takes_over(const Rules& rules, const Policy& policy, int seat, int banked, int theirs, int beat,
                       const Position& handed) {
  if (!policy.win) return policy.takes_over(regime_of(rules, banked), handed.pending, handed.dice, handed.total);
  const WinStrategy& win = *policy.win;
  const Handed h{handed.total / kPoint, handed.dice, handed.pending};
  if (beat < 0)
    return win.policy.takes_over(seat, banked / kPoint, theirs / kPoint, h, win.landings.of(h.dice, h.pending, false));
  const int need = WinStrategy::need_to_beat(rules, banked, beat);
  if (rules.exact_target && need <= h.total) return false;
  return win.reach.at(need - h.total, h.dice, h.pending) > win.reach.fresh(need);
}

// One game in progress: its seats' scores so far (in units of kPoint, the
// bins of the measures), whose turn it is, and who reached the target
// when. The engine plays several side by side (play_side_by_side), one
// turn of each in turn.
struct GameState {
  int units[kMaxPlayers] = {}, first_turn[kMaxPlayers] = {};
  int reached_round[kMaxPlayers];  // < 0: not reached
  int seat = 0, round = 0;         // the next turn's
  int finisher = -1;               // the first seat to reach the target
  Position handed{};               // the last banked position, for IV.5
  bool handed_valid = false;
  GameState() { std::fill_n(reached_round, kMaxPlayers, -1); }
  // The best score at the table (a last turn's to beat), worked out when
  // asked: no turn pays for it.
  int best(int players) const { return *std::max_element(units, units + players); }
  // The turns seat s has played: the rounds so far, and this one up to the
  // next turn's seat.
  int turns(int s) const { return round + (s < seat); }
};

// A turn of `seat` playing the table solve `table` (optimal_win with
// "seats"): its race decisions, or its answer once someone has reached the
// target. Throw by throw (tenk_table_win.cpp).
TurnResult play_solved_table_turn(const Scoring& scoring, const TableWin& table, int seat, const GameState& g,
                                  Rng& rng);

// Plays the next turn of game g and returns whether the game is over (then
// finish_game gives its result). The turn's score goes to on_turn(seat,
// units). samplers[s] (where given and not null) draws seat s's fresh
// turns whole, except last-turn chases. kLoop (chosen once per block, a
// table's games): whole where every seat has a sampler and no turn takes
// over a position (no IV.5), which leaves out what only those need;
// whole_by_score where, besides, no sampler is optimal_win's.
enum class TurnLoop { general, whole, whole_by_score };
template <TurnLoop kLoop = TurnLoop::general, class OnTurn>
bool play_next_turn(const Scoring& scoring, const Policy* const* seats, const TurnSampler* const* samplers, int players,
                    GameState& g, Rng& rng, OnTurn& on_turn) {
  const Rules& rules = scoring.rules();
  const int s = g.seat;
  const Policy& policy = *seats[s];
  const bool chase = g.finisher >= 0 && policy.chase;
  int units;
  constexpr bool kWholeTurns = kLoop != TurnLoop::general;
  if (kWholeTurns && !chase) [[likely]] {
    // The other seat's units (read by optimal_win's sampler only, at two
    // seats; s ^ 1 stays within g.units at any seat count).
    units =
        samplers[s]->turn_units<kLoop == TurnLoop::whole_by_score>(scoring, policy, s, g.units[s], g.units[s ^ 1], rng);
  } else {
    const int banked = g.units[s] * kPoint;
    const int theirs = players == 2 ? g.units[1 - s] * kPoint : 0;  // read by optimal_win only, at two seats
    const int beat = g.finisher >= 0 ? g.best(players) * kPoint : -1;
    Position start{0, rules.dice, kNoPending};
    const bool takes =
        rules.continue_previous && g.handed_valid && takes_over(rules, policy, s, banked, theirs, beat, g.handed);
    if (takes) start = g.handed;
    const TurnSampler* sampler = samplers ? samplers[s] : nullptr;
    const TurnResult turn =
        policy.table
            ? on_copy(rng, [&](Rng& copy) { return play_solved_table_turn(scoring, *policy.table, s, g, copy); })
        : sampler && !takes && !chase ? sampler->play_turn(scoring, policy, s, banked, theirs, rng)
                                      : play_turn_apart(scoring, policy, s, banked, theirs, start, beat, rng);
    g.handed = turn.position;
    g.handed_valid = turn.score > 0;
    units = turn.score / kPoint;
  }
  if (g.round == 0) g.first_turn[s] = units;
  on_turn(s, units);
  const int total = g.units[s] += units;
  const int score = total * kPoint;  // a multiplication, where units of the target would be a division
  const bool reached = rules.exact_target ? score == rules.target : score >= rules.target;
  if (reached && g.reached_round[s] < 0) [[unlikely]] {
    g.reached_round[s] = g.round;
    if (g.finisher < 0) g.finisher = s;
  }
  if (++g.seat == players) {
    g.seat = 0;
    // Without last turns for everyone the round that reached the target is the last.
    if (++g.round == rules.max_rounds || (g.finisher >= 0 && !rules.last_turn)) return true;
  }
  return g.finisher == g.seat;  // everyone else has had a last turn
}

// A finished game's result.
inline void finish_game(const Rules& rules, int players, const GameState& g, GameResult& out) {
  for (int s = 0; s < players; ++s) {
    out.score[s] = g.units[s] * kPoint;
    out.turns[s] = g.turns(s);
    out.first_turn[s] = g.first_turn[s] * kPoint;
  }
  out.capped = g.finisher < 0;
  assign_places(rules, players, g.reached_round, out);
}

// Two seats drawing every fresh turn whole (TurnLoop::whole or
// whole_by_score at two seats, the commonest tables): the game of
// play_next_turn, turn for turn, with both scores and the round in
// registers. Seat 0 never plays a last turn within a round (the round that
// reached the target is the last); seat 1 may chase seat 0, and seat 0
// seat 1 after the round under last_turn. kByScore[s]: seat s's tables are
// per banked score (not optimal_win's), drawn through TurnSampler::ByScore.
template <bool kByScore0, bool kByScore1, class OnTurn>
void play_two_seats(const Scoring& scoring, const Policy* const* seats, const TurnSampler* const* samplers, Rng& rng,
                    GameResult& out, OnTurn& on_turn) {
  const Rules& rules = scoring.rules();
  int units[2] = {0, 0}, first[2] = {0, 0}, reached_round[2] = {-1, -1};
  int round = 0, finisher = -1;
  // Copies of the generator and of the tables' addresses, which stay in
  // registers: only copies of the generator reach the calls.
  Rng local = rng;
  const TurnSampler::ByScore tables[2] = {samplers[0]->by_score(), samplers[1]->by_score()};
  constexpr bool kByScore[2] = {kByScore0, kByScore1};
  // seat: std::integral_constant, so that each seat's way of drawing is
  // chosen at compile time.
  const auto fresh = [&](auto seat) {
    constexpr int s = decltype(seat)::value;
    if constexpr (kByScore[s]) {
      const std::uint32_t code = tables[s].draw(units[s], local);
      if (code != tables[s].decide_code) [[likely]]
        return static_cast<int>(code);  // the units banked
      return samplers[s]->decided_units(scoring, *seats[s], s, units[s], units[s ^ 1], local);
    } else {
      return samplers[s]->turn_units(scoring, *seats[s], s, units[s], units[s ^ 1], local);
    }
  };
  const auto last = [&](auto seat) {  // after the other reached the target
    constexpr int s = decltype(seat)::value;
    if (!seats[s]->chase) return fresh(seat);
    const int beat = std::max(units[0], units[1]) * kPoint;
    return play_turn_apart(scoring, *seats[s], s, units[s] * kPoint, units[s ^ 1] * kPoint, {0, rules.dice, kNoPending},
                           beat, local)
               .score /
           kPoint;
  };
  constexpr std::integral_constant<int, 0> kSeat0;
  constexpr std::integral_constant<int, 1> kSeat1;
  // A seat plays only before it reaches the target (the round that
  // reaches it is the last, and the other seat's last turn ends the game).
  const int target_units = rules.target / kPoint;
  const auto play = [&](int s, int turn) {
    on_turn(s, turn);
    units[s] += turn;
    if (rules.exact_target ? units[s] == target_units : units[s] >= target_units) [[unlikely]] {
      reached_round[s] = round;
      if (finisher < 0) finisher = s;
    }
  };
  int turns[2];
  for (;;) {
    play(0, fresh(kSeat0));
    play(1, finisher < 0 ? fresh(kSeat1) : last(kSeat1));
    turns[0] = turns[1] = ++round;
    if (round == 1) first[0] = units[0], first[1] = units[1];  // the first round's turns, from 0
    if (round == rules.max_rounds || finisher == 0) break;
    if (finisher == 1) {
      if (rules.last_turn) play(0, last(kSeat0)), ++turns[0];
      break;
    }
  }
  for (int s = 0; s < 2; ++s) {
    out.score[s] = units[s] * kPoint;
    out.turns[s] = turns[s];
    out.first_turn[s] = first[s] * kPoint;
  }
  out.capped = finisher < 0;
  assign_places(rules, 2, reached_round, out);
  rng = local;
}

// One whole game (see play_next_turn).
template <TurnLoop kLoop = TurnLoop::general, class OnTurn>
void play_game(const Scoring& scoring, const Policy* const* seats, int players, Rng& rng, GameResult& out,
               OnTurn on_turn, const TurnSampler* const* samplers = nullptr) {
  if constexpr (kLoop == TurnLoop::whole_by_score)
    if (players == 2) return play_two_seats<true, true>(scoring, seats, samplers, rng, out, on_turn);
  if constexpr (kLoop == TurnLoop::whole)
    if (players == 2) {  // a seat or both play optimal_win
      if (!samplers[0]->per_turn_start())
        return play_two_seats<true, false>(scoring, seats, samplers, rng, out, on_turn);
      if (!samplers[1]->per_turn_start())
        return play_two_seats<false, true>(scoring, seats, samplers, rng, out, on_turn);
      return play_two_seats<false, false>(scoring, seats, samplers, rng, out, on_turn);
    }
  GameState g;
  while (!play_next_turn<kLoop>(scoring, seats, samplers, players, g, rng, on_turn)) {
  }
  finish_game(scoring.rules(), players, g, out);
}

}  // namespace dicesim::tenk
