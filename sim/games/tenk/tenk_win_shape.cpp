// The two-player win solve (tenk_win_solver.h) of two fixed strategies:
// how their turns end, and the game's shape followed forward from the
// start (each seat's first turn, the turns played, the chance of a cut).
#include <algorithm>
#include <array>
#include <optional>
#include <tuple>
#include <vector>

#include "games/tenk/tenk_win_solver.h"

namespace dicesim::tenk::win_solve {
namespace {

// Chances below this are not followed by the game's shape (a game still
// running after it, the second seat answering a first turn that reached).
constexpr double kUnfollowed = 1e-15;
// The largest target (units) at which the turns of a game with a strategy
// that reads the other's score (optimal_win) are followed.
constexpr int kCheapTurnsUnits = 4000 / kPoint;

}  // namespace

GameShape Solver::shape() const {
  GameShape shape;
  shape.first_turn[0] = first_turn_of_first_seat();
  if (!rules_.continue_previous) {
    shape.first_turn[1] = first_turn_of_second_seat(shape.first_turn[0]);
    if (turns_are_cheap()) shape.turns = turns_played();
  }
  shape.cut_at_most = cut_chance(shape);
  return shape;
}

Solver::TurnEnds Solver::follow_turn(int seat, int mine, int theirs, int t0, int s0) const {
  const SeatRule& rule = *seat_rule_[seat];
  const int states = landings_.states();
  // Past `last` only forced throws remain (hot dice under IV.1), with a
  // negligible chance: they are banked there.
  const int top = std::max({units_ - mine, bank_minimum(mine), rule.top(seat, mine, theirs, 0) + 1});
  const int last = std::max(top, t0) + 4 * most_points_;
  std::vector<double> mass(std::size_t(last + 1) * states, 0.0), bank(last + 1, 0.0);
  mass[std::size_t(t0) * states + s0] = 1;
  TurnEnds ends;
  for (int t = 0; t <= last; ++t)
    for (int s = 0; s < states; ++s) {
      const double here = mass[std::size_t(t) * states + s];
      if (here == 0) continue;
      ends.bust += here * bust_[s];
      for (int g = first_group_[s]; g < first_group_[s + 1]; ++g) {
        const int k = kept_option(seat, mine, theirs, t, g);
        const int kind = option_kind_[k], to = t + option_points_[k];
        const double p = here * group_probability_[g];
        if (rules_.exact_target && mine + to > units_)
          ends.bust += p;
        else if (to > last || (may_bank(mine, to, kind) && rule.banks(seat, mine, theirs, to, kind)))
          bank[std::min(to, last)] += p;
        else
          mass[std::size_t(to) * states + (kind == landings_.hot() ? full_hand() : kind)] += p;
      }
    }
  const auto nonzero = [](double p) { return p != 0; };
  const auto from = std::find_if(bank.begin(), bank.end(), nonzero);
  const auto to = std::find_if(bank.rbegin(), bank.rend(), nonzero).base();
  if (from < to) ends.bank.assign(from, to), ends.lowest = static_cast<int>(from - bank.begin());
  return ends;
}

const Solver::TurnEnds& Solver::taken_turn_ends(int seat, int mine, int t0, int s0) const {
  std::optional<TurnEnds>& ends = taken_turn_ends_[std::tuple(seat, mine, t0, s0)];
  if (!ends) ends = follow_turn(seat, mine, 0, t0, s0);
  return *ends;
}

const Solver::TurnEnds& Solver::turn_ends(int seat, int mine) const {
  std::vector<std::optional<TurnEnds>>& cache = turn_ends_[seat];
  if (cache.empty()) cache.resize(units_);
  if (!cache[mine]) cache[mine] = follow_turn(seat, mine, 0, 0, full_hand());
  return *cache[mine];
}

bool Solver::turns_are_cheap() const {
  const bool both_ignore_theirs = !seat_rule_[0]->reads_theirs() && !seat_rule_[1]->reads_theirs();
  return both_ignore_theirs || units_ <= kCheapTurnsUnits;
}

const Solver::TurnEnds& Solver::ends_at(int seat, int mine, int theirs) const {
  if (!seat_rule_[seat]->reads_theirs()) return turn_ends(seat, mine);
  if (ends_by_state_.empty()) ends_by_state_.resize(std::size_t(2) * units_ * units_);
  std::optional<TurnEnds>& ends = ends_by_state_[(std::size_t(seat) * units_ + mine) * units_ + theirs];
  if (!ends) ends = follow_turn(seat, mine, theirs, 0, full_hand());
  return *ends;
}

std::vector<double> Solver::first_turn_of_first_seat() const {
  const TurnEnds& ends = ends_at(0, 0, 0);
  std::vector<double> p(std::max<std::size_t>(1, ends.lowest + ends.bank.size()), 0.0);  // a turn that never banks
  p[0] = ends.bust;
  for (std::size_t k = 0; k < ends.bank.size(); ++k) p[ends.lowest + k] += ends.bank[k];
  return p;
}

std::vector<double> Solver::first_turn_of_second_seat(const std::vector<double>& first) const {
  std::vector<double> p(1, 0.0);
  double unfollowed = 0;
  for (int y = 0; y < static_cast<int>(first.size()); ++y) {
    if (first[y] == 0) continue;
    if (reached(y)) {
      unfollowed += first[y];
      continue;
    }
    const TurnEnds& ends = ends_at(1, 0, y);
    if (p.size() < ends.lowest + ends.bank.size()) p.resize(ends.lowest + ends.bank.size(), 0.0);
    p[0] += first[y] * ends.bust;
    for (std::size_t k = 0; k < ends.bank.size(); ++k) p[ends.lowest + k] += first[y] * ends.bank[k];
  }
  if (unfollowed > kUnfollowed) return {};
  return p;
}

template <class OnBank>
double Solver::spread_turn(const TurnEnds& ends, int mine, double here, OnBank&& on_bank) const {
  double short_of_target = 0;
  for (int t = ends.lowest; mine + t < units_ && t < ends.lowest + int(ends.bank.size()); ++t) {
    const double p = ends.bank[t - ends.lowest];
    short_of_target += p;
    on_bank(mine + t, here * p);
  }
  return here * (rules_.exact_target ? ends.banks(units_ - mine) : 1 - ends.bust - short_of_target);
}

std::array<std::vector<double>, 2> Solver::turns_played() const {
  const int capped = rules_.max_rounds + 1;
  std::array<std::vector<double>, 2> turns{std::vector<double>(capped + 1, 0.0), std::vector<double>(capped + 1, 0.0)};
  const auto ends_round = [&](int seat, int round, double p) {
    turns[1][round + 1] += p;
    turns[0][seat == 1 && rules_.last_turn ? std::min(round + 2, rules_.max_rounds) : round + 1] += p;
    return p;
  };
  double ended = 0;
  if (!seat_rule_[0]->reads_theirs() && !seat_rule_[1]->reads_theirs()) {
    // Each seat races alone; seat 0 reaches first in round r if seat 1
    // has not in r turns, seat 1 if seat 0 has not in r + 1.
    const Race first = race_alone(0), second = race_alone(1);
    const auto at = [](const std::vector<double>& v, int m) { return m < int(v.size()) ? v[m] : 0.0; };
    for (int round = 0; round < rules_.max_rounds; ++round) {
      ended += ends_round(0, round, at(first.finishing, round + 1) * at(second.going, round));
      ended += ends_round(1, round, at(first.going, round + 1) * at(second.finishing, round + 1));
    }
  } else {
    // The chance that the game is still running, over the scores, turn by turn.
    std::vector<double> now(std::size_t(units_) * units_, 0.0), next(now.size());  // [mine][theirs] of the mover
    now[0] = 1;
    for (int turn = 0; turn < 2 * rules_.max_rounds && ended < 1 - kUnfollowed; ++turn) {
      const int seat = turn % 2;
      std::fill(next.begin(), next.end(), 0.0);
      for (int mine = 0; mine < units_; ++mine)
        for (int theirs = 0; theirs < units_; ++theirs) {
          const double here = now[std::size_t(mine) * units_ + theirs];
          if (here == 0) continue;
          const TurnEnds& ends = ends_at(seat, mine, theirs);
          next[std::size_t(theirs) * units_ + mine] += here * ends.bust;
          const double reaches = spread_turn(
              ends, mine, here, [&](int score, double p) { next[std::size_t(theirs) * units_ + score] += p; });
          ended += ends_round(seat, turn / 2, reaches);
        }
      now.swap(next);
    }
  }
  turns[0][capped] += 1 - ended, turns[1][capped] += 1 - ended;
  return turns;
}

std::optional<double> Solver::cut_chance(const GameShape& shape) const {
  const int before_last = rules_.max_rounds - 1;
  if (!shape.turns[1].empty()) return shape.turns[1][before_last + 1] + shape.turns[1][before_last + 2];
  if (rules_.continue_previous) return std::nullopt;
  for (int seat = 0; seat < 2; ++seat)
    if (!seat_rule_[seat]->reads_theirs()) {
      const Race race = race_alone(seat);
      return race.going[std::min<std::size_t>(before_last, race.going.size() - 1)];
    }
  return std::nullopt;
}

Race Solver::race_alone(int seat) const {
  Race race(units_, 1);
  while (race.going.back() > kUnfollowed && int(race.going.size()) <= rules_.max_rounds) {
    const std::vector<double>& below = race.below.back();
    std::vector<double> after(units_, 0.0);
    double reaches = 0;
    for (int mine = 0; mine < static_cast<int>(below.size()); ++mine) {
      if (below[mine] == 0) continue;
      const TurnEnds& ends = turn_ends(seat, mine);
      after[mine] += below[mine] * ends.bust;
      reaches += spread_turn(ends, mine, below[mine], [&](int score, double p) { after[score] += p; });
    }
    race.add_turn(std::move(after), {reaches});
  }
  return race;
}

}  // namespace dicesim::tenk::win_solve
