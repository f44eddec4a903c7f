#include "games/pig/pig_exact.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <unordered_map>

#include "engine/progress.h"

namespace dicesim::pig {
namespace {

// A value a + b * x, x being a value not known yet (in optimal_win, the
// opponent's chance from the state a bust leads to).
struct Affine {
  double a = 0, b = 0;
  double at(double x) const { return a + b * x; }
};

// The best play of one turn from banked score i, every turn total from the
// top down: holding at k is worth hold_value(k) (k >= 1); a bust is worth
// `bust`, two 1s `reset`, reaching the goal 1. Decisions are taken with the
// unknown at `guess`; ties go to holding (the same value, a shorter turn).
// Writes hold[k] and, if roll_out is given, the value of throwing at k.
template <class HoldValue>
Affine best_turn(const Rules& rules, const ThrowOdds& odds, int i, Affine bust, Affine reset, HoldValue hold_value,
                 double guess, std::uint8_t* hold, std::vector<Affine>& best, std::vector<Affine>* roll_out = nullptr) {
  const int room = rules.goal - i;  // turn totals 0..room-1 keep the turn going
  best.assign(std::size_t(room) + rules.largest_throw() + 1, Affine{1, 0});
  if (roll_out) roll_out->assign(std::size_t(room), Affine{});
  const double p_bust = odds.probability(odds.bust), p_reset = odds.probability(odds.reset);
  for (int k = room - 1; k >= 0; --k) {
    Affine roll{p_bust * bust.a + p_reset * reset.a, p_bust * bust.b + p_reset * reset.b};
    for (const auto& [points, ways] : odds.points) {
      const double p = odds.probability(ways);
      roll.a += p * best[k + points].a;
      roll.b += p * best[k + points].b;
    }
    if (roll_out) (*roll_out)[k] = roll;
    const double held = k > 0 ? hold_value(k) : 0;
    hold[k] = k > 0 && held >= roll.at(guess);
    best[k] = hold[k] ? Affine{held, 0} : roll;
  }
  std::fill(hold + room, hold + rules.goal, std::uint8_t{1});  // never read: the goal ends the turn
  return best[0];
}

}  // namespace

TurnsSolution solve_turns(const Rules& rules, int turns) {
  const ThrowOdds odds = throw_odds(rules);
  const int goal = rules.goal;
  TurnsSolution out;
  out.reach.assign(turns + 1, std::vector<double>(goal, 0.0));
  out.hold.assign(turns + 1, std::vector<std::vector<std::uint8_t>>(goal, std::vector<std::uint8_t>(goal, 0)));
  out.stop.assign(turns + 1, std::vector<int>(goal, goal));
  std::vector<Affine> scratch;
  for (int n = 1; n <= turns; ++n) {
    const std::vector<double>& before = out.reach[n - 1];
    for (int s = 0; s < goal; ++s) {
      std::vector<std::uint8_t>& hold = out.hold[n][s];
      out.reach[n][s] = best_turn(
                            rules, odds, s, Affine{before[s], 0}, Affine{before[0], 0},
                            [&](int k) { return before[s + k]; }, 0, hold.data(), scratch)
                            .a;
      int stop = goal - s;
      while (stop > 1 && hold[stop - 1]) --stop;
      out.stop[n][s] = stop;
      for (int k = 1; k < stop; ++k) out.thresholds = out.thresholds && !hold[k];
    }
  }
  return out;
}

Choice turns_choice(const Rules& rules, const TurnsSolution& solution, int n, int s, int k) {
  if (n < 1 || n >= static_cast<int>(solution.reach.size()) || s < 0 || k < 1 || s + k >= rules.goal)
    throw std::invalid_argument("turns_choice: no such decision");
  const std::vector<double>& before = solution.reach[n - 1];
  std::vector<Affine> scratch, roll;
  std::vector<std::uint8_t> hold(rules.goal);
  best_turn(
      rules, throw_odds(rules), s, Affine{before[s], 0}, Affine{before[0], 0}, [&](int t) { return before[s + t]; }, 0,
      hold.data(), scratch, &roll);
  return {before[s + k], roll[k].a};
}

TurnTotals turn_totals(const Rules& rules, int stop) {
  const ThrowOdds odds = throw_odds(rules);
  TurnTotals out;
  std::vector<double> reach(std::size_t(stop) + rules.largest_throw(), 0.0);  // P(the total passes through k)
  out.total.assign(reach.size(), 0.0);
  reach[0] = 1;
  for (int k = 0; k < static_cast<int>(reach.size()); ++k) {
    if (reach[k] == 0) continue;
    if (k >= stop) {
      out.total[k] = reach[k];
      continue;
    }
    out.bust += reach[k] * odds.probability(odds.bust);
    out.reset += reach[k] * odds.probability(odds.reset);
    for (const auto& [points, ways] : odds.points) reach[k + points] += reach[k] * odds.probability(ways);
  }
  return out;
}

WinSolution solve_optimal_win(const Rules& rules) {
  const ThrowOdds odds = throw_odds(rules);
  const int goal = rules.goal;
  WinSolution out;
  out.value.assign(std::size_t(goal) * goal, 0.5);
  std::vector<double>& v = out.value;
  const auto at = [&](int i, int j) -> double& { return v[std::size_t(i) * goal + j]; };
  std::vector<Affine> scratch;
  std::vector<std::uint8_t> hold(goal), previous_a(goal), previous_b(goal);
  Progress progress("Pig optimal_win: pass", 0);

  // P(win) of the player starting a turn at (i, j), affine in x = P(win) of
  // the opponent starting at (j, i), where a bust leads (and, from i = 0, two
  // 1s too). Every other state it reaches has a larger score sum, except the
  // (j, 0) two 1s lead to: that value is taken from the last pass.
  const auto turn = [&](int i, int j, double guess, std::uint8_t* decisions) {
    const Affine bust{1, -1};
    const Affine reset = i == 0 ? bust : Affine{1 - at(j, 0), 0};
    return best_turn(
        rules, odds, i, bust, reset, [&](int k) { return 1 - at(j, i + k); }, guess, decisions, scratch);
  };
  for (;;) {
    ++out.passes;
    double change = 0;
    for (int sum = 2 * goal - 2; sum >= 0; --sum) {
      for (int i = std::max(0, sum - goal + 1); i <= sum / 2; ++i) {
        const int j = sum - i;
        // Policy iteration on the pair: decide at the current values, solve
        // the two linear equations exactly, until the decisions stay.
        double u = at(i, j), w = at(j, i);
        for (int round = 0; round < 100; ++round) {
          const Affine a = turn(i, j, w, hold.data());
          const bool same_a = round > 0 && hold == previous_a;
          previous_a = hold;
          const Affine b = turn(j, i, u, hold.data());
          const bool same_b = round > 0 && hold == previous_b;
          previous_b = hold;
          // u = a.a + a.b w and w = b.a + b.b u (i == j: the same equation).
          if (i == j) {
            u = w = a.a / (1 - a.b);
          } else {
            u = (a.a + a.b * b.a) / (1 - a.b * b.b);
            w = b.a + b.b * u;
          }
          if (same_a && same_b) break;
        }
        change = std::max({change, std::abs(u - at(i, j)), std::abs(w - at(j, i))});
        at(i, j) = u;
        at(j, i) = w;
      }
    }
    progress.advance();
    // One die: every dependency is solved in one pass. Two dice: the values
    // two 1s lead to settle over a few passes.
    if (rules.dice == 1 || change < 1e-15 || out.passes >= 1000) break;
  }
  out.policy = Policy(rules, 1);
  for (int i = 0; i < goal; ++i)
    for (int j = 0; j < goal; ++j) {
      turn(i, j, at(j, i), hold.data());
      out.policy.set_row(0, i, j, hold);
    }
  return out;
}

TurnOutcome turn_outcome(const Rules& rules, const ThrowOdds& odds, const std::uint8_t* hold, int i) {
  const int room = rules.goal - i;
  std::vector<double> reach(room, 0.0), banked(rules.goal, 0.0), won(rules.largest_throw(), 0.0);
  reach[0] = 1;
  for (int k = 0; k < room; ++k) {
    if (reach[k] == 0) continue;
    if (k > 0 && hold[k]) {
      banked[i + k] += reach[k];
      continue;
    }
    banked[i] += reach[k] * odds.probability(odds.bust);
    banked[0] += reach[k] * odds.probability(odds.reset);
    for (const auto& [points, ways] : odds.points) {
      const double p = reach[k] * odds.probability(ways);
      if (k + points >= room)
        won[i + k + points - rules.goal] += p;
      else
        reach[k + points] += p;
    }
  }
  TurnOutcome out;
  for (int s = 0; s < rules.goal; ++s)
    if (banked[s] > 0) out.banked.emplace_back(s, banked[s]);
  for (int f = 0; f < rules.largest_throw(); ++f)
    if (won[f] > 0) out.won.emplace_back(rules.goal + f, won[f]);
  return out;
}

TurnOutcomes::TurnOutcomes(const Rules& rules, const Policy& policy)
    : goal_(rules.goal), phases_(policy.phases()), index_(std::size_t(phases_) * goal_ * goal_) {
  const ThrowOdds odds = throw_odds(rules);
  std::unordered_map<std::uint64_t, int> by_row;  // (row, i) -> outcome
  for (int phase = 0; phase < phases_; ++phase)
    for (int i = 0; i < goal_; ++i)
      for (int j = 0; j < goal_; ++j) {
        const std::uint64_t key = std::uint64_t(policy.row_offset(phase, i, j)) * goal_ + i;
        const auto [it, added] = by_row.try_emplace(key, static_cast<int>(outcomes_.size()));
        if (added) outcomes_.push_back(turn_outcome(rules, odds, policy.row(phase, i, j), i));
        index_[(std::size_t(phase) * goal_ + i) * goal_ + j] = it->second;
      }
  for (const TurnOutcome& outcome : outcomes_) {
    double won = 0;
    for (const auto& [f, p] : outcome.won) won += p;
    won_.push_back(won);
  }
}

std::optional<Evaluation> evaluate(const Rules& rules, const std::vector<const Policy*>& seats, int turn_bins) {
  if (seats.empty() || seats.size() > 2) return std::nullopt;
  std::vector<TurnOutcomes> outcomes;
  for (const Policy* p : seats) outcomes.emplace_back(rules, *p);
  std::vector<const TurnOutcomes*> pointers;
  for (const TurnOutcomes& o : outcomes) pointers.push_back(&o);
  return evaluate_outcomes(rules, pointers, turn_bins);
}

namespace {

// Late in a game the unfinished mass keeps its shape and shrinks by the same
// ratio r every round (both seats' turns): the walk's mass converges to the
// leading eigenvector, the rest fading faster. True when one round has
// changed the shape by so little that following the rest as a geometric
// series errs by less than a tenth of kUnfinished in total: the part off the
// shape, d, fades at least as fast as r, so all of it adds up to less than
// d / (1 - r).
bool ends_geometrically(const std::vector<double>& before, double before_alive, const std::vector<double>& now,
                        double now_alive) {
  if (before_alive <= 0 || now_alive <= 0 || now_alive >= before_alive) return false;
  const double r = now_alive / before_alive;
  double off_shape = 0;
  for (std::size_t k = 0; k < now.size(); ++k) off_shape += std::abs(now[k] - r * before[k]);
  return off_shape / (1 - r) < kUnfinished / 10;
}

// Plays one more round from half-turn h exactly, then adds every later round
// as that one times r, r^2, ...: the same wins and final scores, each turns
// bin one further on (the last bin takes what lies beyond it).
template <class HalfTurn>
void add_geometric_tail(double r, long h, int turn_bins, HalfTurn& half_turn, Evaluation& out) {
  const Evaluation before = out;
  const int n = static_cast<int>(out.win.size());
  for (int k = 0; k < n; ++k) half_turn(h + k);
  const double later = r / (1 - r);  // r + r^2 + ...
  for (int s = 0; s < n; ++s) {
    out.win[s] += (out.win[s] - before.win[s]) * later;
    for (std::size_t f = 0; f < out.score[s].size(); ++f)
      out.score[s][f] += (out.score[s][f] - before.score[s][f]) * later;
    const int last = turn_bins - 1;
    for (int t = last; t >= 0; --t) {  // from the top: bin t is read before a lower bin's tail reaches it
      const double round = out.turns[s][t] - before.turns[s][t];
      if (round == 0) continue;
      double weight = r;
      for (int later_bin = t + 1; later_bin < last; ++later_bin, weight *= r) out.turns[s][later_bin] += round * weight;
      out.turns[s][last] += round * (t == last ? later : weight / (1 - r));
    }
  }
}

}  // namespace

std::optional<Evaluation> evaluate_outcomes(const Rules& rules, const std::vector<const TurnOutcomes*>& seats,
                                            int turn_bins, bool geometric_tail, const std::vector<int>& start) {
  const int n = static_cast<int>(seats.size());
  if (n < 1 || n > 2) return std::nullopt;
  const int goal = rules.goal;
  Evaluation out;
  out.win.assign(n, 0.0);
  out.score.assign(n, std::vector<double>(rules.score_bins(), 0.0));
  out.turns.assign(n, std::vector<double>(turn_bins, 0.0));

  // mass[i * others + j]: P(the game is still on) before half-turn h, the
  // mover at i and the other seat at j (alone: j = 0 and others = 1). At the
  // next half-turn the mover is the other seat, so the scores it may bank
  // land side by side in next[j * others + ...].
  const int others = n == 2 ? goal : 1;
  std::vector<double> mass(std::size_t(goal) * others, 0.0), next(mass.size(), 0.0);
  const auto start_of = [&](int seat) { return start.empty() ? 0 : start[std::size_t(seat)]; };
  mass[std::size_t(start_of(0)) * others + (n == 2 ? start_of(1) : 0)] = 1;
  double alive = 1;
  std::vector<std::vector<double>> half_turn_score = out.score;
  const auto half_turn = [&](long h) {
    const int mover = static_cast<int>(h % n);
    const long started = h / n;  // turns the mover started before this one
    const TurnOutcomes& outcomes = *seats[mover];
    const int phase = static_cast<int>(started % outcomes.phases());
    // This half-turn's final scores, added to the totals at its end: late
    // in a game each game's share is far below the totals' last digit.
    for (std::vector<double>& scores : half_turn_score) std::fill(scores.begin(), scores.end(), 0.0);
    std::vector<double>& mover_score = half_turn_score[mover];
    double finished = 0;
    std::fill(next.begin(), next.end(), 0.0);
    for (int i = 0; i < goal; ++i)
      for (int j = 0; j < others; ++j) {
        const double m = mass[std::size_t(i) * others + j];
        if (m == 0) continue;
        const TurnOutcome& outcome = outcomes.get(phase, i, j);
        double* banked = next.data() + std::size_t(j) * others;
        for (const auto& [to, p] : outcome.banked) banked[to] += m * p;
        double won = 0;
        for (const auto& [f, p] : outcome.won) {
          mover_score[f] += m * p;
          won += m * p;
        }
        if (n == 2) half_turn_score[1 - mover][j] += won;
        finished += won;
      }
    for (int seat = 0; seat < n; ++seat)
      for (std::size_t f = 0; f < out.score[seat].size(); ++f) out.score[seat][f] += half_turn_score[seat][f];
    out.win[mover] += finished;
    // After half-turn h, seat s has played the turns h' <= h with h' = s mod n.
    for (int s = 0; s < n; ++s) out.turns[s][std::min<long>((h - s + n) / n, turn_bins - 1)] += finished;
    mass.swap(next);
    alive = 0;
    for (double m : mass) alive += m;
  };
  // The cap only guards against strategies that almost never finish (every
  // game ends with probability 1; unfinished says how much is left).
  Progress progress("Pig exact odds: half-turn", 0);
  // With phases the rounds differ, so their shapes need not repeat.
  bool rounds_alike = geometric_tail;
  for (const TurnOutcomes* seat : seats) rounds_alike = rounds_alike && seat->phases() == 1;
  std::vector<double> round_start;  // the mass when seat 0 last started a turn
  double round_start_alive = 0;
  for (long h = 0; alive >= kUnfinished && h < 100'000'000L / goal; ++h) {
    progress.advance();
    if (rounds_alike && h % n == 0) {
      if (!round_start.empty() && ends_geometrically(round_start, round_start_alive, mass, alive)) {
        add_geometric_tail(alive / round_start_alive, h, turn_bins, half_turn, out);
        alive = 0;
        break;
      }
      round_start = mass;
      round_start_alive = alive;
    }
    half_turn(h);
  }
  out.unfinished = alive;
  return out;
}

std::optional<double> win_probability(const Rules& rules, const TurnOutcomes& first, const TurnOutcomes& second) {
  const int cycle = std::lcm(first.phases(), second.phases());
  if (cycle > kMostPhasesSolved) return std::nullopt;
  const int goal = rules.goal;
  // P(seat 0 wins) at the start of a turn of seat 0 (x) or seat 1 (y), seat 0
  // at a, seat 1 at b, in phase c: the turns each seat has started before
  // this one (seat 0's own turn in y excluded), modulo `cycle`.
  std::vector<double> x(std::size_t(cycle) * goal * goal, 0.0), y(x.size(), 0.0);
  // x by seat 1's score last and y by seat 0's, so that each seat's banks
  // land on neighbouring values.
  const auto at = [&](int c, int a, int b) { return (std::size_t(c) * goal + a) * goal + b; };
  const auto y_at = [&](int c, int a, int b) { return (std::size_t(c) * goal + b) * goal + a; };
  std::vector<double> gamma(cycle), delta(cycle), beta(cycle), stay1(cycle);
  Progress progress("Pig exact P(win): pass", 0);
  for (int pass = 1;; ++pass) {
    double change = 0;
    for (int sum = 2 * goal - 2; sum >= 0; --sum) {
      for (int a = std::max(0, sum - goal + 1); a <= std::min(sum, goal - 1); ++a) {
        const int b = sum - a;
        // x_c = gamma_c + delta_c x_{c+1}: seat 0's turn, then seat 1's; a
        // single 1 in each leads back to (a, b) one phase on.
        for (int c = 0; c < cycle; ++c) {
          const int next = (c + 1) % cycle;
          const int phase0 = c % first.phases(), phase1 = c % second.phases();
          double alpha = first.won(phase0, a, b), stay0 = 0;
          for (const auto& [to, p] : first.get(phase0, a, b).banked) {
            if (to == a)
              stay0 += p;
            else
              alpha += p * y[y_at(c, to, b)];
          }
          beta[c] = 0, stay1[c] = 0;
          for (const auto& [to, p] : second.get(phase1, b, a).banked) {
            if (to == b)
              stay1[c] += p;
            else
              beta[c] += p * x[at(next, a, to)];
          }
          gamma[c] = alpha + stay0 * beta[c];
          delta[c] = stay0 * stay1[c];
        }
        // Around the cycle: x_0 = g + d x_0.
        double g = 0, d = 1;
        for (int c = cycle - 1; c >= 0; --c) g = gamma[c] + delta[c] * g, d *= delta[c];
        const double x0 = g / (1 - d);
        double x_next = x0;  // back around the cycle: x_{cycle-1} .. x_1 from x_0
        for (int c = cycle - 1; c >= 0; --c) {
          const double x_c = c == 0 ? x0 : gamma[c] + delta[c] * x_next;
          const double y_c = beta[c] + stay1[c] * x_next;
          change = std::max({change, std::abs(x_c - x[at(c, a, b)]), std::abs(y_c - y[y_at(c, a, b)])});
          x[at(c, a, b)] = x_c;
          y[y_at(c, a, b)] = y_c;
          x_next = x_c;
        }
      }
    }
    progress.advance();
    // One die: every state a turn leads to has a larger sum or the same one,
    // so one pass solves them all. Two dice: the values two 1s lead to settle
    // over a few passes.
    if (rules.dice == 1 || change < 1e-15 || pass >= 1000) break;
  }
  return x[at(0, 0, 0)];
}

}  // namespace dicesim::pig

namespace dicesim::pig {

Race race_alone(const Rules& rules, const Policy& policy, int start) {
  const int goal = rules.goal;
  const TurnOutcomes outcomes(rules, policy);
  Race race(goal, rules.score_bins(), start);
  Progress progress("Pig exact odds: turn", 0);
  for (long m = 1; race.going.back() >= kUnfinished * 1e-3 && m < 100'000'000L / goal; ++m, progress.advance()) {
    std::vector<double> below(goal, 0.0), finished(rules.score_bins(), 0.0);
    const std::vector<double>& before = race.below.back();
    const int phase = static_cast<int>((m - 1) % policy.phases());
    for (int s = 0; s < static_cast<int>(before.size()); ++s) {  // stored without its trailing zeros
      if (before[s] == 0) continue;
      const TurnOutcome& outcome = outcomes.get(phase, s, 0);
      for (const auto& [to, p] : outcome.banked) below[to] += before[s] * p;
      for (const auto& [f, p] : outcome.won) finished[f] += before[s] * p;
    }
    race.add_turn(std::move(below), std::move(finished));
  }
  return race;
}

Evaluation evaluate_independent(const Rules& rules, const std::vector<const Race*>& seats, int turn_bins) {
  RaceOdds odds = race_in_turns(seats, rules.score_bins(), turn_bins);
  Evaluation out;
  out.win = std::move(odds.win);
  out.score = std::move(odds.score);
  out.turns = std::move(odds.turns);
  out.unfinished = std::max(0.0, 1 - std::accumulate(out.win.begin(), out.win.end(), 0.0));
  return out;
}

}  // namespace dicesim::pig
