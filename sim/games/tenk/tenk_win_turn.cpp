// The two-player win solve (tenk_win_solver.h): the value of one turn,
// linear in what a bust hands over, row by row of turn totals from the top
// down: each throw's outcomes, where they land, banking against throwing
// on, and the parts kept under IV.4.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "games/tenk/tenk_win_solver.h"

namespace dicesim::tenk::win_solve {

inline int Solver::top_total(int seat, int mine, int theirs, double bust_utility, Stability& stability) const {
  if (rules_.exact_target) return units_ - mine;  // passing the target busts
  int least = std::max(units_ - mine, bank_minimum(mine));
  if (!answered(seat) || (rules_.bank_at_target && !stationary())) return least;  // no padding
  const int last = theirs + reach_span_;                                          // a fresh chase past it is negligible
  // Past the top the rows are copies of one (stationary) or bank values.
  if (stationary()) least = std::max(least, last - mine);
  if (seat_rule_[seat]) return seat_rule_[seat]->top(seat, mine, theirs, least);
  if (stationary() || fewest_busts_ <= 0) return std::max(least, last - mine);
  // Padding from any state risks at least fewest_busts_ of dropping from
  // the bank value to bust_utility and gains at most the chase chance:
  // once that chance is below half the risk, banking is best.
  const double bound = 0.5 * fewest_busts_ * (1 - bust_utility);
  const Handed none{};
  int score = std::max(units_, mine + least);
  while (score < last && chase(1 - seat, theirs, score + 1, none) > bound) ++score;
  stability.high = std::min(stability.high, 1 - chase(1 - seat, theirs, score + 1, none) / fewest_busts_);
  return std::max(least, score - mine);
}

inline void Solver::choose(Scratch& work, int seat, int mine, int theirs, int t, int kind, bool forbidden,
                           const Linear& bank, const Linear& on, double bust_utility, Stability& stability,
                           Linear& out) {
  bool banks;
  if (forbidden) {
    banks = false;
  } else if (const SeatRule* rule = seat_rule_[seat]) {
    banks = rule->banks(seat, mine, theirs, t, kind);
  } else {
    banks = bank.utility(bust_utility) >= on.utility(bust_utility);
    if (banks)
      stability.keep(bank, on);
    else
      stability.keep(on, bank);
  }
  out = banks ? bank : on;
  work.decided[seat][std::size_t(t - 1) * landings_.count() + kind] = banks;
}

void Solver::add_kept_row(int seat, int regime, std::vector<int>& kept) const {
  const SeatRule& rule = *seat_rule_[seat];
  const int t = static_cast<int>(kept.size() / group_probability_.size());
  for (int g = 0; g < static_cast<int>(group_probability_.size()); ++g) {
    int best = first_option_[g];
    double best_value = rule.part_value(seat, regime, t + option_points_[best], option_kind_[best]);
    for (int k = best + 1; k < first_option_[g + 1]; ++k)
      if (const double v = rule.part_value(seat, regime, t + option_points_[k], option_kind_[k]); v > best_value)
        best_value = v, best = k;
    kept.push_back(best);
  }
}

inline void Solver::narrow_by_parts(int first, int end, const Linear* from, const double* utility, const int* offsets,
                                    double bust_utility, Stability& stability) {
  int kept = first;
  double best_utility = utility[offsets[first]];
  for (int k = first + 1; k < end; ++k) {
    const double u = utility[offsets[k]];
    const bool better = u > best_utility;  // selected without a branch: which option wins is unpredictable
    const int chosen = better ? k : kept, other = better ? kept : k;
    const Linear &c = from[offsets[chosen]], &o = from[offsets[other]];
    if (c.bust != o.bust && stability.may_move(bust_utility, std::abs(u - best_utility))) stability.keep(c, o);
    kept = chosen, best_utility = std::max(best_utility, u);
  }
}

inline int Solver::best_part(int first, int end, const double* utility, const int* offsets, double& closest) {
  int kept = first;
  double best = utility[offsets[first]];
  closest = std::numeric_limits<double>::infinity();
  for (int k = first + 1; k < end; ++k) {
    const double u = utility[offsets[k]];
    closest = std::min(closest, std::abs(u - best));
    kept = u > best ? k : kept;
    best = std::max(best, u);
  }
  return kept;
}

inline Linear Solver::throw_value(Scratch& work, int seat, int mine, int theirs, int t, int s, const Linear* from,
                                  const double* utility, const int* offsets, double bust_utility,
                                  Stability& stability) {
  Linear value{0, 0, bust_[s]};
  if (seat_rule_[seat]) {
    for (int g = first_group_[s]; g < first_group_[s + 1]; ++g)
      value.add(group_probability_[g], from[offsets[kept_option(seat, mine, theirs, t, g)]]);
    return value;
  }
  if (!rules_.partial_set_aside) {  // one option a group
    for (int g = first_group_[s]; g < first_group_[s + 1]; ++g)
      value.add(group_probability_[g], from[offsets[first_option_[g]]]);
    return value;
  }
  for (int g = first_group_[s]; g < first_group_[s + 1]; ++g) {
    const int first = first_option_[g], end = first_option_[g + 1];
    if (end - first == 1) {
      value.add(group_probability_[g], from[offsets[first]]);
      continue;
    }
    double closest;
    const int kept = best_part(first, end, utility, offsets, closest);
    value.add(group_probability_[g], from[offsets[kept]]);
    if (stability.may_move(bust_utility, closest))
      narrow_by_parts(first, end, from, utility, offsets, bust_utility, stability);
    work.kept_parts[seat][std::size_t(t) * group_probability_.size() + g] = kept - first;
  }
  return value;
}

inline void Solver::land(Scratch& work, int seat, int mine, int theirs, int t, const Linear* go, double bust_utility,
                         Stability& stability, Linear* row) {
  const int kinds = landings_.count();
  if (rules_.exact_target && mine + t > units_) {  // past an exact target: a bust (IV.5 rows only)
    std::fill(row, row + kinds, Linear{0, 0, 1});
    std::fill_n(&work.decided[seat][std::size_t(t - 1) * kinds], kinds, false);  // never asked
    return;
  }
  const bool reach = reached(mine + t);
  const int minimum = bank_minimum(mine);
  for (int kind = 0; kind < kinds; ++kind) {
    const bool hot = kind == landings_.hot();
    const Linear& on = go[hot ? full_hand() : kind];
    const bool may_bank = (rules_.exact_target && reach) || (t >= minimum && !(hot && rules_.no_stop_on_hot_dice));
    if (!may_bank) {
      row[kind] = on;
      work.decided[seat][std::size_t(t - 1) * kinds + kind] = false;
      continue;
    }
    const Linear bank = bank_value(seat, mine, theirs, t, kind);
    const bool must = reach && (!answered(seat) || rules_.bank_at_target);  // reaching wins at once, or must bank
    choose(work, seat, mine, theirs, t, kind, false, bank, must ? bank : on, bust_utility, stability, row[kind]);
  }
}

inline void Solver::land_above_top(Scratch& work, int seat, int mine, int theirs, int t, bool first,
                                   double bust_utility, Stability& stability, Linear* row) {
  const int kinds = landings_.count();
  if (rules_.exact_target) {  // passing the target busts: the decision there is never asked
    std::fill(row, row + kinds, Linear{0, 0, 1});
    if (first) std::fill_n(&work.decided[seat][std::size_t(t - 1) * kinds], kinds, true);
    return;
  }
  if (stationary() && !first) {  // the same as the row below
    std::copy_n(row - kinds, kinds, row);
    return;
  }
  for (int kind = 0; kind < kinds; ++kind) row[kind] = bank_value(seat, mine, theirs, t, kind);
  if (first) std::fill_n(&work.decided[seat][std::size_t(t - 1) * kinds], kinds, true);
  if (!stationary()) return;
  const std::vector<Linear> bank(row, row + kinds);
  std::vector<Linear> go(landings_.states());
  std::vector<double> utility(kinds);
  for (int sweep = 0; sweep < 10000; ++sweep) {
    Stability last;
    for (int kind = 0; kind < kinds; ++kind) utility[kind] = row[kind].utility(bust_utility);
    for (int s = 0; s < landings_.states(); ++s)
      go[s] = throw_value(work, seat, mine, theirs, t, s, row, utility.data(), option_kind_.data(), bust_utility, last);
    double change = 0;
    for (int kind = 0; kind < kinds; ++kind) {
      const bool hot = kind == landings_.hot();
      const Linear before = row[kind];
      const bool forbidden = hot && rules_.no_stop_on_hot_dice;
      const Linear& on = rules_.bank_at_target && !forbidden ? bank[kind] : go[hot ? full_hand() : kind];
      choose(work, seat, mine, theirs, t, kind, forbidden, bank[kind], on, bust_utility, last, row[kind]);
      change = std::max(change, std::abs(row[kind].utility(bust_utility) - before.utility(bust_utility)));
    }
    if (change < 1e-16) {
      stability.low = std::max(stability.low, last.low);
      stability.high = std::min(stability.high, last.high);
      return;
    }
  }
}

inline Linear Solver::fixed_turn(int seat, int mine, int theirs) const {
  const TurnEnds& ends = turn_ends(seat, mine);
  Linear value{0, 0, ends.bust};
  for (int k = 0; k < static_cast<int>(ends.bank.size()); ++k)
    if (ends.bank[k] > 0) value.add(ends.bank[k], bank_value(seat, mine, theirs, ends.lowest + k, landings_.hot()));
  return value;
}

Linear Solver::turn(Scratch& work, int seat, int mine, int theirs, const WinValue& on_bust, Stability& stability) {
  if (seat_rule_[seat] && !seat_rule_[seat]->reads_theirs() && !rules_.continue_previous)
    return fixed_turn(seat, mine, theirs);
  const double u = on_bust.utility();
  // IV.5: every total the other seat could hand over needs its state.
  const int top = std::max(top_total(seat, mine, theirs, u, stability), rules_.continue_previous ? theirs : 0);
  SeatScratch& mine_work = work.seat[seat];
  bool keep = mine_work.mine == mine && mine_work.theirs == theirs && work.tops[seat] == top;
  mine_work.mine = mine, mine_work.theirs = theirs, work.tops[seat] = top;
  const int states = landings_.states(), kinds = landings_.count();
  std::vector<Linear>&throwing = work.throwing[seat], &landing = mine_work.landing;
  const std::size_t rows = std::size_t(top) + most_points_ + 1;
  if (landing.size() < rows * kinds) landing.resize(rows * kinds);
  if (throwing.size() < std::size_t(top + 1) * states) throwing.resize(std::size_t(top + 1) * states);
  if (work.decided[seat].size() < std::size_t(top + 1) * kinds) work.decided[seat].resize(std::size_t(top + 1) * kinds);
  if (mine_work.rows.size() < std::size_t(top + 1)) mine_work.rows.resize(top + 1);
  if (rules_.partial_set_aside && !seat_rule_[seat] && !keep)  // totals 0..top + 1, every one written or left first
    work.kept_parts[seat].assign(std::size_t(top + 2) * group_probability_.size(), 0);
  // Past the top the rows are bank values, the same every pass, unless
  // they are a fixed point that depends on the bust value.
  const auto above = landing.begin() + std::ptrdiff_t(top + 1) * kinds, end = landing.begin() + rows * kinds;
  if (keep && stationary()) mine_work.above.assign(above, end);
  if (!keep || stationary())
    for (int t = top + 1; t < static_cast<int>(rows); ++t)
      land_above_top(work, seat, mine, theirs, t, t == top + 1, u, stability, &landing[std::size_t(t) * kinds]);
  if (keep && stationary()) keep = std::equal(above, end, mine_work.above.begin(), same_linear);
  std::vector<double>& utility = mine_work.utility;  // of the landing rows at u
  if (utility.size() < rows * kinds) utility.resize(rows * kinds);
  const auto utilities_of = [&](int t) {
    for (std::size_t i = std::size_t(t) * kinds; i < std::size_t(t + 1) * kinds; ++i)
      utility[i] = landing[i].utility(u);
  };
  for (int t = top + 1; t < static_cast<int>(rows); ++t) utilities_of(t);
  for (int t = top; t >= 0; --t) {
    Stability& row = mine_work.rows[t];
    if (keep && row.holds(u)) {
      stability.low = std::max(stability.low, row.low), stability.high = std::min(stability.high, row.high);
      utilities_of(t);
      continue;
    }
    // A row is kept only while every row above it is, so it may stand
    // for them all: starting from the interval of the rows above, a
    // comparison that cannot narrow it is skipped (may_move) from the
    // first throw on, and the intervals met are the same.
    keep = false, row = t == top ? Stability{} : mine_work.rows[t + 1];
    Linear* go = &throwing[std::size_t(t) * states];
    const Linear* from = &landing[std::size_t(t) * kinds];
    for (int s = 0; s < states; ++s)
      go[s] = throw_value(work, seat, mine, theirs, t, s, from, &utility[std::size_t(t) * kinds], option_offset_.data(),
                          u, row);
    if (t > 0) land(work, seat, mine, theirs, t, go, u, row, &landing[std::size_t(t) * kinds]);
    utilities_of(t);
    stability.low = std::max(stability.low, row.low), stability.high = std::min(stability.high, row.high);
    work.turn_states += states;
  }
  return throwing[full_hand()];
}

}  // namespace dicesim::tenk::win_solve
