#include "games/tenk/tenk_table_win.h"

#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iterator>
#include <limits>
#include <stdexcept>

#include "config/json_input.h"
#include "engine/memory_budget.h"
#include "engine/peak_memory.h"
#include "engine/progress.h"
#include "games/tenk/tenk.h"
#include "games/tenk/tenk_table_answers.h"
#include "games/tenk/tenk_table_throws.h"
#include "games/tenk/tenk_win_policy.h"
#include "math/score_tuples.h"
#include "math/turn_cycle.h"

namespace dicesim::tenk {
namespace {

// A fresh turn beats a score this many units above its own with a chance
// below this: scores beyond the horizon are taken as won.
constexpr double kNegligibleBeat = 1e-16;
constexpr int kMostPolicyRounds = 200;
// What the decision runs of a turn take, typically, for the memory
// estimate: a top, the count of lists, the list numbers, and the distinct
// lists, each a count and two flips (measured at target 3,000 with a byte
// per list number and lists in words: 17.8 words a turn under seed 000's 7
// kinds, 42.7 under seed 003's 25; estimated 21 and 45). The estimate
// still costs a byte per list number and lists in words, though most
// turns now take 4 bits or fewer a number and keep their lists in bytes
// (DecisionRuns; 27.4 words under seed 003's at 3,000). Seed 003's
// `check` at 10,000, estimated at 3.7 GiB, peaked at 4.21 GiB with a byte
// per list number, 4.14 with the narrower numbers, and 3.27 with the lists
// in bytes (measured).
// The runs grow a block at a time, never doubling.
double runs_per_turn(int kinds) {
  const int lists = std::min(kinds, 4 + kinds / 4);
  return 2 + DecisionRuns::widest_index_words(kinds) + 3 * lists;
}

int units_up(int points) { return (points + kPoint - 1) / kPoint; }

LaneLayout layout_of(const Rules& rules, int seats) { return {seats, rules.exact_target}; }

// The highest score an answer follows (units): past it a fresh turn's
// chance of beating it is below kNegligibleBeat (to an exact target: the
// target, which an answer only hits or not).
int answer_horizon(const Rules& rules, const TableThrows& throws) {
  const int units = rules.target / kPoint;
  if (rules.exact_target) return units;
  int span = 1;
  while (span < throws.reach->most() && throws.reach->fresh(span) >= kNegligibleBeat) ++span;
  return units + std::max(span, units_up(std::max(rules.bank_minimum, rules.high_bank_minimum)) + 1);
}

std::size_t power(int base, int exponent) {
  std::size_t n = 1;
  for (int i = 0; i < exponent; ++i) n *= std::size_t(base);
  return n;
}

}  // namespace

AnswerIndex::AnswerIndex(int seats, int units, bool last_turn) : units_(units) {
  for (int r = 0; r < seats; ++r) {
    std::vector<int> order;
    const int last = last_turn ? r + seats : seats;
    for (int s = r + 1; s < last; ++s) order.push_back(s % seats);
    answerers_.push_back(order);
    first_.emplace_back();
    for (std::size_t i = 0; i < order.size(); ++i) {
      first_[std::size_t(r)].push_back(count_);
      count_ += power(units, int(order.size() - i));
    }
  }
}

std::size_t AnswerIndex::size(int reacher, int i) const { return power(units_, int(answerers(reacher).size()) - i); }

std::size_t AnswerIndex::index(int reacher, int i, const int* scores) const {
  const std::vector<int>& order = answerers(reacher);
  std::size_t n = 0;
  for (std::size_t j = order.size(); j-- > std::size_t(i);) n = n * std::size_t(units_) + std::size_t(scores[order[j]]);
  return first(reacher, i) + n;
}

void AnswerIndex::scores_of(int reacher, int i, std::size_t n, int* scores) const {
  const std::vector<int>& order = answerers(reacher);
  for (std::size_t j = std::size_t(i); j < order.size(); ++j, n /= std::size_t(units_))
    scores[order[j]] = static_cast<int>(n % std::size_t(units_));
}

std::uint64_t AnswerIndex::count(int seats, int units, bool last_turn) {
  return AnswerIndex(seats, units, last_turn).count();
}

// The turn starts of one mover are numbered from the score of the seat
// before it (the lowest digit) round the table: the seat before banks and
// hands over to the mover, so the turn starts one bank reads, a total at a
// time, lie side by side.
std::size_t TableWin::state(int mover, const int* scores) const {
  std::size_t n = 0;
  for (int k = seats_; k-- > 0;) n = n * std::size_t(units_) + std::size_t(scores[(mover + seats_ - 1 + k) % seats_]);
  return std::size_t(mover) * tuples_ + n;
}

TableWinOdds TableWin::value(int mover, const int* scores) const {
  if (places_) throw std::logic_error("tenk: the odds of a place solve read as a win solve's");
  const double* at = &values_[state(mover, scores) * std::size_t(layout_.stored())];
  TableWinOdds odds;
  for (int k = 0; k < seats_; ++k) odds.utility[k] = at[k], odds.win[k] = at[layout_.win(k)];
  return odds;
}

TablePlaceOdds TableWin::places(int mover, const int* scores) const {
  if (!places_) throw std::logic_error("tenk: the odds of a win solve read as a place solve's");
  const double* at = &values_[state(mover, scores) * std::size_t(layout_.stored())];
  TablePlaceOdds odds;
  for (int k = 0; k < seats_; ++k) {
    odds.last[k] = at[layout_.last(k)];
    if (layout_.ties) odds.first[k] = at[layout_.first(k)];
  }
  return odds;
}

TableWinOdds TableWin::start() const {
  const std::array<int, kMostTableWinSeats> zero{};
  return value(0, zero.data());
}

double TableWin::tie() const {
  double tie = 1;
  const TableWinOdds odds = start();
  for (int k = 0; k < seats_; ++k) tie -= odds.win[k];
  return std::max(0.0, tie);  // not below 0 by rounding
}

int TableWin::mix_of(std::size_t state) const {
  const auto at = std::lower_bound(mixes_.begin(), mixes_.end(), state,
                                   [](const Mix& mix, std::size_t s) { return mix.state < s; });
  return at != mixes_.end() && at->state == state ? int(at - mixes_.begin()) : -1;
}

int TableWin::plan(int mover, const int* scores, Rng& rng) const {
  if (mixes_.empty()) return -1;
  const int mix = mix_of(state(mover, scores));
  if (mix < 0) return -1;
  // A uniform draw in [0, 1) from the game's own stream (53 bits).
  return double(rng() >> 11) * 0x1.0p-53 < mixes_[std::size_t(mix)].chance ? mix : -1;
}

FixedSeat TableWin::fixed_seat() const {
  FixedSeat seat;
  seat.banks = [this](int mover, const int* scores, int total, int kind) { return banks(mover, scores, total, kind); };
  seat.top = [this](int mover, const int* scores) { return decisions_.top(state(mover, scores)); };
  seat.decide_turn = [this](int mover, const int* scores, int top, std::uint8_t* banks) {
    decisions_.decode(state(mover, scores), top, kinds_, banks);
  };
  seat.answer_banks = [this](int reacher, const int* scores, int answer, int total, int kind) {
    return answer_banks(reacher, scores, answer, total, kind);
  };
  seat.answers_optimally = true;
  seat.alternative = [this](int mover, const int* scores) -> std::optional<FixedSeat::Alternative> {
    const int mix = mixes_.empty() ? -1 : mix_of(state(mover, scores));
    if (mix < 0) return std::nullopt;
    return FixedSeat::Alternative{
        mixes_[std::size_t(mix)].chance, alternatives_.top(std::size_t(mix)),
        [this, mix](int top, std::uint8_t* banks) { alternatives_.decode(std::size_t(mix), top, kinds_, banks); }};
  };
  return seat;
}

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
  const LaneLayout layout = layout_of(rules, seats);
  const double answers = double(AnswerIndex::count(seats, rules.target / kPoint, rules.last_turn));
  const double kinds = Landings(rules).count();
  // The values of every turn start, the tuples in solving order, and while
  // the race is solved every answer's odds for every best score up to the
  // horizon (none under IV.3).
  double span = 0;
  if (!rules.exact_target) span = answer_horizon(rules, TableThrows(rules, Scoring(rules))) - units;
  double bytes = states * layout.stored() * sizeof(double) + states / seats * sizeof(std::size_t) +
                 answers * span * layout.width() * sizeof(double);
  // Kept decisions: a turn's runs (typically) and where they start (a
  // 32-bit word number, costed at 64 bits as the list numbers are at a byte).
  if (keep_decisions) bytes += (states + answers) * (runs_per_turn(int(kinds)) * 2 + sizeof(std::uint64_t));
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
// tuple together (the tuples of one sum in parallel: each reads only tuples
// of higher sums), each as L lanes (tenk_table_lanes.h).
template <int L>
class TableWinSolver {
 public:
  using V = Lanes<L>;

  // With `places` (every seat fixed, three seats) the lanes hold places (TablePlaceOdds).
  TableWinSolver(const Scoring& scoring, int seats, const std::vector<std::optional<FixedSeat>>& fixed, bool keep,
                 bool places = false)
      : rules_(scoring.rules()), throws_(rules_, scoring), fixed_(fixed), keep_(keep) {
    fixed_.resize(std::size_t(seats));
    out_.seats_ = seats;
    out_.places_ = places;
    out_.units_ = rules_.target / kPoint;
    out_.kinds_ = throws_.kinds;
    out_.layout_ = layout_of(rules_, seats);
    out_.landings_ = throws_.landings;
    out_.tuples_ = power(out_.units_, seats);
    out_.answers_ = AnswerIndex(seats, out_.units_, rules_.last_turn);
    horizon_ = answer_horizon(rules_, throws_);
    std::vector<bool> pads(static_cast<std::size_t>(seats));
    std::vector<AnswerDecision> answers(static_cast<std::size_t>(seats));
    for (int k = 0; k < seats; ++k) {
      pads[k] = (!fixed_[k] || fixed_[k]->answers_optimally) && !rules_.bank_at_target;
      if (fixed_[k]) answers[k] = fixed_[k]->answer_banks;
    }
    chains_ = std::make_unique<AnswerChains<L>>(rules_, throws_, out_.layout_, out_.answers_, horizon_, pads, answers,
                                                places);
  }

  TableWin solve() {
    const auto start = std::chrono::steady_clock::now();
    chains_->solve(keep_ ? &out_.answer_decisions_ : nullptr);
    const int seats = out_.seats_;
    out_.values_.assign(out_.tuples_ * seats * out_.layout_.stored(), 0.0);
    if (keep_) out_.decisions_.resize(out_.tuples_ * seats, throws_.kinds);
    const std::vector<std::vector<std::size_t>> sums = tuples_by_sum(seats, out_.units_);
    Progress progress(table_solve_label(out_.places_, seats, "score sums"), sums.size());
    tbb::enumerable_thread_specific<Scratch> scratches;
    for (std::size_t s = sums.size(); s-- > 0;) {
      const std::vector<std::size_t>& tuples = sums[s];
      std::vector<std::vector<std::uint16_t>> encoded(keep_ ? tuples.size() * seats : 0);
      tbb::parallel_for(std::size_t(0), tuples.size(), [&](std::size_t i) {
        solve_tuple(tuples[i], scratches.local(), keep_ ? &encoded[i * seats] : nullptr);
      });
      for (std::size_t i = 0; keep_ && i < tuples.size(); ++i)
        for (int m = 0; m < seats; ++m) {
          const std::vector<std::uint16_t>& runs = encoded[i * seats + m];
          out_.decisions_.store(state_of(m, tuples[i]), runs.data(), runs.size());
        }
      progress.advance();
    }
    std::vector<FoundMix> mixes;
    for (Scratch& scratch : scratches) {
      out_.stats.most_iterations = std::max(out_.stats.most_iterations, scratch.most_iterations);
      out_.stats.unsettled_tuples += scratch.unsettled;
      out_.stats.cycled_tuples += scratch.cycled;
      out_.stats.mixed_tuples += scratch.mixed;
      out_.stats.most_cycled_gain = std::max(out_.stats.most_cycled_gain, scratch.cycled_gain);
      std::move(scratch.mixes.begin(), scratch.mixes.end(), std::back_inserter(mixes));
    }
    keep_mixes(std::move(mixes));
    out_.stats.turn_starts = out_.tuples_ * seats;
    out_.stats.answers = chains_->solved();
    out_.stats.horizon = horizon_ - out_.units_;
    out_.stats.peak_bytes = peak_resident_bytes();
    if (keep_)
      out_.stats.decision_bytes = out_.decisions_.bytes() + out_.answer_decisions_.bytes() + out_.alternatives_.bytes();
    chains_.reset();
    out_.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return std::move(out_);
  }

 private:
  // The bust utilities over which a row's decisions, and those of every row
  // above it, stay the mover's best: (low, high].
  struct Interval {
    double low = -std::numeric_limits<double>::infinity(), high = std::numeric_limits<double>::infinity();
    bool holds(double u) const { return u > low && u <= high; }
  };

  // One mover's turn at the tuple being solved.
  struct Turn {
    int top = -1;             // rows 1..top decide; above, every landing banks
    double top_holds_to = 0;  // the highest bust utility for which `top` reaches far enough
    std::vector<V> bank;      // [t]: the value of banking at total t, where the turn may bank
    std::vector<V> land;      // [t][kind], t = 0..top + most points: the value of landing there
    std::vector<Interval> rows;
    std::vector<std::uint8_t> banks;  // [(t - 1) * kinds + kind]
    V value;                          // from a fresh hand: constant + handed * the next seat's value
  };

  // A seat's plan on its path where best replies cycled: its top, its
  // decisions, and its turn from a fresh hand.
  struct Plan {
    int top = 0;
    std::vector<std::uint8_t> banks;
    V value;
  };
  // Where a seat randomises between two plans: the other plan, encoded.
  struct FoundMix {
    std::size_t state = 0;
    double chance = 0;
    std::vector<std::uint16_t> runs;
  };

  struct Scratch {
    std::array<Turn, kMostTableWinSeats> turns;
    Turn path_turn, alternative;
    std::vector<V> go;
    int most_iterations = 0;
    std::uint64_t unsettled = 0, cycled = 0, mixed = 0;
    double cycled_gain = 0;
    std::vector<FoundMix> mixes;
  };

  std::size_t state_of(int mover, std::size_t tuple) const {
    int scores[kMostTableWinSeats] = {};
    decode_tuple(tuple, out_.seats_, out_.units_, scores);
    return out_.state(mover, scores);
  }

  void solve_tuple(std::size_t tuple, Scratch& w, std::vector<std::uint16_t>* encoded) {
    const int seats = out_.seats_;
    int scores[kMostTableWinSeats] = {};
    decode_tuple(tuple, seats, out_.units_, scores);
    std::array<V, kMostTableWinSeats> estimate = first_estimate(scores);
    CycleWatch<kMostTableWinSeats> watch(kMostPolicyRounds);
    int round = 0;
    bool settled = false;
    for (; watch.plays(round) && !settled; ++round) {
      bool changed = false;
      for (int m = 0; m < seats; ++m) {
        const double u = estimate[(m + 1) % seats].v[m];
        watch.see(round, m, u);
        changed |= solve_turn(m, scores, u, w.turns[m], w, round == 0);
      }
      estimate = close_cycle(w.turns);
      settled = round > 0 && !changed;
      if (!settled) watch.unsettled(round, [&] { return decisions_hash(w.turns); });
    }
    w.most_iterations = std::max(w.most_iterations, round);
    if (!settled && mix_tuple(tuple, scores, watch.watched(), w)) {
      settled = true;
      estimate = close_cycle(w.turns);
    }
    w.unsettled += !settled;
    const int stored = out_.layout_.stored();
    for (int m = 0; m < seats; ++m) {
      std::copy_n(estimate[m].v.begin(), stored, &out_.values_[out_.state(m, scores) * std::size_t(stored)]);
      if (encoded) DecisionRuns::encode(w.turns[m].banks.data(), w.turns[m].top, out_.kinds_, encoded[m]);
    }
  }

  static std::uint64_t decisions_hash(const std::array<Turn, kMostTableWinSeats>& turns) {
    std::uint64_t hash = RoundHistory::kEmpty;
    for (const Turn& turn : turns) {
      const std::uint8_t top[2] = {std::uint8_t(turn.top & 0xFF), std::uint8_t((turn.top >> 8) & 0xFF)};
      hash = RoundHistory::hash(RoundHistory::hash(hash, top, 2), turn.banks.data(), turn.banks.size());
    }
    return hash;
  }

  // The seat's utilities and bust coefficient of a turn, as the cycle
  // search (math/turn_cycle.h) takes them.
  TurnLottery<kMostTableWinSeats> lottery(const V& value) const {
    TurnLottery<kMostTableWinSeats> turn;
    for (int k = 0; k < out_.seats_; ++k) turn.constant[std::size_t(k)] = value.v[k];
    turn.bust = value.handed();
    return turn;
  }

  // Where a tuple's rounds cycled: each free seat's best plans as its bust
  // utility grows from 0 to 1 (a path), and a profile on the paths, pure
  // or mixed, at which no seat gains by another plan, searched first where
  // the rounds went, then over the whole paths. Sets the turns to it (a
  // mixing seat's turn is its two plans' values mixed; its other plan is
  // kept in w.mixes); false where none was found.
  bool mix_tuple(std::size_t tuple, int* scores,
                 const std::array<std::pair<double, double>, kMostTableWinSeats>& watched, Scratch& w) {
    const int seats = out_.seats_;
    std::array<TurnPath<kMostTableWinSeats>, kMostTableWinSeats> paths;
    std::array<std::vector<Plan>, kMostTableWinSeats> plans;
    // A seat's plans change thousands of times as u goes from 0 to 1 (at
    // 1,000 already): first only near where the rounds went, then the lot.
    const auto search = [&](double margin) -> std::optional<CycleEquilibrium<kMostTableWinSeats>> {
      for (int m = 0; m < seats; ++m) {
        if (fixed_[m]) {
          plans[m] = {Plan{w.turns[m].top, w.turns[m].banks, w.turns[m].value}};
          paths[m] = TurnPath<kMostTableWinSeats>{{lottery(w.turns[m].value)}, {}, 0, 1};
          continue;
        }
        const double from = std::max(0.0, watched[m].first - margin), to = std::min(1.0, watched[m].second + margin);
        plans[m] = best_plans(m, scores, from, to, w, paths[m]);
        if (plans[m].empty()) return std::nullopt;
      }
      return settle_cycle(paths, seats, watched);
    };
    constexpr double kNear = 0.01;
    auto found = search(kNear);
    if (!found) found = search(1);
    if (!found) return false;
    bool mixed = false;
    for (int m = 0; m < seats; ++m) {
      if (fixed_[m]) continue;
      const CyclePlay play = found->plays[m];
      const Plan& plan = plans[m][std::size_t(play.node)];
      Turn& turn = w.turns[m];
      turn.top = plan.top;
      turn.banks = plan.banks;
      turn.value = plan.value;
      if (play.toward_next == 0) continue;
      mixed = true;
      const Plan& other = plans[m][std::size_t(play.node) + 1];
      for (int i = 0; i < L; ++i) turn.value.v[i] += play.toward_next * (other.value.v[i] - plan.value.v[i]);
      if (keep_) {
        FoundMix mix{state_of(m, tuple), play.toward_next, {}};
        DecisionRuns::encode(other.banks.data(), other.top, out_.kinds_, mix.runs);
        w.mixes.push_back(std::move(mix));
      }
    }
    ++w.cycled;
    w.mixed += mixed;
    w.cycled_gain = std::max(w.cycled_gain, found->gain);
    return true;
  }

  // Seat m's best plans as its bust utility u grows from `from` to `to`:
  // the best at u, whose decisions (and top) stay best up to the lowest
  // bound of its rows' intervals; just past it, the next. Consecutive plans
  // of the same value are one node. Each threshold is where the two plans'
  // values for the seat meet (a row's bank and throw-on cross there).
  // Empty where the path takes more than kMostSolves solves of the turn (it
  // is not followed to its end: the tuple is then counted as not settled).
  std::vector<Plan> best_plans(int m, int* scores, double from, double to, Scratch& w,
                               TurnPath<kMostTableWinSeats>& path) {
    path = TurnPath<kMostTableWinSeats>{{}, {}, from, to};
    std::vector<Plan> plans;
    constexpr int kMostSolves = 100000;
    Turn& turn = w.path_turn;
    double crossing = from;  // where the last plan stopped being best
    int solves = 0;
    for (double u = from;;) {
      if (++solves > kMostSolves) return {};
      solve_turn(m, scores, u, turn, w, true);
      const bool same = !plans.empty() && plans.back().value.v == turn.value.v;
      if (!same) {
        if (!plans.empty()) path.thresholds.push_back(crossing);
        plans.push_back(Plan{turn.top, turn.banks, turn.value});
        path.nodes.push_back(lottery(turn.value));
      }
      const double holds_to = std::min(turn.top >= 1 ? turn.rows[1].high : kNoEnd, turn.top_holds_to);
      if (!(holds_to < to)) break;
      crossing = std::max(holds_to, u);
      u = std::nextafter(crossing, 2.0);
    }
    return plans;
  }
  static constexpr double kNoEnd = std::numeric_limits<double>::infinity();

  // The mixes found, by state, with their other plans.
  void keep_mixes(std::vector<FoundMix> mixes) {
    std::sort(mixes.begin(), mixes.end(), [](const FoundMix& a, const FoundMix& b) { return a.state < b.state; });
    out_.alternatives_.resize(mixes.size(), throws_.kinds);
    for (std::size_t i = 0; i < mixes.size(); ++i) {
      out_.mixes_.push_back({mixes[i].state, mixes[i].chance});
      out_.alternatives_.store(i, mixes[i].runs.data(), mixes[i].runs.size());
    }
  }

  // Where policy iteration starts: the solved values of the tuple one unit
  // up in the first seat that has room (solved already: a higher sum),
  // which most decisions share; zero at the last tuple.
  std::array<V, kMostTableWinSeats> first_estimate(int* scores) const {
    std::array<V, kMostTableWinSeats> estimate{};
    const int seats = out_.seats_, stored = out_.layout_.stored();
    for (int j = 0; j < seats; ++j) {
      if (scores[j] + 1 >= out_.units_) continue;
      ++scores[j];
      for (int m = 0; m < seats; ++m)
        std::copy_n(&out_.values_[out_.state(m, scores) * std::size_t(stored)], stored, estimate[m].v.begin());
      --scores[j];
      break;
    }
    return estimate;
  }

  // Each seat's lanes at every turn start of the tuple (math/turn_cycle.h):
  // a turn's lanes but the last are its lottery's, the last its bust.
  std::array<V, kMostTableWinSeats> close_cycle(const std::array<Turn, kMostTableWinSeats>& turns) const {
    std::array<TurnLottery<L - 1>, kMostTableWinSeats> lotteries{};
    for (int m = 0; m < out_.seats_; ++m) {
      std::copy_n(turns[m].value.v.begin(), L - 1, lotteries[m].constant.begin());
      lotteries[m].bust = turns[m].value.handed();
    }
    const CycleValues<kMostTableWinSeats, L - 1> closed = close_turn_cycle(lotteries, out_.seats_);
    std::array<V, kMostTableWinSeats> value{};
    for (int m = 0; m < out_.seats_; ++m) std::copy_n(closed[m].begin(), L - 1, value[m].v.begin());
    return value;
  }

  // The value of banking at total t: the next seat's turn at the new scores,
  // or the answers to a reached score.
  V bank_value(int m, int* scores, int t, const typename AnswerChains<L>::Reached& reached) const {
    const int own = scores[m];
    if (own + t >= out_.units_) return reached.at(own + t);
    scores[m] = own + t;
    const std::size_t at = out_.state((m + 1) % out_.seats_, scores) * std::size_t(out_.layout_.stored());
    scores[m] = own;
    V next;
    std::copy_n(&out_.values_[at], out_.layout_.stored(), next.v.begin());
    return next;
  }

  int bank_minimum(int own) const { return units_up(rules_.bank_minimum_at(own * kPoint)); }

  // The highest total a seat may throw on from, and up to which bust
  // utility that holds: reaching the target, or (with answerers after it)
  // while padding might pay. Padding risks at least the fewest busts of a
  // throw, dropping the bank value to the bust value u, and gains at most
  // the answerers' chance to beat the score: once that chance is below half
  // the risk, banking is best (and stays best above, where it only shrinks).
  // A top higher than that bound asks is still exact (its rows bank).
  std::pair<int, double> top_total(int m, int* scores, double u, const typename AnswerChains<L>::Reached& reached,
                                   const FixedSeat::Alternative* plan) const {
    constexpr double kAlways = std::numeric_limits<double>::infinity();
    const int own = scores[m], units = out_.units_;
    if (rules_.exact_target) return {units - own, kAlways};
    const int least = std::max(units - own, bank_minimum(own));
    if (plan) return {std::max(least, plan->top), kAlways};
    if (fixed_[m]) return {fixed_[m]->top ? std::max(least, fixed_[m]->top(m, scores)) : least, kAlways};
    if (out_.answers_.answerers(m).empty() || rules_.bank_at_target) return {least, kAlways};
    const double fewest = throws_.fewest_busts;
    const double bound = 0.5 * fewest * (1 - u);
    int score = own + least;
    double beaten = 1 - reached.at(score + 1).v[m];
    while (score < horizon_ && beaten > bound) beaten = 1 - reached.at(++score + 1).v[m];
    // The same top serves while beaten <= 0.5 * fewest * (1 - u).
    if (score >= horizon_ || fewest <= 0) return {score - own, kAlways};
    // (never below u itself, which rounding could otherwise give: the top
    // would be found again every round and the tuple never settle)
    return {score - own, std::max(u, 1 - beaten / (0.5 * fewest))};
  }

  // Seat m's turn with the next seat's utility for m at these scores taken
  // as u: its best reply (or its fixed play). Rows are kept from the round
  // before from the top down while u stays inside their intervals. Returns
  // whether any decision changed. A fixed seat that randomises here plays
  // its other plan (`plan`) with its chance: its value is the two mixed.
  bool solve_turn(int m, int* scores, double u, Turn& turn, Scratch& w, bool fresh,
                  const FixedSeat::Alternative* plan = nullptr) {
    if (!fresh && fixed_[m]) return false;  // a fixed seat's rows do not depend on u
    const int kinds = throws_.kinds, states = throws_.states, own = scores[m];
    int start = turn.top;
    bool changed = false;
    if (fresh || u > turn.top_holds_to) {
      const typename AnswerChains<L>::Reached reached = chains_->reached_by(m, scores);
      std::tie(turn.top, turn.top_holds_to) = top_total(m, scores, u, reached, plan);
      start = turn.top;
      changed = true;
      set_banks(m, scores, turn, reached);
      turn.rows.assign(std::size_t(turn.top) + 1, Interval{});
      turn.banks.assign(std::size_t(turn.top) * kinds, 0);
      if (plan)
        plan->decide(turn.top, turn.banks.data());
      else if (fixed_[m])
        fixed_decisions(m, scores, turn);
    } else {
      while (start >= 1 && turn.rows[start].holds(u)) --start;
      if (start == 0) return false;  // every decision stands: so does the value
    }
    const int top = turn.top, minimum = bank_minimum(own);
    w.go.resize(std::size_t(states));
    for (int t = start; t >= 0; --t) {
      throw_row(&turn.land[std::size_t(t) * kinds], arrays_, w.go.data());
      if (t == 0) break;
      Interval interval = t == top ? Interval{} : turn.rows[t + 1];
      const bool hits = rules_.exact_target && own + t == out_.units_;
      const bool may_bank = hits || t >= minimum;
      const bool must = rules_.bank_at_target && own + t >= out_.units_;  // the house rule: no padding
      const V& bank = turn.bank[t];
      V* row = &turn.land[std::size_t(t) * kinds];
      std::uint8_t* banks = &turn.banks[std::size_t(t - 1) * kinds];
      for (int kind = 0; kind < kinds; ++kind) {
        const V& on = w.go[throws_.from(kind)];
        bool bank_it = false;
        if (!may_bank) {
          bank_it = false;
        } else if (must) {
          bank_it = true;
        } else if (fixed_[m]) {
          bank_it = banks[kind] != 0;
        } else {
          // Banking is best while u <= (bank - on) / handed (bank hands nothing over).
          const double gap = bank.v[m] - on.v[m];
          bank_it = gap >= on.handed() * u;
          if (on.handed() > 0) {
            const double cross = gap / on.handed();
            if (bank_it)
              interval.high = std::min(interval.high, cross);
            else
              interval.low = std::max(interval.low, cross);
          }
          changed |= (banks[kind] != 0) != bank_it;
        }
        row[kind] = bank_it ? bank : on;
        banks[kind] = bank_it;
      }
      turn.rows[t] = interval;
    }
    turn.value = w.go[throws_.full_hand];
    if (!plan && fixed_[m] && fixed_[m]->alternative)
      if (const std::optional<FixedSeat::Alternative> other = fixed_[m]->alternative(m, scores)) {
        solve_turn(m, scores, u, w.alternative, w, true, &*other);
        for (int i = 0; i < L; ++i) turn.value.v[i] += other->chance * (w.alternative.value.v[i] - turn.value.v[i]);
      }
    return changed;
  }

  // The value of banking at every total the turn may bank at, read once a
  // tuple (the same every round); past the top every landing banks (past
  // an exact target it busts).
  void set_banks(int m, int* scores, Turn& turn, const typename AnswerChains<L>::Reached& reached) const {
    const int kinds = throws_.kinds, top = turn.top, own = scores[m], minimum = bank_minimum(own);
    turn.bank.assign(std::size_t(top + throws_.most_points + 1), V{});
    for (int t = 1; t <= top; ++t)
      if (t >= minimum || (rules_.exact_target && own + t == out_.units_))
        turn.bank[t] = bank_value(m, scores, t, reached);
    V bust;
    bust.v[L - 1] = 1;
    turn.land.resize(std::size_t(top + throws_.most_points + 1) * kinds);
    for (int t = top + 1; t <= top + throws_.most_points; ++t) {
      turn.bank[t] = rules_.exact_target ? bust : bank_value(m, scores, t, reached);
      std::fill_n(&turn.land[std::size_t(t) * kinds], kinds, turn.bank[t]);
    }
  }

  void fixed_decisions(int m, const int* scores, Turn& turn) const {
    const FixedSeat& seat = *fixed_[m];
    if (seat.decide_turn) return seat.decide_turn(m, scores, turn.top, turn.banks.data());
    for (int t = 1; t <= turn.top; ++t)
      for (int kind = 0; kind < throws_.kinds; ++kind)
        turn.banks[std::size_t(t - 1) * throws_.kinds + kind] = seat.banks(m, scores, t, kind);
  }

  Rules rules_;
  TableThrows throws_;
  ThrowArrays arrays_ = throws_.arrays();
  std::vector<std::optional<FixedSeat>> fixed_;
  bool keep_;
  int horizon_ = 0;
  TableWin out_;
  std::unique_ptr<AnswerChains<L>> chains_;
};

TableWin solve_table_win(const Scoring& scoring, int seats, const std::vector<std::optional<FixedSeat>>& fixed,
                         bool keep_decisions) {
  if (const auto why = table_win_refusal(scoring.rules(), seats, keep_decisions)) throw InputError(*why);
  const bool any_fixed = std::any_of(fixed.begin(), fixed.end(), [](const auto& seat) { return seat.has_value(); });
  if (!any_fixed)
    charge_table_win(scoring.rules(), seats, keep_decisions,
                     "10,000's win-optimal table of " + std::to_string(seats) + " seats");
  return with_lane_width(layout_of(scoring.rules(), seats), [&](auto width) {
    return TableWinSolver<decltype(width)::value>(scoring, seats, fixed, keep_decisions).solve();
  });
}

TablePlaceOdds solve_table_places(const Scoring& scoring, const std::vector<FixedSeat>& fixed, const int* start) {
  constexpr int kSeats = 3;  // the answers' chances rank every seat only at three (AnswerChains)
  if (fixed.size() != std::size_t(kSeats))
    throw std::logic_error("tenk: places are solved at tables of three, not " + std::to_string(fixed.size()));
  if (const auto why = table_win_refusal(scoring.rules(), kSeats)) throw InputError(*why);
  const HeldCharge held(table_win_bytes(scoring.rules(), kSeats), "the place solve of a table of three");
  const std::vector<std::optional<FixedSeat>> seats(fixed.begin(), fixed.end());
  const TableWin table = with_lane_width(layout_of(scoring.rules(), kSeats), [&](auto width) {
    return TableWinSolver<decltype(width)::value>(scoring, kSeats, seats, false, true).solve();
  });
  return table.places(0, start);
}

}  // namespace dicesim::tenk
