#include "games/battle/battle_exact.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <map>

#include "engine/progress.h"
#include "math/race.h"

namespace dicesim::battle {
namespace {

// The scores a throw of d dice can make: 1, and 2d..6d.
constexpr int lowest_sum(int dice) { return 2 * dice; }

// Probability mass this small is dropped from the forward evaluation: it is
// far below anything a count can show, and its denormal arithmetic would
// multiply the run time of the long tails.
constexpr double kNegligible = 1e-200;

double sign(int a, int b) { return a > b ? 1.0 : a < b ? -1.0 : 0.0; }

// A policy's throw distribution at every state: the mixture over d of P(d, .),
// computed once per distinct choice (a number of dice, uniform, a mixed
// cell) and shared by every state that makes it. A uniform policy is one
// distribution, not one a state (which took 16 bytes a die a state, and the
// mixing at every visit).
class ThrowMix {
 public:
  ThrowMix(const Policy& policy, const std::vector<std::vector<double>>& probability) : goal_(policy.goal()) {
    std::map<std::vector<double>, std::uint32_t> seen;  // P(choose d) -> its distribution
    index_.reserve(std::size_t(goal_) * goal_);
    for (int mine = 0; mine < goal_; ++mine)
      for (int theirs = 0; theirs < goal_; ++theirs) {
        const auto [it, added] =
            seen.try_emplace(policy.distribution(mine, theirs), static_cast<std::uint32_t>(throws_.size()));
        if (added) throws_.push_back(mix(it->first, probability));
        index_.push_back(it->second);
      }
  }

  // The same throw distribution in every state (fixed, blind, random).
  bool same_everywhere() const { return throws_.size() == 1; }

  struct Throw {
    const double* p;  // p[k], k = 0..top; zero for 2 <= k < low
    int low, top;
  };
  Throw at(int mine, int theirs) const {
    const Distribution& d = throws_[index_[std::size_t(mine) * goal_ + theirs]];
    return {d.p.data(), d.low, d.top};
  }

 private:
  struct Distribution {
    std::vector<double> p;
    int low, top;
  };
  static Distribution mix(const std::vector<double>& choose, const std::vector<std::vector<double>>& probability) {
    Distribution out{{}, 0, 0};
    for (int d = int(choose.size()); d >= 1; --d)
      if (choose[d - 1] > 0) out.low = lowest_sum(d), out.top = std::max(out.top, 6 * d);
    out.p.assign(out.top + 1, 0.0);
    for (int d = 1; d <= int(choose.size()); ++d) {
      if (choose[d - 1] == 0) continue;
      const std::vector<double>& p = probability[d];
      if (choose[d - 1] == 1) {  // pure: P(d, .) itself
        std::copy(p.begin(), p.end(), out.p.begin());
        continue;
      }
      out.p[1] += choose[d - 1] * p[1];
      for (int k = lowest_sum(d); k <= 6 * d; ++k) out.p[k] += choose[d - 1] * p[k];
    }
    return out;
  }

  int goal_;
  std::vector<std::uint32_t> index_;  // per state (mine * goal + theirs): its distribution
  std::vector<Distribution> throws_;
};

Evaluation empty_evaluation(const Rules& rules, int seats) {
  Evaluation e;
  e.win.assign(seats, 0.0);
  e.score.assign(seats, std::vector<double>(rules.score_bins(), 0.0));
  e.turns.assign(seats, std::vector<double>(rules.goal + 1, 0.0));
  return e;
}

// Seat `mover` at `mine` throws with chance m: a throw that stays below the
// goal goes to stay(mine + k, p); the final scores of those that reach it go
// to final_score; returns their chance.
template <class Stay>
double throw_from(const ThrowMix::Throw& f, int mine, int goal, double m, std::vector<double>& final_score,
                  Stay&& stay) {
  double reached = 0;
  for (int k = 1; k <= f.top; k = k == 1 ? f.low : k + 1) {
    const double p = m * f.p[k];
    if (p == 0) continue;
    if (mine + k >= goal) {
      reached += p;
      final_score[mine + k] += p;
    } else {
      stay(mine + k, p);
    }
  }
  return reached;
}

// Forward over the throws: mass[a * N + b] is P(the game reaches throw t
// with scores (a, b)); seat t % 2 throws.
Evaluation evaluate_sequential(const Rules& rules, ThrowMix mix[2], Start start) {
  const int goal = rules.goal;
  Evaluation e = empty_evaluation(rules, 2);
  std::vector<double> mass(std::size_t(goal) * goal, 0.0), next(mass.size());
  mass[start.index(goal)] = 1;
  Progress progress("Dice Battle exact odds: throw", 0);
  for (int t = 0;; ++t, progress.advance()) {
    const int mover = t % 2;
    const int mover_turns = t / 2 + 1, other_turns = mover == 0 ? t / 2 : t / 2 + 1;
    std::fill(next.begin(), next.end(), 0.0);
    bool alive = false;
    double won = 0;  // this throw's wins, added up apart (see evaluate_simultaneous)
    for (int a = 0; a < goal; ++a)
      for (int b = 0; b < goal; ++b) {
        const double m = mass[std::size_t(a) * goal + b];
        if (m < kNegligible) continue;
        const int mine = mover == 0 ? a : b, theirs = mover == 0 ? b : a;
        const double reached =
            throw_from(mix[mover].at(mine, theirs), mine, goal, m, e.score[mover], [&](int to, double p) {
              next[mover == 0 ? std::size_t(to) * goal + b : std::size_t(a) * goal + to] += p;
              alive = true;
            });
        won += reached;
        e.score[1 - mover][theirs] += reached;
        e.turns[mover][mover_turns] += reached;
        e.turns[1 - mover][other_turns] += reached;
      }
    e.win[mover] += won;
    if (!alive) return e;
    mass.swap(next);
  }
}

// The same without the turns, each state once: every throw scores, so the
// score sum only grows and one pass in increasing sums meets every state
// after everything that leads to it, however many throws that took. The
// walk above meets a state once per throw count that reaches it.
Evaluation evaluate_sequential_by_sum(const Rules& rules, ThrowMix mix[2], Start start) {
  const int goal = rules.goal;
  Evaluation e = empty_evaluation(rules, 2);
  e.turns.assign(2, {});
  std::array<std::vector<double>, 2> mass;  // [seat to throw][a * goal + b]
  for (std::vector<double>& m : mass) m.assign(std::size_t(goal) * goal, 0.0);
  mass[0][start.index(goal)] = 1;
  Progress progress("Dice Battle exact odds: score sum", 2 * goal - 1);
  for (int sum = 0; sum <= 2 * goal - 2; ++sum, progress.advance()) {
    double won[2] = {0, 0};  // this sum's wins, added up apart
    for (int a = std::max(0, sum - goal + 1); a <= std::min(sum, goal - 1); ++a) {
      const int b = sum - a;
      for (int mover = 0; mover < 2; ++mover) {
        const double m = mass[mover][std::size_t(a) * goal + b];
        if (m < kNegligible) continue;
        const int mine = mover == 0 ? a : b, theirs = mover == 0 ? b : a;
        const double reached =
            throw_from(mix[mover].at(mine, theirs), mine, goal, m, e.score[mover], [&](int to, double p) {
              mass[1 - mover][mover == 0 ? std::size_t(to) * goal + b : std::size_t(a) * goal + to] += p;
            });
        won[mover] += reached;
        e.score[1 - mover][theirs] += reached;
      }
    }
    e.win[0] += won[0], e.win[1] += won[1];
  }
  return e;
}

// Both seats throw from (a, b) with chance m, seat 0 throwing f0 and seat
// 1 f1: throws that leave both below the goal go to stay(a', b', p); final
// scores go to e.score. A throw is "open" when it leaves its seat below the
// goal, "done" when it reaches the goal.
struct TurnEnd {
  double win[2] = {0, 0}, tie = 0, ended = 0;
  bool goes_on = false;
};
template <class Stay>
void turn_from(const ThrowMix::Throw& f0, const ThrowMix::Throw& f1, int a, int b, int goal, double m, Evaluation& e,
               TurnEnd& out, Stay&& stay) {
  const int open0 = std::min(f0.top, goal - 1 - a), open1 = std::min(f1.top, goal - 1 - b);
  double open_mass0 = 0, done_mass0 = 0, open_p1 = 0, done_p1 = 0;
  for (int k = 1; k <= f0.top; ++k) (k <= open0 ? open_mass0 : done_mass0) += m * f0.p[k];
  for (int l = 1; l <= f1.top; ++l) (l <= open1 ? open_p1 : done_p1) += f1.p[l];
  for (int k = 1; k <= open0; k = k == 1 ? f0.low : k + 1) {
    const double p = m * f0.p[k];
    if (p == 0) continue;
    if (open1 >= 1) stay(a + k, b + 1, p * f1.p[1]);
    for (int l = f1.low; l <= open1; ++l) stay(a + k, b + l, p * f1.p[l]);
    e.score[0][a + k] += p * done_p1;  // seat 1 got there first
  }
  out.goes_on = out.goes_on || (open_mass0 > 0 && open_p1 > 0);
  for (int l = 1; l <= open1; ++l) e.score[1][b + l] += done_mass0 * f1.p[l];  // seat 0 got there first
  for (int l = open1 + 1; l <= f1.top; ++l) e.score[1][b + l] += open_mass0 * f1.p[l];
  out.win[0] += done_mass0 * open_p1;
  out.win[1] += open_mass0 * done_p1;
  // Both at or past the goal: the higher total wins.
  for (int k = open0 + 1; k <= f0.top; ++k) {
    const double p = m * f0.p[k];
    if (p == 0) continue;
    e.score[0][a + k] += p * open_p1;
    for (int l = open1 + 1; l <= f1.top; ++l) {
      const double q = p * f1.p[l];
      e.score[0][a + k] += q;
      e.score[1][b + l] += q;
      (a + k > b + l ? out.win[0] : a + k < b + l ? out.win[1] : out.tie) += q;
    }
  }
  out.ended += open_mass0 * done_p1 + done_mass0 * (open_p1 + done_p1);
}

// Forward over the turns: both throw from (a, b).
Evaluation evaluate_simultaneous(const Rules& rules, ThrowMix mix[2], Start start) {
  const int goal = rules.goal;
  Evaluation e = empty_evaluation(rules, 2);
  std::vector<double> mass(std::size_t(goal) * goal, 0.0), next(mass.size());
  mass[start.index(goal)] = 1;
  Progress progress("Dice Battle exact odds: turn", 0);
  for (int t = 0;; ++t, progress.advance()) {
    std::fill(next.begin(), next.end(), 0.0);
    // This turn's outcomes add up apart: a running total near 1 would lose
    // the low bits of a million small terms.
    TurnEnd turn;
    for (int a = 0; a < goal; ++a)
      for (int b = 0; b < goal; ++b) {
        const double m = mass[std::size_t(a) * goal + b];
        if (m < kNegligible) continue;
        turn_from(mix[0].at(a, b), mix[1].at(b, a), a, b, goal, m, e, turn,
                  [&](int a2, int b2, double p) { next[std::size_t(a2) * goal + b2] += p; });
      }
    e.win[0] += turn.win[0], e.win[1] += turn.win[1], e.tie += turn.tie;
    e.turns[0][t + 1] += turn.ended;
    e.turns[1][t + 1] += turn.ended;
    if (!turn.goes_on) return e;
    mass.swap(next);
  }
}

// The same without the turns, each state once in increasing score sums (see
// evaluate_sequential_by_sum).
Evaluation evaluate_simultaneous_by_sum(const Rules& rules, ThrowMix mix[2], Start start) {
  const int goal = rules.goal;
  Evaluation e = empty_evaluation(rules, 2);
  e.turns.assign(2, {});
  std::vector<double> mass(std::size_t(goal) * goal, 0.0);
  mass[start.index(goal)] = 1;
  Progress progress("Dice Battle exact odds: score sum", 2 * goal - 1);
  for (int sum = 0; sum <= 2 * goal - 2; ++sum, progress.advance()) {
    TurnEnd turn;  // this sum's outcomes, added up apart
    for (int a = std::max(0, sum - goal + 1); a <= std::min(sum, goal - 1); ++a) {
      const int b = sum - a;
      const double m = mass[std::size_t(a) * goal + b];
      if (m < kNegligible) continue;
      turn_from(mix[0].at(a, b), mix[1].at(b, a), a, b, goal, m, e, turn,
                [&](int a2, int b2, double p) { mass[std::size_t(a2) * goal + b2] += p; });
    }
    e.win[0] += turn.win[0], e.win[1] += turn.win[1], e.tie += turn.tie;
  }
  return e;
}

// The same, when seat 1 throws the same distribution f1 in every state: seat
// 0's throws are spread first, into spread[a'][b] (a' up to the goal + 6D),
// and seat 1's throw is applied once per (a', b) instead of once per (a, b, k).
Evaluation evaluate_simultaneous_against_constant(const Rules& rules, ThrowMix mix[2], Start start) {
  const int goal = rules.goal;
  Evaluation e = empty_evaluation(rules, 2);
  const ThrowMix::Throw f1 = mix[1].at(0, 0);
  std::vector<double> mass(std::size_t(goal) * goal, 0.0), next(mass.size());
  std::vector<double> spread(std::size_t(rules.score_bins()) * goal);
  mass[start.index(goal)] = 1;
  Progress progress("Dice Battle exact odds: turn", 0);
  for (int t = 0;; ++t, progress.advance()) {
    std::fill(spread.begin(), spread.end(), 0.0);
    for (int a = 0; a < goal; ++a)
      for (int b = 0; b < goal; ++b) {
        const double m = mass[std::size_t(a) * goal + b];
        if (m < kNegligible) continue;
        const ThrowMix::Throw f0 = mix[0].at(a, b);
        for (int k = 1; k <= f0.top; k = k == 1 ? f0.low : k + 1) spread[std::size_t(a + k) * goal + b] += m * f0.p[k];
      }
    std::fill(next.begin(), next.end(), 0.0);
    bool alive = false;
    double ended = 0, win[2] = {0, 0}, tie = 0;  // added up apart (see evaluate_simultaneous)
    for (int a = 1; a < rules.score_bins(); ++a)
      for (int b = 0; b < goal; ++b) {
        const double w = spread[std::size_t(a) * goal + b];
        if (w < kNegligible) continue;
        const int open1 = std::min(f1.top, goal - 1 - b);
        for (int l = 1; l <= f1.top; l = l == 1 ? f1.low : l + 1) {
          const double q = w * f1.p[l];
          if (a < goal && l <= open1) {
            next[std::size_t(a) * goal + b + l] += q;
            alive = true;
            continue;
          }
          ended += q;
          e.score[0][a] += q;
          e.score[1][b + l] += q;
          (a > b + l ? win[0] : a < b + l ? win[1] : tie) += q;  // the higher total wins
        }
      }
    e.win[0] += win[0], e.win[1] += win[1], e.tie += tie;
    e.turns[0][t + 1] += ended;
    e.turns[1][t + 1] += ended;
    if (!alive) return e;
    mass.swap(next);
  }
}

// Seat 0's result is seat 1's and the other way round.
Evaluation swap_seats(Evaluation e) {
  std::swap(e.win[0], e.win[1]);
  std::swap(e.score[0], e.score[1]);
  std::swap(e.turns[0], e.turns[1]);
  return e;
}

Evaluation evaluate_alone(const Rules& rules, ThrowMix& mix) {
  const int goal = rules.goal;
  Evaluation e = empty_evaluation(rules, 1);
  e.win[0] = 1;
  std::vector<double> mass(goal, 0.0), next(goal);
  mass[0] = 1;
  Progress progress("Dice Battle exact odds: turn", 0);
  for (int t = 0;; ++t, progress.advance()) {
    std::fill(next.begin(), next.end(), 0.0);
    bool alive = false;
    for (int a = 0; a < goal; ++a) {
      if (mass[a] < kNegligible) continue;
      const ThrowMix::Throw f = mix.at(a, 0);
      for (int k = 1; k <= f.top; ++k) {
        const double p = mass[a] * f.p[k];
        if (a + k >= goal) {
          e.score[0][a + k] += p;
          e.turns[0][t + 1] += p;
        } else if (p > 0) {
          next[a + k] += p;
          alive = true;
        }
      }
    }
    if (!alive) return e;
    mass.swap(next);
  }
}

// A policy that throws the same way in every state races alone (math/race.h):
// throw by throw, dropping negligible mass as the walks above do.
Race race_alone(const Rules& rules, const ThrowMix& mix, int start) {
  const int goal = rules.goal;
  Race race(goal, rules.score_bins(), start);
  const ThrowMix::Throw f = mix.at(0, 0);
  Progress progress("Dice Battle exact odds: throw", 0);
  while (race.going.back() > 0) {
    const std::vector<double>& before = race.below.back();
    std::vector<double> below(goal, 0.0), finished(rules.score_bins(), 0.0);
    for (int a = 0; a < static_cast<int>(before.size()); ++a) {
      if (before[a] < kNegligible) continue;
      for (int k = 1; k <= f.top; k = k == 1 ? f.low : k + 1)
        (a + k >= goal ? finished : below)[a + k] += before[a] * f.p[k];
    }
    race.add_turn(std::move(below), std::move(finished));
    progress.advance();
  }
  return race;
}

// Two such policies: from their races, in O(throws x scores).
Evaluation evaluate_apart(const Rules& rules, const ThrowMix mix[2], Start start) {
  const Race first = race_alone(rules, mix[0], start.first), second = race_alone(rules, mix[1], start.second);
  RaceOdds odds = rules.turns == Turns::sequential
                      ? race_in_turns({&first, &second}, rules.score_bins(), rules.goal + 1)
                      : race_at_once(first, second, rules.score_bins(), rules.goal + 1);
  Evaluation e;
  e.win = std::move(odds.win);
  e.tie = odds.tie;
  e.score = std::move(odds.score);
  e.turns = std::move(odds.turns);
  return e;
}

}  // namespace

std::vector<std::vector<double>> throw_probabilities(int max_dice) {
  // q[d][k] = Q(d, k); Q(1, k) = 1/5 for k = 2..6.
  std::vector<std::vector<double>> q(max_dice + 1), p(max_dice + 1);
  for (int d = 1; d <= max_dice; ++d) {
    q[d].assign(6 * d + 1, 0.0);
    for (int k = lowest_sum(d); k <= 6 * d; ++k) {
      if (d == 1) {
        q[d][k] = 1.0 / 5;
        continue;
      }
      for (int face = 2; face <= 6; ++face)
        if (k - face >= lowest_sum(d - 1) && k - face <= 6 * (d - 1)) q[d][k] += q[d - 1][k - face] / 5;
    }
    const double no_one = std::pow(5.0 / 6.0, d);
    p[d].assign(6 * d + 1, 0.0);
    p[d][1] = 1 - no_one;
    for (int k = lowest_sum(d); k <= 6 * d; ++k) p[d][k] = no_one * q[d][k];
  }
  return p;
}

double expected_points(int dice) {
  const double no_one = std::pow(5.0 / 6.0, dice);
  return 4 * dice * no_one + 1 - no_one;
}

int blind_dice(int max_dice) {
  int best = 1;
  for (int d = 2; d <= max_dice; ++d)
    if (expected_points(d) > expected_points(best)) best = d;
  return best;
}

SequentialSolution solve_sequential(const Rules& rules) {
  const int goal = rules.goal, max_dice = rules.max_dice;
  const auto probability = throw_probabilities(max_dice);
  SequentialSolution s;
  s.goal = goal;
  s.gain.assign(std::size_t(goal) * goal, 0.0);
  s.dice.assign(s.gain.size(), 0);
  // EG(i, j) needs EG(j, i + k) with k >= 1: a larger i + j. So go down by i + j.
  Progress progress("Dice Battle sequential game: score sum", 2 * goal - 1);
  for (int total = 2 * goal - 2; total >= 0; --total, progress.advance())
    for (int i = std::max(0, total - goal + 1); i <= std::min(total, goal - 1); ++i) {
      const int j = total - i;
      double best = -2;
      int best_d = 1;
      for (int d = 1; d <= max_dice; ++d) {
        const std::vector<double>& p = probability[d];
        const auto after = [&](int k) { return i + k >= goal ? 1.0 : -s.expected_gain(j, i + k); };
        double gain = p[1] * after(1);
        for (int k = lowest_sum(d); k <= 6 * d; ++k) gain += p[k] * after(k);
        if (gain > best) best = gain, best_d = d;  // strict: the fewest dice among equals
      }
      s.gain[std::size_t(i) * goal + j] = best;
      s.dice[std::size_t(i) * goal + j] = best_d;
    }
  return s;
}

std::vector<double> one_turn_matrix(int max_dice) {
  const auto probability = throw_probabilities(max_dice);
  std::vector<double> matrix(std::size_t(max_dice) * max_dice);
  for (int d1 = 1; d1 <= max_dice; ++d1)
    for (int d2 = 1; d2 <= max_dice; ++d2) {
      double gain = 0;
      for (int k = 1; k <= 6 * d1; ++k)
        for (int l = 1; l <= 6 * d2; ++l) gain += probability[d1][k] * probability[d2][l] * sign(k, l);
      matrix[std::size_t(d1 - 1) * max_dice + d2 - 1] = gain;
    }
  return matrix;
}

std::vector<double> state_matrix(const Rules& rules, const std::vector<std::vector<double>>& probability,
                                 const SimultaneousSolution& solved, int i, int j) {
  const int goal = rules.goal, max_dice = rules.max_dice;
  std::vector<double> matrix(std::size_t(max_dice) * max_dice);
  for (int d1 = 1; d1 <= max_dice; ++d1)
    for (int d2 = 1; d2 <= max_dice; ++d2) {
      double gain = 0;
      for (int k = 1; k <= 6 * d1; ++k)
        for (int l = 1; l <= 6 * d2; ++l) {
          const double p = probability[d1][k] * probability[d2][l];
          if (p == 0) continue;
          const int a = i + k, b = j + l;
          gain += p * (a < goal && b < goal ? solved.game_value(a, b) : sign(a, b));
        }
      matrix[std::size_t(d1 - 1) * max_dice + d2 - 1] = gain;
    }
  return matrix;
}

// The general game backwards from the goal, row i (player 1's score) by row.
// A state's payoff matrix averages the values after both throws:
//   M[d1][d2] = sum_k sum_l P(d1, k) P(d2, l) V(i + k, j + l).
// Done directly that is D^2 (4D)^2 terms per state. Instead, the seed's Q
// recursion (Q(d, .) is Q(d - 1, .) spread over the faces 2..6) is applied
// to the values themselves, one die at a time:
//   after_d2(r, j) = sum_l P(d2, l) V(r, j + l)       (player 2's throw, per row r)
//   G_d(r) = (1/5) sum_{f=2..6} G_{d-1}(r + f),  G_0 = after
//   M[d1][d2] = P(d1, 1) after_d2(i + 1, j) + (5/6)^d1 G_d1(i)[d2, j]
// which is 5 terms per die and entry. Rows go down from the goal + 6D, so a
// ring of 7 rows holds everything a row needs.
SimultaneousSolution solve_simultaneous(const Rules& rules) {
  const auto start = std::chrono::steady_clock::now();
  const int goal = rules.goal, max_dice = rules.max_dice, top = goal + rules.max_throw();
  const auto probability = throw_probabilities(max_dice);
  SimultaneousSolution s;
  s.goal = goal;
  s.max_dice = max_dice;
  s.value.assign(std::size_t(goal) * goal, 0.0);
  s.strategy.resize(s.value.size());
  const auto value = [&](int a, int b) { return a < goal && b < goal ? s.game_value(a, b) : sign(a, b); };
  std::vector<double> no_one(max_dice + 1);
  for (int d = 0; d <= max_dice; ++d) no_one[d] = std::pow(5.0 / 6.0, d);

  constexpr int kRing = 7;                                 // rows r .. r + 6
  const std::size_t width = std::size_t(max_dice) * goal;  // [(d2 - 1) * goal + j]
  // spread[d][r % kRing]: G_d(r); spread[0] is after.
  std::vector<std::vector<std::vector<double>>> spread(
      max_dice + 1, std::vector<std::vector<double>>(kRing, std::vector<double>(width, 0.0)));
  const auto slot = [&](int d, int row) -> std::vector<double>& { return spread[d][row % kRing]; };
  // G_d(row) from G_{d-1}(row + 2 .. row + 6). Rows near the top read rows
  // that were never filled (zeros); the states never use those G_d.
  const auto spread_row = [&](int row) {
    for (int d = 1; d <= max_dice; ++d) {
      std::vector<double>& out = slot(d, row);
      std::fill(out.begin(), out.end(), 0.0);
      for (int face = 2; face <= 6; ++face) {
        if (row + face >= top) break;
        const std::vector<double>& in = slot(d - 1, row + face);
        for (std::size_t c = 0; c < width; ++c) out[c] += in[c];
      }
      for (double& x : out) x /= 5;
    }
  };
  // after_d2(row, j), the same recursion along j: H_d(j) = (1/5) sum_f H_{d-1}(j + f).
  std::vector<double> h(top + 6), h_next(top + 6);
  const auto average_row = [&](int row) {
    std::vector<double>& out = slot(0, row);
    for (int j = 0; j < top; ++j) h[j] = value(row, j);
    std::fill(h.begin() + top, h.end(), 0.0);
    for (int d2 = 1; d2 <= max_dice; ++d2) {
      for (int j = 0; j < top; ++j) h_next[j] = (h[j + 2] + h[j + 3] + h[j + 4] + h[j + 5] + h[j + 6]) / 5;
      h.swap(h_next);
      for (int j = 0; j < goal; ++j)
        out[std::size_t(d2 - 1) * goal + j] = probability[d2][1] * value(row, j + 1) + no_one[d2] * h[j];
    }
  };
  std::vector<double> matrix(std::size_t(max_dice) * max_dice);
  Progress progress("Dice Battle simultaneous game: row", top);
  for (int row = top - 1; row >= 0; --row, progress.advance()) {
    spread_row(row);
    if (row < goal) {
      const std::vector<double>& next_row = slot(0, row + 1);
      for (int j = goal - 1; j >= 0; --j) {
        for (int d1 = 1; d1 <= max_dice; ++d1) {
          const std::vector<double>& g = slot(d1, row);
          for (int d2 = 1; d2 <= max_dice; ++d2) {
            const std::size_t c = std::size_t(d2 - 1) * goal + j;
            matrix[std::size_t(d1 - 1) * max_dice + d2 - 1] = probability[d1][1] * next_row[c] + no_one[d1] * g[c];
          }
        }
        MatrixGameSolution solution = solve_matrix_game(matrix, max_dice, max_dice);
        s.linear_programs += solution.linear_program;
        s.largest_gap = std::max(s.largest_gap, solution.gap);
        s.value[std::size_t(row) * goal + j] = solution.value;
        s.strategy[std::size_t(row) * goal + j] = std::move(solution.row_strategy);
      }
    }
    average_row(row);
  }
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return s;
}

Evaluation evaluate(const Rules& rules, const Policy& first, const Policy* second, Start start) {
  return evaluate(rules, first, second, rules.goal <= kTurnsFollowedUpToGoal, start);
}

Evaluation evaluate(const Rules& rules, const Policy& first, const Policy* second, bool follow_turns, Start start) {
  const auto probability = throw_probabilities(rules.max_dice);
  if (!second) {
    ThrowMix mix(first, probability);
    return evaluate_alone(rules, mix);
  }
  ThrowMix mix[2] = {ThrowMix(first, probability), ThrowMix(*second, probability)};
  if (mix[0].same_everywhere() && mix[1].same_everywhere()) return evaluate_apart(rules, mix, start);
  if (rules.turns == Turns::sequential)
    return follow_turns ? evaluate_sequential(rules, mix, start) : evaluate_sequential_by_sum(rules, mix, start);
  if (!follow_turns) return evaluate_simultaneous_by_sum(rules, mix, start);
  if (mix[1].same_everywhere()) return evaluate_simultaneous_against_constant(rules, mix, start);
  if (mix[0].same_everywhere()) {  // the rules treat both seats alike
    ThrowMix swapped[2] = {ThrowMix(*second, probability), ThrowMix(first, probability)};
    return swap_seats(evaluate_simultaneous_against_constant(rules, swapped, {start.second, start.first}));
  }
  return evaluate_simultaneous(rules, mix, start);
}

}  // namespace dicesim::battle
