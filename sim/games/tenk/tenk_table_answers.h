// The answers to a reached score in the table solve (tenk_table_win.h):
// for every reacher, answer i of its answerers and the scores of answerers
// i.., that answer's turn solved for every best score it may face. Answer
// i's values against the best score B: gain[B] (the paths on which it beats
// B) + fail[B] * the values of answer i + 1 against the same best and holder
// (it busts before or after passing B: padding may bust too).
//
// The answers of one answerer depend only on those after it, so they are
// solved before the race, last answerers first, each group in parallel; the
// race then only reads them. Once the race is solved they are dropped: play
// keeps only their decisions (DecisionRuns).
//
// A place solve (solve_table_places, three seats) solves the same answers
// and reads who finishes last from them: answer i's win lanes say which
// seat ends holding the best, so the chances of each answerer beating or
// failing in turn, and with the scores the others banked every seat's
// place, follow at the reach.
#pragma once

#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/progress.h"
#include "games/tenk/tenk_decision_runs.h"
#include "games/tenk/tenk_table_lanes.h"
#include "games/tenk/tenk_table_throws.h"
#include "games/tenk/tenk_table_win.h"

namespace dicesim::tenk {

template <int L>
class AnswerChains {
 public:
  using V = Lanes<L>;

  AnswerChains(const Rules& rules, const TableThrows& throws, const LaneLayout& layout, const AnswerIndex& index,
               int horizon, std::vector<bool> pads, std::vector<AnswerDecision> fixed, bool places = false)
      : rules_(rules),
        throws_(throws),
        layout_(layout),
        index_(index),
        units_(rules.target / kPoint),
        horizon_(horizon),
        pads_(std::move(pads)),
        fixed_(std::move(fixed)),
        places_(places) {
    // places_at ranks every seat from who ends holding the best: enough at three seats only.
    if (places_ && layout_.seats != 3) throw std::logic_error("tenk: places are solved at tables of three");
  }

  // Solves every answer (none under IV.3, where an answer only hits the
  // target or not); their decisions into `runs` where given.
  void solve(DecisionRuns* runs) {
    if (rules_.exact_target) return;
    span_ = std::size_t(horizon_ - units_);
    gains_.assign(index_.count() * span_, V{});
    if (runs) runs->resize(index_.count(), throws_.kinds);
    constexpr std::size_t kChunk = 256;
    std::uint64_t chunks = 0;
    for (int r = 0; r < layout_.seats; ++r)
      for (std::size_t i = 0; i < index_.answerers(r).size(); ++i)
        chunks += (index_.size(r, int(i)) + kChunk - 1) / kChunk;
    Progress progress(table_solve_label(places_, layout_.seats, "answer turns"), chunks);
    tbb::enumerable_thread_specific<Scratch> scratches;
    for (int r = 0; r < layout_.seats; ++r)
      for (int i = int(index_.answerers(r).size()); i-- > 0;) {
        const std::size_t count = index_.size(r, i);
        for (std::size_t from = 0; from < count; from += kChunk) {
          const std::size_t to = std::min(count, from + kChunk);
          std::vector<std::vector<std::uint16_t>> encoded(runs ? to - from : 0);
          tbb::parallel_for(from, to, [&](std::size_t n) {
            Scratch& scratch = scratches.local();
            int scores[kMostTableWinSeats] = {};
            index_.scores_of(r, i, n, scores);
            solve_one(r, i, scores, scratch, runs ? &encoded[n - from] : nullptr);
          });
          for (std::size_t n = from; runs && n < to; ++n)
            runs->store(index_.first(r, i) + n, encoded[n - from].data(), encoded[n - from].size());
          progress.advance();
        }
        solved_ += count;
      }
  }

  std::uint64_t solved() const { return solved_; }

  // Every seat's odds (or places) once `reacher` banks a score at the
  // target or past it, the others at `scores`, at any best score: the
  // answers looked up once.
  class Reached {
   public:
    V at(int best) const {
      if (exact_) return exact_odds_;
      if (places_) return places_at(best);
      return best < horizon_ ? fold(gains_.data(), count_, std::size_t(best - units_), won_) : won_;
    }

   private:
    friend class AnswerChains;
    // Three seats: each way the (at most two) answerers beat or fail in
    // turn, its chance, and every seat's place once it has happened.
    V places_at(int best) const {
      const bool beyond = best >= horizon_;
      const std::size_t at = std::size_t(best - units_);
      // The chance answerer j beats the best it faces (the reacher's) and
      // `holder` ends holding it.
      const auto ends = [&](int j, int holder) {
        return beyond ? 0.0 : gains_[std::size_t(j)][at].v[layout_.win(holder)];
      };
      const double fails0 = count_ > 0 && !beyond ? gains_[0][at].handed() : 1;
      V odds;
      int finals[kMostTableWinSeats];
      for (unsigned beat = 0; beat < (1u << count_); ++beat) {
        double p = 1;
        if (count_ == 1) p = beat ? ends(0, order_[0]) : fails0;
        if (count_ == 2) {
          const double fails1 = beyond ? 1 : gains_[1][at].handed();
          static constexpr int kFailFail = 0, kBeatFail = 1, kFailBeat = 2;
          p = beat == kFailFail   ? fails0 * fails1
              : beat == kBeatFail ? ends(0, order_[0])
              : beat == kFailBeat ? fails0 * ends(1, order_[1])
                                  : ends(0, order_[1]);  // both beat: answer 0's paths that answer 1 then beats
        }
        if (p == 0) continue;
        // The reacher's score is below every later beat and above every
        // score banked short of the target.
        std::copy_n(scores_.begin(), layout_.seats, finals);
        finals[reacher_] = units_;
        for (int j = 0, raised = 0; j < count_; ++j)
          if (beat >> j & 1) finals[order_[std::size_t(j)]] = units_ + ++raised;
        add_ending(layout_, true, finals, p, odds);
      }
      return odds;
    }

    std::array<const V*, kMostTableWinSeats> gains_{};
    int count_ = 0, units_ = 0, horizon_ = 0;
    bool exact_ = false, places_ = false;
    V won_, exact_odds_;
    // With places: the reacher, the answerers in order and every seat's banked score.
    LaneLayout layout_;
    int reacher_ = 0;
    std::array<int, kMostTableWinSeats> order_{}, scores_{};
  };
  Reached reached_by(int reacher, const int* scores) const {
    Reached r;
    r.exact_ = rules_.exact_target;
    if (r.exact_) {
      r.exact_odds_ = exact_answers(reacher, scores);
      return r;
    }
    r.count_ = static_cast<int>(index_.answerers(reacher).size());
    for (int i = 0; i < r.count_; ++i) r.gains_[i] = &gains_[index_.index(reacher, i, scores) * span_];
    r.units_ = units_, r.horizon_ = horizon_;
    r.won_ = layout_.won_by<L>(reacher);
    if (places_) {
      r.places_ = true;
      r.layout_ = layout_;
      r.reacher_ = reacher;
      std::copy(index_.answerers(reacher).begin(), index_.answerers(reacher).end(), r.order_.begin());
      std::copy_n(scores, layout_.seats, r.scores_.begin());
    }
    return r;
  }

  // Adds a game's end at these final scores (units), at chance p, to
  // `odds`: in a win solve the best score's seats share its utility (a
  // seat alone there also wins); in a place solve a seat below every other
  // finishes last and, where ties can happen, one below none first.
  static void add_ending(const LaneLayout& layout, bool places, const int* finals, double p, V& odds) {
    const int n = layout.seats;
    const int best = *std::max_element(finals, finals + n);
    const int tied = static_cast<int>(std::count(finals, finals + n, best));
    for (int k = 0; k < n; ++k) {
      const int above = static_cast<int>(std::count_if(finals, finals + n, [&](int f) { return f > finals[k]; }));
      if (places) {
        if (above == n - 1) odds.v[layout.last(k)] += p;
        if (layout.ties && above == 0) odds.v[layout.first(k)] += p;
      } else if (above == 0) {
        if (tied == 1 && layout.win(k) != k) odds.v[layout.win(k)] += p;
        odds.v[k] += p / tied;
      }
    }
  }

 private:
  struct Scratch {
    std::vector<V> rows, go;
    std::vector<double> land, at;
    std::vector<std::uint8_t> banks;
  };

  // The odds once answers i.. of `reacher` have played against `best`,
  // `holder` holding it.
  V chain(int reacher, int i, int best, int holder, const int* scores) const {
    const V won = layout_.won_by<L>(holder);
    if (best >= horizon_) return won;
    std::array<const V*, kMostTableWinSeats> answers{};
    const int count = int(index_.answerers(reacher).size()) - i;
    for (int j = 0; j < count; ++j) answers[std::size_t(j)] = &gains_[index_.index(reacher, i + j, scores) * span_];
    return fold(answers.data(), count, std::size_t(best - units_), won);
  }

  // Answers answers[0..count) in turn against the best score `at` units past
  // the target: each one's gain, and its failure carried to the next; where
  // all fail, `won`.
  static V fold(const V* const* answers, int count, std::size_t at, const V& won) {
    V odds;
    double carry = 1;
    for (int j = 0; j < count; ++j) {
      const V& a = answers[j][at];
      odds.add(a.without_handed(), carry);
      carry *= a.handed();
    }
    odds.add(won, carry);
    return odds;
  }

  // IV.3: every answerer that hits the target exactly ties the reacher;
  // the others keep the scores they banked.
  V exact_answers(int reacher, const int* scores) const {
    const std::vector<int>& order = index_.answerers(reacher);
    std::vector<double> hit;
    for (int s : order) hit.push_back(throws_.reach->fresh(units_ - scores[s]));
    V odds;
    int finals[kMostTableWinSeats];
    for (unsigned mask = 0; mask < (1u << order.size()); ++mask) {
      double p = 1;
      std::copy_n(scores, layout_.seats, finals);
      finals[reacher] = units_;
      for (std::size_t j = 0; j < order.size(); ++j)
        if (mask >> j & 1)
          p *= hit[j], finals[order[j]] = units_;
        else
          p *= 1 - hit[j];
      add_ending(layout_, places_, finals, p, odds);
    }
    return odds;
  }

  // Answer i's turn, its score x: rows[t][kind] are its values after landing
  // at total t with banking allowed once past the target (the values past a
  // best score B do not depend on B), go[t][state] those of throwing on.
  void solve_one(int reacher, int i, const int* scores, Scratch& w, std::vector<std::uint16_t>* encoded) {
    const int seat = index_.answerers(reacher)[std::size_t(i)], x = scores[seat];
    const int kinds = throws_.kinds, states = throws_.states;
    const int top = horizon_ - x, rows_top = top + throws_.most_points;
    const int minimum = (rules_.bank_minimum_at(x * kPoint) + kPoint - 1) / kPoint;
    w.rows.assign(std::size_t(rows_top + 1) * kinds, V{});
    w.go.assign(std::size_t(top + 1) * states, V{});
    if (encoded) w.banks.assign(std::size_t(top) * kinds, 0);
    const V won = layout_.won_by<L>(seat);
    for (int t = rows_top; t > top; --t) std::fill_n(&w.rows[std::size_t(t) * kinds], kinds, won);
    for (int t = top; t >= 0; --t) {
      V* go = &w.go[std::size_t(t) * states];
      throw_row(&w.rows[std::size_t(t) * kinds], throws_.arrays(), go);
      if (t == 0) break;
      const bool may_bank = x + t > units_ && t >= minimum;
      const V bank = may_bank ? chain(reacher, i + 1, x + t, seat, scores) : V{};
      V* row = &w.rows[std::size_t(t) * kinds];
      for (int kind = 0; kind < kinds; ++kind) {
        const V& on = go[throws_.from(kind)];
        bool banks = may_bank && (!pads_[seat] || bank.v[seat] >= on.v[seat]);
        if (may_bank && fixed_[seat]) banks = fixed_[seat](reacher, scores, i, t, kind);
        row[kind] = banks ? bank : on;
        if (encoded) w.banks[std::size_t(t - 1) * kinds + kind] = banks;
      }
    }
    follow_crossings(x, top, w, &gains_[index_.index(reacher, i, scores) * span_]);
    if (encoded) DecisionRuns::encode(w.banks.data(), top, kinds, *encoded);
  }

  // gain[B] and fail[B] for every best score B: the turn throws on while
  // its score is at most B. The chance of landing at each (total, kind)
  // throwing on throughout does not depend on B; moving B up by one takes
  // the paths that land at x + B + 1 from "beyond" to "still throwing".
  void follow_crossings(int x, int top, Scratch& w, V* gain_out) const {
    const int kinds = throws_.kinds, states = throws_.states;
    w.land.assign(std::size_t(top + 1) * kinds, 0.0);
    w.at.assign(std::size_t(top + 1) * states, 0.0);
    w.at[std::size_t(throws_.full_hand)] = 1;  // total 0, a full hand
    for (int t = 0; t < top; ++t)
      for (int s = 0; s < states; ++s) {
        const double here = w.at[std::size_t(t) * states + s];
        if (here == 0) continue;
        for (int o = throws_.first[s]; o < throws_.first[s + 1]; ++o)
          if (const int to = t + throws_.points[o]; to <= top) {
            const double p = here * throws_.probability[o];
            w.land[std::size_t(to) * kinds + throws_.landing[o]] += p;
            w.at[std::size_t(to) * states + throws_.from(throws_.landing[o])] += p;
          }
      }
    V gain = w.go[std::size_t(throws_.full_hand)];
    for (int d = 0; d < top; ++d) {
      if (x + d >= units_) gain_out[x + d - units_] = gain;
      const int t = d + 1;
      for (int kind = 0; kind < kinds; ++kind)
        gain.add(w.rows[std::size_t(t) * kinds + kind], -w.land[std::size_t(t) * kinds + kind]);
      for (int s = 0; s < states; ++s) gain.add(w.go[std::size_t(t) * states + s], w.at[std::size_t(t) * states + s]);
    }
  }

  const Rules& rules_;
  const TableThrows& throws_;
  LaneLayout layout_;
  const AnswerIndex& index_;
  int units_, horizon_;
  std::vector<bool> pads_;             // per seat: answers win-optimally
  std::vector<AnswerDecision> fixed_;  // per seat: its fixed answers, where set
  bool places_;                        // reached odds as places (a place solve)
  std::size_t span_ = 0;
  std::vector<V> gains_;  // [answer][best - units]: the gain, the fail chance in the handed lane
  std::uint64_t solved_ = 0;
};

}  // namespace dicesim::tenk
