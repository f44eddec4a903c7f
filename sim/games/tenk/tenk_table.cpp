#include "games/tenk/tenk_table.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numeric>
#include <sstream>

#include "games/tenk/tenk_exact.h"

namespace dicesim::tenk {
namespace {

// Rounds are followed until the chance that the game is still running falls
// below this; entries of a turn's distribution below kTrimmed are dropped
// (at most a few hundred of them: far below what check can see).
constexpr double kUnfollowed = 1e-16;
constexpr double kTrimmed = 1e-22;
// A best score held with a smaller chance than this is dropped from the
// chain (the long tail of hot dice): at most some 10^6 of them a table.
constexpr double kNegligibleBest = 1e-20;

// A turn's distribution by units (0: a bust), its negligible tail dropped.
std::vector<double> trimmed(std::vector<double> p) {
  while (p.size() > 1 && p.back() < kTrimmed) p.pop_back();
  return p;
}

double sum(const std::vector<double>& p) { return std::accumulate(p.begin(), p.end(), 0.0); }

// One seat's game alone: its banked score after each turn, until it reaches
// the target.
struct Race {
  std::vector<std::vector<double>> below;    // [k][b]: after k turns b units banked, never reached
  std::vector<std::vector<double>> reached;  // [k][x]: reached first at turn k with units + x
  std::vector<double> left;                  // [k]: P(not reached after k turns)
};

// A seat's final score in units (z >= the target's units: reached), joint
// with its not having reached the target before: one answer to a best
// score (its banked score's chance times the answer's), or the banked score
// of a seat that does not play again. `less` makes the place sums a
// lookup.
struct Finals {
  std::vector<double> p;     // [z]
  std::vector<double> less;  // [v]: the sum of p[z] for z < v (size p.size() + 1)

  void accumulate() {
    less.assign(p.size() + 1, 0.0);
    std::partial_sum(p.begin(), p.end(), less.begin() + 1);
  }
  double total() const { return less.back(); }
  double below(int v) const { return less[std::size_t(std::clamp<int>(v, 0, int(p.size())))]; }
  double above(int v) const { return total() - below(v + 1); }
};

class TableEvaluator {
 public:
  TableEvaluator(const Scoring& scoring, const std::vector<const Policy*>& seats)
      : scoring_(scoring),
        rules_(scoring.rules()),
        seats_(seats),
        n_(static_cast<int>(seats.size())),
        units_(rules_.target / kPoint) {
    for (const Policy* policy : seats_) turns_from(*policy);
    races_.resize(n_);
    for (int s = 0; s < n_; ++s) races_[s] = start_race();
  }

  TableOutcome evaluate() {
    outcome_.win.assign(n_, 0.0);
    if (n_ == 3) outcome_.place.assign(n_, std::vector<double>(kMaxPlayers, 0.0));
    outcome_.turns.assign(n_, std::vector<double>(rules_.max_rounds + 2, 0.0));
    outcome_.first_turn.resize(n_);
    first_turns();
    int round = 0;
    for (; round < rules_.max_rounds; ++round) {
      extend_races(round + 1);
      if (still_running(round) < kUnfollowed) break;
      for (int f = 0; f < n_; ++f) finish(round, f);
      std::erase_if(answers_, [&](const auto& entry) { return entry.first.second <= round; });
    }
    if (round == rules_.max_rounds) {
      const double cut = still_running(round);
      for (int s = 0; s < n_; ++s) outcome_.turns[s][rules_.max_rounds + 1] = cut;
      outcome_.cut_at_most = cut;
    } else {
      outcome_.cut_at_most = still_running(round);
    }
    return std::move(outcome_);
  }

 private:
  bool reached(int score) const { return rules_.exact_target ? score == units_ : score >= units_; }

  // A policy's turn distribution from every banked score below the target.
  const std::vector<std::vector<double>>& turns_from(const Policy& policy) {
    auto& table = turns_from_[&policy];
    if (table.empty())
      for (int b = 0; b < units_; ++b) table.push_back(trimmed(turn_distribution(scoring_, policy, b * kPoint)));
    return table;
  }

  // The turn of a seat at b units answering the best score `best`: a chase,
  // which depends on b only through the gap and the bank minimum's regime
  // (and, under IV.4, on the policy's choice of parts); else its usual turn.
  const std::vector<double>& answer(const Policy& policy, int b, int best) {
    if (!policy.chase) return turns_from_[&policy][b];
    // Chases differ by policy only in the parts they keep (IV.4).
    const Policy* parts = rules_.partial_set_aside ? &policy : nullptr;
    auto chooser = std::find(choosers_.begin(), choosers_.end(), parts);
    if (chooser == choosers_.end()) {
      choosers_.push_back(parts);
      chases_.emplace_back();
      chooser = choosers_.end() - 1;
    }
    std::vector<std::vector<double>>& by_gap = chases_[chooser - choosers_.begin()][regime_of(rules_, b * kPoint)];
    const int gap = best - b;
    if (static_cast<int>(by_gap.size()) <= gap) by_gap.resize(gap + 1);
    if (by_gap[gap].empty()) by_gap[gap] = trimmed(turn_distribution(scoring_, policy, b * kPoint, best * kPoint));
    return by_gap[gap];
  }

  Race start_race() const {
    Race race;
    race.below.push_back(std::vector<double>(units_, 0.0));
    race.below[0][0] = 1;
    race.reached.emplace_back();
    race.left.push_back(1);
    return race;
  }

  // Every seat's race followed to `turns` turns.
  void extend_races(int turns) {
    for (int s = 0; s < n_; ++s) {
      Race& race = races_[s];
      const auto& from = turns_from_[seats_[s]];
      while (static_cast<int>(race.below.size()) <= turns) {
        const std::vector<double>& now = race.below.back();
        std::vector<double> next(units_, 0.0), first;
        for (int b = 0; b < units_; ++b) {
          if (now[b] == 0) continue;
          const std::vector<double>& turn = from[b];
          for (int t = 0; t < static_cast<int>(turn.size()); ++t) {
            const double p = now[b] * turn[t];
            if (!reached(b + t)) {
              next[b + t] += p;
              continue;
            }
            const std::size_t x = b + t - units_;
            if (first.size() <= x) first.resize(x + 1, 0.0);
            first[x] += p;
          }
        }
        race.left.push_back(sum(next));
        race.below.push_back(std::move(next));
        race.reached.push_back(std::move(first));
      }
    }
  }

  // P(nobody has reached the target before round `round`).
  double still_running(int round) const {
    double p = 1;
    for (const Race& race : races_) p *= race.left[round];
    return p;
  }

  // Every seat's first turn: its usual turn, unless a seat before it reached
  // the target in the first round (then finish() adds its answer).
  void first_turns() {
    double nobody_yet = 1;
    for (int s = 0; s < n_; ++s) {
      const std::vector<double>& turn = turns_from_[seats_[s]][0];
      outcome_.first_turn[s].assign(turn.size(), 0.0);
      for (std::size_t t = 0; t < turn.size(); ++t) outcome_.first_turn[s][t] = nobody_yet * turn[t];
      extend_races(1);
      nobody_yet *= races_[s].left[1];
    }
  }

  // The seats that answer seat f reaching the target in `round`, in the
  // order they play, each with the turns it has played when it does.
  std::vector<std::pair<int, int>> answerers(int round, int f) const {
    std::vector<std::pair<int, int>> order;
    for (int s = f + 1; s < n_; ++s) order.emplace_back(s, round);
    // Last turns reach round + 1 only within max_rounds (play_game stops there).
    if (rules_.last_turn && round + 1 < rules_.max_rounds)
      for (int s = 0; s < f; ++s) order.emplace_back(s, round + 1);
    return order;
  }

  // The chain after seat f reaches the target in `round`: the best score so
  // far and who holds it (one seat, or several tied).
  struct Holders {
    int seats = 0;
    std::vector<double> alone;                       // [(best - units) * seats + seat]
    std::map<unsigned, std::vector<double>> shared;  // [seats' bits][best - units]

    int bests() const { return static_cast<int>(alone.size()) / seats; }
    void make_room(int best) {
      if (bests() <= best) alone.resize(std::size_t(best + 1) * seats, 0.0);
    }
    double& alone_at(int best, int seat) { return alone[std::size_t(best) * seats + seat]; }
    double& shared_at(unsigned bits, int best) {
      std::vector<double>& by_best = shared[bits];
      if (static_cast<int>(by_best.size()) <= best) by_best.resize(best + 1, 0.0);
      return by_best[best];
    }
    double mass(int best) const {
      double p = 0;
      for (int s = 0; s < seats; ++s) p += alone[std::size_t(best) * seats + s];
      for (const auto& [bits, by_best] : shared)
        if (best < static_cast<int>(by_best.size())) p += by_best[best];
      return p;
    }
  };

  void finish(int round, int f) {
    const std::vector<double>& reaching = races_[f].reached[round + 1];
    if (reaching.empty()) return;
    const std::vector<std::pair<int, int>> order = answerers(round, f);
    double idle = 1;  // the seats that neither reached nor answer: not reached after this round
    for (int s = 0; s < f; ++s)
      if (std::none_of(order.begin(), order.end(), [&](const auto& a) { return a.first == s; }))
        idle *= races_[s].left[round + 1];
    Holders holders{n_, {}, {}};
    holders.make_room(static_cast<int>(reaching.size()) - 1);
    for (int x = 0; x < static_cast<int>(reaching.size()); ++x) holders.alone_at(x, f) = reaching[x] * idle;
    double end = sum(reaching) * idle;
    // The chance that the seats answering in the next round did not reach the
    // target in this one, which the chain applies only when they answer.
    double later = 1;
    for (const auto& [seat, turns] : order)
      if (turns == round + 1) later *= races_[seat].left[turns];
    if (n_ == 3) add_places_of_three(round, f, order, reaching);
    for (const auto& [seat, turns] : order) {
      if (turns == 0) add_first_turn_answers(seat, holders, later);
      holders = answered(seat, turns, holders);
      end *= races_[seat].left[turns];
    }
    for (int best = 0; best < holders.bests(); ++best)
      for (int s = 0; s < n_; ++s) outcome_.win[s] += holders.alone_at(best, s);
    for (const auto& [bits, by_best] : holders.shared) outcome_.tie += sum(by_best);
    for (int s = 0; s < n_; ++s) {
      const bool last_turn =
          std::any_of(order.begin(), order.end(), [&](const auto& a) { return a.first == s && a.second == round + 1; });
      outcome_.turns[s][round + 1 + last_turn] += end;
    }
  }

  // A seat's answer to the best score, given the chain so far: the best
  // rises (it holds it alone), is equalled (it shares it) or stays.
  Holders answered(int seat, int turns, const Holders& holders) {
    const double plays = races_[seat].left[turns];
    Holders next{n_, {}, {}};
    next.make_room(holders.bests() - 1);
    for (int best = 0; best < holders.bests(); ++best) {
      const double mass = holders.mass(best);
      if (mass < kNegligibleBest) continue;
      // The reached scores, by units above the target.
      const std::vector<double>& ends = finals(seat, turns, best).p;
      const int size = std::max(0, static_cast<int>(ends.size()) - units_);
      const double* row = size > 0 ? ends.data() + units_ : nullptr;
      const double equal = best < size ? row[best] : 0.0;
      double above = 0;
      for (int x = best + 1; x < size; ++x) above += row[x];
      const double stays = plays - equal - above;
      for (int s = 0; s < n_; ++s) {
        const double p = holders.alone[std::size_t(best) * n_ + s];
        if (p == 0) continue;
        next.alone_at(best, s) += p * stays;
        if (equal > 0) next.shared_at(1u << s | 1u << seat, best) += p * equal;
      }
      for (const auto& [bits, by_best] : holders.shared) {
        const double p = best < static_cast<int>(by_best.size()) ? by_best[best] : 0.0;
        if (p == 0) continue;
        next.shared_at(bits, best) += p * stays;
        if (equal > 0) next.shared_at(bits | 1u << seat, best) += p * equal;
      }
      next.make_room(size - 1);
      double* alone = next.alone.data() + seat;
      for (int x = best + 1; x < size; ++x) alone[std::size_t(x) * n_] += mass * row[x];
    }
    return next;
  }

  // P(the seat has b units banked after `turns` turns, answers the best
  // score units + best and ends with z units), by z: the same for every
  // seat that reached before it, so kept for the round.
  const Finals& finals(int seat, int turns, int best) {
    std::vector<Finals>& rows = answers_[{seat, turns}];
    if (static_cast<int>(rows.size()) <= best) rows.resize(best + 1);
    Finals& row = rows[best];
    if (!row.less.empty()) return row;
    const std::vector<double>& banked = races_[seat].below[turns];
    for (int b = 0; b < units_; ++b) {
      if (banked[b] == 0) continue;
      const std::vector<double>& turn = answer(*seats_[seat], b, units_ + best);
      if (row.p.size() < b + turn.size()) row.p.resize(b + turn.size(), 0.0);
      for (std::size_t t = 0; t < turn.size(); ++t) row.p[b + t] += banked[b] * turn[t];
    }
    row.accumulate();
    return row;
  }

  // Places at a table of three. After seat f reaches the target with
  // units + x, the other two end with final scores z_p and z_q, p playing
  // first: q answers max(units + x, z_p), as a seat that does not reach
  // ends below every reached score. (A seat that does not play again ends
  // where it banked.) A seat's place is one plus the seats strictly above
  // it, summed over z_q by q's cumulative distribution. Past three seats the
  // last seat's answer would depend on two earlier final scores, not one.
  void add_places_of_three(int round, int f, const std::vector<std::pair<int, int>>& order,
                           const std::vector<double>& reaching) {
    std::vector<std::pair<int, int>> others = order;  // (seat, turns); turns < 0: plays no more
    for (int s = 0; s < n_; ++s)
      if (s != f && std::none_of(order.begin(), order.end(), [&](const auto& a) { return a.first == s; }))
        others.emplace_back(s, -1);
    const auto [p, p_turns] = others[0];
    const auto [q, q_turns] = others[1];
    Finals banked_p{races_[p].below[round + 1], {}}, banked_q{races_[q].below[round + 1], {}};
    banked_p.accumulate(), banked_q.accumulate();
    const auto ends = [&](int turns, int seat, int best, const Finals& banked) -> const Finals& {
      return turns < 0 ? banked : finals(seat, turns, best);
    };
    // Summed by reach score, then by reacher and round, before the table's
    // totals: terms far below a total's rounding would be lost one by one.
    std::array<std::array<double, 3>, 3> finish{};  // [seat][place - 1]
    for (int x = 0; x < static_cast<int>(reaching.size()); ++x) {
      if (reaching[x] < kNegligibleBest) continue;
      const int top = units_ + x;
      std::array<std::array<double, 3>, 3> reach{};
      const auto place = [&](int seat, int rank) -> double& { return reach[std::size_t(seat)][std::size_t(rank - 1)]; };
      const std::vector<double>& ends_p = ends(p_turns, p, x, banked_p).p;
      for (int zp = 0; zp < static_cast<int>(ends_p.size()); ++zp) {
        const double w = reaching[x] * ends_p[zp];
        if (w == 0) continue;
        const Finals& q_ends = ends(q_turns, q, std::max(top, zp) - units_, banked_q);
        const double all = q_ends.total();
        const int f_behind = zp > top, p_behind = top > zp;
        place(f, 1 + f_behind) += w * (all - q_ends.above(top));
        place(f, 2 + f_behind) += w * q_ends.above(top);
        place(p, 1 + p_behind) += w * (all - q_ends.above(zp));
        place(p, 2 + p_behind) += w * q_ends.above(zp);
        const int low = std::min(top, zp), high = std::max(top, zp);
        place(q, 3) += w * q_ends.below(low);
        place(q, 2) += w * (q_ends.below(high) - q_ends.below(low));
        place(q, 1) += w * (all - q_ends.below(high));
      }
      for (int s = 0; s < 3; ++s)
        for (int k = 0; k < 3; ++k) finish[s][k] += reach[s][k];
    }
    for (int s = 0; s < 3; ++s)
      for (int k = 0; k < 3; ++k) outcome_.place[s][k] += finish[s][k];
  }

  // A seat whose first turn answers a first-round reach: that answer is its
  // first turn, from nothing banked. `later`: what the chain has yet to apply
  // of the seats before the reacher.
  void add_first_turn_answers(int seat, const Holders& holders, double later) {
    std::vector<double>& first = outcome_.first_turn[seat];
    for (int best = 0; best < holders.bests(); ++best) {
      const double mass = holders.mass(best) * later;
      if (mass == 0) continue;
      const std::vector<double>& turn = answer(*seats_[seat], 0, units_ + best);
      if (first.size() < turn.size()) first.resize(turn.size(), 0.0);
      for (std::size_t t = 0; t < turn.size(); ++t) first[t] += mass * turn[t];
    }
  }

  const Scoring& scoring_;
  const Rules& rules_;
  std::vector<const Policy*> seats_;
  int n_, units_;
  std::map<const Policy*, std::vector<std::vector<double>>> turns_from_;
  // Chase turns by the policy whose parts they keep (IV.4; else nullptr),
  // the bank minimum's regime and the gap to the best score.
  std::vector<const Policy*> choosers_;
  std::vector<std::array<std::vector<std::vector<double>>, kRegimes>> chases_;
  std::vector<Race> races_;
  std::map<std::pair<int, int>, std::vector<Finals>> answers_;  // [seat, turns][best]
  TableOutcome outcome_;
};

}  // namespace

std::optional<std::string> table_refusal(const Rules& rules, const std::vector<const Policy*>& seats) {
  for (const Policy* policy : seats)
    if (policy->plays_to_win || policy->win) return "the two-player optimal_win plays at two seats only";
  if (!rules.continue_previous) return std::nullopt;
  const int n = static_cast<int>(seats.size());
  const double starts = n * std::pow(double(rules.target / kPoint), n);
  std::ostringstream why;
  why.precision(2);
  why << "under IV.5 (continue_previous) a turn may take over the previous seat's position, so the seats' games "
         "are joined: the exact odds would follow every seat's score and the position handed over, "
      << starts << " turn starts each with up to " << rules.target / kPoint << " totals handed over";
  return why.str();
}

TableOutcome evaluate_table(const Scoring& scoring, const std::vector<const Policy*>& seats) {
  return TableEvaluator(scoring, seats).evaluate();
}

}  // namespace dicesim::tenk
