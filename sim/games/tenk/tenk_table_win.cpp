#include "games/tenk/tenk_table_win.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <stdexcept>

#include "config/json_input.h"
#include "engine/memory_budget.h"
#include "engine/peak_memory.h"
#include "engine/progress.h"
#include "games/tenk/tenk.h"
#include "games/tenk/tenk_win_policy.h"
#include "math/score_tuples.h"

namespace dicesim::tenk {
namespace {

// A fresh turn beats a score this many units above its own with a chance
// below this: scores beyond the horizon are taken as won.
constexpr double kNegligibleBeat = 1e-16;
constexpr int kMostPolicyRounds = 200;

int units_up(int points) { return (points + kPoint - 1) / kPoint; }

void add_scaled(TableWinOdds& to, const TableWinOdds& from, double p, int seats) {
  for (int k = 0; k < seats; ++k) to.win[k] += p * from.win[k], to.utility[k] += p * from.utility[k];
}

TableWinOdds won_by(int seat) {
  TableWinOdds odds;
  odds.win[seat] = odds.utility[seat] = 1;
  return odds;
}

// One throw's outcome, from a state a throw starts from.
struct Outcome {
  double probability = 0;
  int points = 0;  // units
  int kind = 0;    // Landings kind
};

// The throws of every (dice, pending) state, flattened (without IV.4 every
// group of outcomes has one move).
struct Throws {
  Throws(const Rules& rules, const Scoring& scoring) : landings(rules) {
    const std::vector<ThrowOutcomes> all = throw_outcomes(scoring);
    outcomes.resize(landings.states());
    for (int s = 0; s < landings.states(); ++s) {
      const ThrowOutcomes& t = all[landings.dice(s) * kDiceSlots + landings.pending(s)];
      bust.push_back(t.bust);
      fewest_busts = std::min(fewest_busts, t.bust);
      for (const ThrowGroup& g : t.groups) {
        const ThrowOption& o = t.options[g.first];
        outcomes[s].push_back({g.probability, o.points, landings.of(o.dice, o.pending, o.hot)});
        most_points = std::max(most_points, o.points);
      }
    }
    full_hand = landings.of(rules.dice, kNoPending, false);
    reach = std::make_unique<ReachChances>(rules, all, rules.exact_target ? rules.target / kPoint : 4000,
                                           rules.exact_target);
  }
  // The state the next throw starts from after landing as `kind`.
  int from(int kind) const { return kind == landings.hot() ? full_hand : kind; }

  Landings landings;
  std::vector<std::vector<Outcome>> outcomes;  // [state]
  std::vector<double> bust;                    // [state]
  double fewest_busts = 1;
  int most_points = 0;
  int full_hand = 0;
  std::unique_ptr<ReachChances> reach;
};

}  // namespace

// The answers to a reached score: for every reacher, answer i of its
// answerers and the scores of answerers i.., that answer's turn solved for
// every best score it may face (an "answer"). Answer i's values with the
// best score B: gain[B] (on the paths where it beats B) + fail[B] * the
// values of answer i + 1 against the same best and holder (it busts before
// or after passing B: padding may bust too).
class AnswerChains {
 public:
  AnswerChains(const Rules& rules, const Scoring& scoring, int seats, std::vector<bool> pads,
               std::vector<AnswerDecision> fixed, bool keep)
      : rules_(rules),
        throws_(rules, scoring),
        seats_(seats),
        units_(rules.target / kPoint),
        pads_(std::move(pads)),
        fixed_(std::move(fixed)),
        keep_(keep) {
    for (int r = 0; r < seats; ++r) {
      std::vector<int> order;
      const int last = rules.last_turn ? r + seats : seats;
      for (int s = r + 1; s < last; ++s) order.push_back(s % seats);
      answerers_.push_back(order);
      first_.emplace_back();
      for (std::size_t i = 0; i < order.size(); ++i) {
        first_[r].push_back(count_);
        count_ += std::size_t(std::pow(double(units_), double(order.size() - i)));
      }
    }
    answers_.resize(count_);
    horizon_ = units_;
    if (!rules.exact_target) {
      int span = 1;
      while (span < throws_.reach->most() && throws_.reach->fresh(span) >= kNegligibleBeat) ++span;
      horizon_ = units_ + std::max(span, units_up(std::max(rules.bank_minimum, rules.high_bank_minimum)) + 1);
    }
  }

  const Throws& throws() const { return throws_; }
  int horizon() const { return horizon_; }
  std::uint64_t solved() const { return solved_; }
  const std::vector<int>& answerers(int reacher) const { return answerers_[reacher]; }
  int bank_minimum(int banked) const { return units_up(rules_.bank_minimum_at(banked * kPoint)); }
  // The most answers there may be, for the memory bound.
  static std::uint64_t count(const Rules& rules, int seats) {
    double n = 0;
    for (int r = 0; r < seats; ++r) {
      const int k = rules.last_turn ? seats - 1 : seats - 1 - r;
      for (int i = 0; i < k; ++i) n += std::pow(double(rules.target / kPoint), double(k - i));
    }
    return std::uint64_t(n);
  }

  // Every seat's odds once `reacher` banks the score `best` (units) at the
  // target or past it, the others at `scores`.
  TableWinOdds reached(int reacher, int best, const int* scores) const {
    if (rules_.exact_target) return exact_answers(reacher, scores);
    return chain(reacher, 0, best, reacher, scores);
  }

  // Whether answer i of reacher's answerers banks at turn total t, kind.
  bool banks(int reacher, int i, const int* scores, int t, int kind) const {
    if (!keep_) throw std::logic_error("tenk: answer decisions of a table solved without keep_decisions");
    const Answer& a = answer(reacher, i, scores);
    if (t > a.top) return true;
    return a.decisions[std::size_t(t - 1) * throws_.landings.count() + kind] != 0;
  }

  // Solves every answer not solved yet (the race reaches nearly all), so
  // that banks() reads without writing: the engine's threads share it.
  void solve_all() const {
    int scores[kMostTableWinSeats] = {};
    for (int r = 0; r < seats_; ++r)
      for (std::size_t i = 0; i < answerers_[r].size(); ++i) {
        const std::size_t count = (i + 1 < answerers_[r].size() ? first_[r][i + 1] : next_first(r)) - first_[r][i];
        for (std::size_t index = 0; index < count; ++index) {
          std::size_t rest = index;
          for (std::size_t j = i; j < answerers_[r].size(); ++j, rest /= units_)
            scores[answerers_[r][j]] = static_cast<int>(rest % units_);
          answer(r, int(i), scores);
        }
      }
  }

 private:
  struct Answer {
    bool solved = false;
    int top = 0;                          // turn totals solved: 1..top (above: past the horizon, banked)
    std::vector<TableWinOdds> gain;       // [best - units]: the values on the paths that beat it
    std::vector<double> fail;             // [best - units]: the chance that it does not
    std::vector<std::uint8_t> decisions;  // [(t - 1) * kinds + kind], with keep
  };

  TableWinOdds chain(int reacher, int i, int best, int holder, const int* scores) const {
    const std::vector<int>& order = answerers_[reacher];
    if (i == int(order.size()) || best >= horizon_) return won_by(holder);
    const Answer& a = answer(reacher, i, scores);
    TableWinOdds odds = a.gain[best - units_];
    add_scaled(odds, chain(reacher, i + 1, best, holder, scores), a.fail[best - units_], seats_);
    return odds;
  }

  // IV.3: every answerer that hits the target exactly ties the reacher.
  TableWinOdds exact_answers(int reacher, const int* scores) const {
    const std::vector<int>& order = answerers_[reacher];
    std::vector<double> hit;
    for (int s : order) hit.push_back(throws_.reach->fresh(units_ - scores[s]));
    TableWinOdds odds;
    for (unsigned mask = 0; mask < (1u << order.size()); ++mask) {
      double p = 1;
      int tied = 1;
      for (std::size_t j = 0; j < order.size(); ++j) (mask >> j & 1) ? (p *= hit[j], ++tied) : (p *= 1 - hit[j]);
      if (tied == 1) odds.win[reacher] += p;
      odds.utility[reacher] += p / tied;
      for (std::size_t j = 0; j < order.size(); ++j)
        if (mask >> j & 1) odds.utility[order[j]] += p / tied;
    }
    return odds;
  }

  // The index one past reacher r's answers.
  std::size_t next_first(int r) const {
    for (int later = r + 1; later < seats_; ++later)
      if (!first_[later].empty()) return first_[later][0];
    return count_;
  }

  const Answer& answer(int reacher, int i, const int* scores) const {
    const std::vector<int>& order = answerers_[reacher];
    std::size_t index = 0;
    for (std::size_t j = order.size(); j-- > std::size_t(i);) index = index * units_ + scores[order[j]];
    Answer& a = answers_[first_[reacher][i] + index];
    if (!a.solved) solve(reacher, i, scores, a);
    return a;
  }

  // Values on the paths that beat the best, and the chance of failing after
  // all (a bust, the answerer's own value then 0).
  struct Beat {
    TableWinOdds odds;
    double fail = 0;
    void add(const Beat& b, double p, int seats) {
      add_scaled(odds, b.odds, p, seats);
      fail += p * b.fail;
    }
  };

  // Answer i's turn, its score x: rows[t][kind] are its values after landing
  // at total t with banking allowed once past the target (the values past a
  // best score B do not depend on B), go[t][state] those of throwing on.
  void solve(int reacher, int i, const int* scores, Answer& a) const {
    const int seat = answerers_[reacher][i], x = scores[seat];
    const int kinds = throws_.landings.count(), states = throws_.landings.states();
    const int top = horizon_ - x, rows_top = top + throws_.most_points, minimum = bank_minimum(x);
    std::vector<Beat> rows(std::size_t(rows_top + 1) * kinds), go(std::size_t(top + 1) * states);
    if (keep_) a.decisions.assign(std::size_t(top) * kinds, 0);
    for (int t = rows_top; t > top; --t) std::fill_n(&rows[std::size_t(t) * kinds], kinds, Beat{won_by(seat), 0});
    for (int t = top; t >= 0; --t) {
      for (int s = 0; s < states; ++s) {
        Beat& v = go[std::size_t(t) * states + s];
        v.fail = throws_.bust[s];
        for (const Outcome& o : throws_.outcomes[s])
          v.add(rows[std::size_t(t + o.points) * kinds + o.kind], o.probability, seats_);
      }
      if (t == 0) break;
      const bool may_bank = x + t > units_ && t >= minimum;
      const Beat bank{may_bank ? chain(reacher, i + 1, x + t, seat, scores) : TableWinOdds{}, 0};
      for (int kind = 0; kind < kinds; ++kind) {
        const Beat& on = go[std::size_t(t) * states + throws_.from(kind)];
        bool banks = may_bank && (!pads_[seat] || bank.odds.utility[seat] >= on.odds.utility[seat]);
        if (may_bank && fixed_[seat]) banks = fixed_[seat](reacher, scores, i, t, kind);
        rows[std::size_t(t) * kinds + kind] = banks ? bank : on;
        if (keep_) a.decisions[std::size_t(t - 1) * kinds + kind] = banks;
      }
    }
    follow_crossings(x, top, rows, go, a);
    a.top = top;
    a.solved = true;
    ++solved_;
  }

  // gain[B] and fail[B] for every best score B: the turn throws on while
  // its score is at most B. The chance of landing at each (total, kind)
  // throwing on throughout does not depend on B; moving B up by one takes
  // the paths that land at x + B + 1 from "beyond" to "still throwing".
  void follow_crossings(int x, int top, const std::vector<Beat>& rows, const std::vector<Beat>& go, Answer& a) const {
    const int kinds = throws_.landings.count(), states = throws_.landings.states();
    std::vector<double> land(std::size_t(top + 1) * kinds, 0.0), at(std::size_t(top + 1) * states, 0.0);
    at[throws_.full_hand] = 1;  // total 0, a full hand
    for (int t = 0; t < top; ++t)
      for (int s = 0; s < states; ++s) {
        const double here = at[std::size_t(t) * states + s];
        if (here == 0) continue;
        for (const Outcome& o : throws_.outcomes[s])
          if (const int to = t + o.points; to <= top) {
            land[std::size_t(to) * kinds + o.kind] += here * o.probability;
            at[std::size_t(to) * states + throws_.from(o.kind)] += here * o.probability;
          }
      }
    Beat gain = go[throws_.full_hand];
    a.gain.assign(std::size_t(horizon_ - units_), TableWinOdds{});
    a.fail.assign(std::size_t(horizon_ - units_), 0.0);
    for (int d = 0; d < top; ++d) {
      if (x + d >= units_) a.gain[x + d - units_] = gain.odds, a.fail[x + d - units_] = gain.fail;
      const int t = d + 1;
      for (int kind = 0; kind < kinds; ++kind)
        gain.add(rows[std::size_t(t) * kinds + kind], -land[std::size_t(t) * kinds + kind], seats_);
      for (int s = 0; s < states; ++s)
        gain.add(go[std::size_t(t) * states + s], at[std::size_t(t) * states + s], seats_);
    }
  }

  Rules rules_;
  Throws throws_;
  int seats_, units_, horizon_ = 0;
  std::vector<bool> pads_;             // per seat: answers win-optimally
  std::vector<AnswerDecision> fixed_;  // per seat: its fixed answers, where set
  bool keep_;
  std::vector<std::vector<int>> answerers_;      // [reacher]
  std::vector<std::vector<std::size_t>> first_;  // [reacher][i]: its answers' first index
  std::size_t count_ = 0;
  mutable std::vector<Answer> answers_;
  mutable std::uint64_t solved_ = 0;
};

std::size_t TableWin::state(int mover, const int* scores) const {
  return std::size_t(mover) * tuples_ + encode_tuple(scores, seats_, units_);
}

const TableWinOdds& TableWin::start() const {
  const std::array<int, kMostTableWinSeats> zero{};
  return value(0, zero.data());
}

double TableWin::tie() const {
  double tie = 1;
  for (int k = 0; k < seats_; ++k) tie -= start().win[k];
  return std::max(0.0, tie);  // not below 0 by rounding
}

bool TableWin::banks(int mover, const int* scores, int total, int kind) const {
  const std::vector<std::uint8_t>& d = decisions_.at(state(mover, scores));
  if (std::size_t(total) * kinds_ > d.size()) return true;
  return d[std::size_t(total - 1) * kinds_ + kind] != 0;
}

bool TableWin::answer_banks(int reacher, const int* scores, int answer, int total, int kind) const {
  return chains_->banks(reacher, answer, scores, total, kind);
}

std::vector<int> TableWin::answerers(int reacher) const { return chains_->answerers(reacher); }

FixedSeat TableWin::fixed_seat() const {
  FixedSeat seat;
  seat.banks = [this](int mover, const int* scores, int total, int kind) { return banks(mover, scores, total, kind); };
  seat.top = [this](int mover, const int* scores) {
    return static_cast<int>(decisions_.at(state(mover, scores)).size()) / kinds_;
  };
  seat.answer_banks = [this](int reacher, const int* scores, int answer, int total, int kind) {
    return answer_banks(reacher, scores, answer, total, kind);
  };
  seat.answers_optimally = true;
  return seat;
}

int TableWin::kind(int dice, int pending, bool hot) const { return chains_->throws().landings.of(dice, pending, hot); }

FixedSeat policy_seat(const Rules& rules, const Policy& policy) {
  const Landings landings(rules);
  const int units = rules.target / kPoint;
  FixedSeat seat;
  seat.banks = [rules, &policy, landings, units](int mover, const int* scores, int total, int kind) {
    if (scores[mover] + total >= units) return true;
    const int banked = scores[mover] * kPoint;
    return !policy.throws(regime_of(rules, banked), landings.pending(kind), landings.dice(kind), total * kPoint);
  };
  return seat;
}

FixedSeat bank_at_seat(const Rules& rules, int points) {
  FixedSeat seat;
  const int units = rules.target / kPoint;
  seat.banks = [points, units](int mover, const int* scores, int total, int) {
    return total * kPoint >= points || scores[mover] + total >= units;
  };
  return seat;
}

std::uint64_t table_win_bytes(const Rules& rules, int seats, bool keep_decisions) {
  const double units = rules.target / kPoint;
  const double states = seats * std::pow(units, seats);
  // An answer keeps odds and a chance for every best score up to the
  // horizon (about the target's units past it; a bound) and its turn's rows
  // while it is solved.
  const double span = 400;
  const double answers = double(AnswerChains::count(rules, seats));
  const double kinds = 8 * kDiceSlots;              // a bound on an answer's landings
  const double landings = Landings(rules).count();  // those a turn start's decisions are kept for
  double bytes = states * sizeof(TableWinOdds) + answers * span * (sizeof(TableWinOdds) + sizeof(double));
  // Kept decisions: a state's turn runs from its seat's score to the target
  // (half the target's units on average over the states) or to the bank
  // minimum past it, a byte per total and landing, in a vector of its own
  // (its header and the allocator's); an answer's, to the horizon.
  const double past = units_up(std::max(rules.bank_minimum, rules.high_bank_minimum)) + 1;
  const double vector_bytes = sizeof(std::vector<std::uint8_t>) + 16;
  if (keep_decisions)
    bytes += states * (((units + 1) / 2 + past) * landings + vector_bytes) + answers * (units + span) * kinds;
  return static_cast<std::uint64_t>(std::min(1e19, bytes));
}

std::optional<std::string> table_win_refusal(const Rules& rules, int seats, bool keep_decisions) {
  if (seats < 2 || seats > kMostTableWinSeats)
    return "a table of " + std::to_string(seats) + " seats: 10,000's win-optimal table is solved for 2 to " +
           std::to_string(kMostTableWinSeats) + " seats";
  if (rules.partial_set_aside)
    return "IV.4 (partial_set_aside): the table solver keeps every scoring die; it is not solved for 3+ seats";
  if (rules.continue_previous)
    return "IV.5 (continue_previous): a turn taken over would need the banked position in the state; not solved "
           "for 3+ seats";
  if (rules.no_stop_on_hot_dice)
    return "IV.1 (no_stop_on_hot_dice): forced throws past the target are not followed by the table solver";
  if (rules.target % kPoint != 0) return "the target is not a multiple of 50";
  const std::uint64_t bytes = table_win_bytes(rules, seats, keep_decisions);
  if (bytes > kMostTableWinBytes)
    return "a table of " + std::to_string(seats) + " seats at target " + std::to_string(rules.target) + " needs " +
           std::to_string(bytes >> 20) +
           " MiB (every seat's score at every turn start, and the answers), more than "
           "the " +
           std::to_string(kMostTableWinBytes >> 20) + " MiB allowed";
  return std::nullopt;
}

void charge_table_win(const Rules& rules, int seats, bool keep_decisions, const std::string& what) {
  memory_budget().charge_once(
      "tenk table " + rules_json(rules).dump() + std::to_string(seats) + (keep_decisions ? "k" : ""),
      table_win_bytes(rules, seats, keep_decisions), what);
}

// The race: score tuples from high sums to low, the n turn starts of one
// tuple together.
class TableWinSolver {
 public:
  TableWinSolver(const Scoring& scoring, int seats, const std::vector<std::optional<FixedSeat>>& fixed, bool keep)
      : rules_(scoring.rules()), fixed_(fixed), keep_(keep) {
    fixed_.resize(std::size_t(seats));
    std::vector<bool> pads(static_cast<std::size_t>(seats));
    std::vector<AnswerDecision> answers(static_cast<std::size_t>(seats));
    for (int k = 0; k < seats; ++k) {
      pads[k] = (!fixed_[k] || fixed_[k]->answers_optimally) && !rules_.bank_at_target;
      if (fixed_[k]) answers[k] = fixed_[k]->answer_banks;
    }
    out_.chains_ = std::make_shared<AnswerChains>(rules_, scoring, seats, pads, answers, keep);
    chains_ = out_.chains_.get();
    out_.seats_ = seats;
    out_.units_ = rules_.target / kPoint;
    out_.kinds_ = chains_->throws().landings.count();
    out_.tuples_ = std::size_t(std::pow(double(out_.units_), double(seats)) + 0.5);
    out_.values_.assign(out_.tuples_ * seats, TableWinOdds{});
    if (keep) out_.decisions_.resize(out_.values_.size());
  }

  TableWin solve() {
    const auto start = std::chrono::steady_clock::now();
    const std::vector<std::size_t> order = tuples_from_high_sums(out_.seats_, out_.units_);
    constexpr std::size_t kTuplesAStep = 256;
    Progress progress("10,000 win-optimal table of " + std::to_string(out_.seats_) + ": score tuples", order.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
      solve_tuple(order[i]);
      if (i % kTuplesAStep == kTuplesAStep - 1 || i + 1 == order.size()) progress.advance(i % kTuplesAStep + 1);
    }
    if (keep_) chains_->solve_all();
    out_.stats.turn_starts = out_.values_.size();
    out_.stats.answers = chains_->solved();
    out_.stats.horizon = chains_->horizon() - out_.units_;
    out_.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    out_.stats.peak_bytes = peak_resident_bytes();
    return std::move(out_);
  }

 private:
  // A turn's value: constant + bust * (the next seat's value at these scores).
  struct Affine {
    TableWinOdds constant;
    double bust = 0;
    double utility(int seat, const TableWinOdds& next) const {
      return constant.utility[seat] + bust * next.utility[seat];
    }
    void add(const Affine& a, double p, int seats) {
      add_scaled(constant, a.constant, p, seats);
      bust += p * a.bust;
    }
  };

  void solve_tuple(std::size_t tuple) {
    const int seats = out_.seats_;
    int scores[kMostTableWinSeats] = {};
    decode_tuple(tuple, seats, out_.units_, scores);
    std::array<TableWinOdds, kMostTableWinSeats> estimate{};
    std::array<Affine, kMostTableWinSeats> turn;
    std::array<std::vector<std::uint8_t>, kMostTableWinSeats> decisions, previous;
    int round = 0;
    for (; round < kMostPolicyRounds; ++round) {
      for (int m = 0; m < seats; ++m) turn[m] = solve_turn(m, scores, estimate[(m + 1) % seats], decisions[m]);
      estimate = close_cycle(turn);
      if (round > 0 && decisions == previous) break;
      previous = decisions;
    }
    out_.stats.most_iterations = std::max(out_.stats.most_iterations, std::min(round + 1, kMostPolicyRounds));
    out_.stats.unsettled_tuples += round == kMostPolicyRounds;
    for (int m = 0; m < seats; ++m) {
      out_.values_[std::size_t(m) * out_.tuples_ + tuple] = estimate[m];
      if (keep_) out_.decisions_[std::size_t(m) * out_.tuples_ + tuple] = std::move(decisions[m]);
    }
  }

  // v_m = c_m + b_m v_(m+1) around the cycle of seats.
  std::array<TableWinOdds, kMostTableWinSeats> close_cycle(const std::array<Affine, kMostTableWinSeats>& turn) const {
    const int seats = out_.seats_;
    TableWinOdds first;
    double carry = 1;
    for (int m = 0; m < seats; ++m) {
      add_scaled(first, turn[m].constant, carry, seats);
      carry *= turn[m].bust;
    }
    for (int k = 0; k < seats; ++k) first.win[k] /= 1 - carry, first.utility[k] /= 1 - carry;
    std::array<TableWinOdds, kMostTableWinSeats> value{};
    value[0] = first;
    for (int m = seats - 1; m > 0; --m) {
      value[m] = turn[m].constant;
      add_scaled(value[m], value[(m + 1) % seats], turn[m].bust, seats);
    }
    return value;
  }

  // The value of banking at total t: the next seat's turn at the new scores,
  // or the answers to a reached score.
  Affine bank_value(int m, int* scores, int t) const {
    const int own = scores[m];
    if (own + t >= out_.units_) return {chains_->reached(m, own + t, scores), 0};
    scores[m] = own + t;
    const TableWinOdds& next = out_.value((m + 1) % out_.seats_, scores);
    scores[m] = own;
    return {next, 0};
  }

  // The highest total a seat may throw on from: reaching the target, or
  // (with answerers after it) while padding might pay. Padding risks at
  // least the fewest busts of a throw, dropping the bank value to the bust
  // value, and gains at most the answerers' chance to beat the score: once
  // that chance is below half the risk, banking is best (and stays best
  // above, where it only shrinks).
  int top_total(int m, int* scores, double bust_utility) const {
    const int own = scores[m], units = out_.units_;
    if (rules_.exact_target) return units - own;
    const int least = std::max(units - own, chains_->bank_minimum(own));
    if (fixed_[m]) return fixed_[m]->top ? std::max(least, fixed_[m]->top(m, scores)) : least;
    if (chains_->answerers(m).empty() || rules_.bank_at_target) return least;
    const double bound = 0.5 * chains_->throws().fewest_busts * (1 - bust_utility);
    int score = own + least;
    while (score < chains_->horizon() && 1 - chains_->reached(m, score + 1, scores).utility[m] > bound) ++score;
    return score - own;
  }

  // Seat m's turn with the next seat's value at these scores taken as
  // `next`: its best reply (or its fixed play), as an Affine function of it.
  Affine solve_turn(int m, int* scores, const TableWinOdds& next, std::vector<std::uint8_t>& decisions) {
    const Throws& throws = chains_->throws();
    const int kinds = throws.landings.count(), states = throws.landings.states(), seats = out_.seats_;
    const int own = scores[m], top = top_total(m, scores, next.utility[m]), minimum = chains_->bank_minimum(own);
    rows_.assign(std::size_t(top + throws.most_points + 1) * kinds, Affine{});
    go_.assign(std::size_t(states), Affine{});
    decisions.assign(std::size_t(top) * kinds, 0);
    for (int t = top + 1; t <= top + throws.most_points; ++t) {
      // Past an exact target a throw busts; else every total above the top banks.
      const Affine above = rules_.exact_target ? Affine{TableWinOdds{}, 1} : bank_value(m, scores, t);
      std::fill_n(&rows_[std::size_t(t) * kinds], kinds, above);
    }
    for (int t = top; t >= 0; --t) {
      for (int s = 0; s < states; ++s) {
        go_[s] = Affine{TableWinOdds{}, throws.bust[s]};
        for (const Outcome& o : throws.outcomes[s])
          go_[s].add(rows_[std::size_t(t + o.points) * kinds + o.kind], o.probability, seats);
      }
      if (t == 0) break;
      const bool hits = rules_.exact_target && own + t == out_.units_;
      const bool may_bank = hits || t >= minimum;
      const Affine bank = may_bank ? bank_value(m, scores, t) : Affine{};
      for (int kind = 0; kind < kinds; ++kind) {
        const Affine& on = go_[throws.from(kind)];
        bool banks = false;
        const bool must = rules_.bank_at_target && own + t >= out_.units_;  // the house rule: no padding
        if (may_bank)
          banks =
              must || (fixed_[m] ? fixed_[m]->banks(m, scores, t, kind) : bank.utility(m, next) >= on.utility(m, next));
        rows_[std::size_t(t) * kinds + kind] = banks ? bank : on;
        decisions[std::size_t(t - 1) * kinds + kind] = banks;
      }
    }
    return go_[throws.full_hand];
  }

  Rules rules_;
  std::vector<std::optional<FixedSeat>> fixed_;
  bool keep_;
  TableWin out_;
  AnswerChains* chains_ = nullptr;
  std::vector<Affine> rows_, go_;  // the turn being solved
};

TableWin solve_table_win(const Scoring& scoring, int seats, const std::vector<std::optional<FixedSeat>>& fixed,
                         bool keep_decisions) {
  if (const auto why = table_win_refusal(scoring.rules(), seats, keep_decisions)) throw InputError(*why);
  const bool any_fixed = std::any_of(fixed.begin(), fixed.end(), [](const auto& seat) { return seat.has_value(); });
  if (!any_fixed)
    charge_table_win(scoring.rules(), seats, keep_decisions,
                     "10,000's win-optimal table of " + std::to_string(seats) + " seats");
  return TableWinSolver(scoring, seats, fixed, keep_decisions).solve();
}

}  // namespace dicesim::tenk
