// 10,000: a strategy compiled to tables (Policy), where a turn starts and
// ends, and what a game in progress and a finished game hold. The rules of a
// throw are in tenk_rules.h; one turn's play is in tenk_turn_play.h, a
// fresh turn drawn whole in tenk_turn_sampler.h, a whole game's play in
// tenk_game_loop.h.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

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

// What one game leaves per seat.
struct GameResult {
  int score[kMaxPlayers];
  int turns[kMaxPlayers];
  int first_turn[kMaxPlayers];
  int place[kMaxPlayers];  // 1 = won (shared when several hold place 1)
  bool capped;             // nobody reached the target within max_rounds
};

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

}  // namespace dicesim::tenk
