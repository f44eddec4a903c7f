#include "games/tenk/tenk_win.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <stdexcept>
#include <tuple>

namespace dicesim::tenk {
namespace {

int units_up(int points) { return (points + kPoint - 1) / kPoint; }

// Where chasing a score further than this many units has a chance below
// kNegligible, the first seat stops padding: the error is below it.
constexpr double kNegligible = 1e-16;
constexpr int kPolicyIterations = 12;

}  // namespace

std::vector<ThrowOutcomes> throw_outcomes(const Scoring& scoring) {
  const Rules& rules = scoring.rules();
  std::vector<ThrowOutcomes> all(49);
  for (int dice = 1; dice <= rules.dice; ++dice)
    for (int pending = 0; pending < rules.pending_faces(); ++pending) {
      if (!rules.reachable(dice, pending)) continue;
      ThrowOutcomes& out = all[dice * 7 + pending];
      std::map<std::vector<std::tuple<int, int, int, bool>>, int> group_of;
      for (int i = 0; i < scoring.multisets(dice); ++i) {
        const double p = scoring.probability(dice, i);
        const int count = scoring.move_count(dice, pending, i);
        if (count == 0) {
          out.bust += p;
          continue;
        }
        std::vector<std::tuple<int, int, int, bool>> options;
        for (int m = 0; m < count; ++m) {
          const Step step = scoring.step(dice, scoring.moves(dice, pending, i)[m]);
          options.emplace_back(step_points(step) / kPoint, step_dice(step), step_pending(step), step_hot(step));
        }
        std::sort(options.begin(), options.end());
        options.erase(std::unique(options.begin(), options.end()), options.end());
        const auto [it, fresh] = group_of.try_emplace(options, static_cast<int>(out.groups.size()));
        if (fresh) {
          out.groups.push_back({0, static_cast<int>(out.options.size()), static_cast<int>(options.size())});
          for (const auto& [points, next, next_pending, hot] : options)
            out.options.push_back({points, next, next_pending, hot});
        }
        out.groups[it->second].probability += p;
      }
    }
  return all;
}

ReachTable::ReachTable(const Rules& rules, const std::vector<ThrowOutcomes>& throws, int most, bool exact)
    : rules_(rules), most_(most), reach_(std::size_t(most + 1) * 49, 0.0) {
  const auto after = [&](int need, const ThrowOption& o) {
    const int left = need - o.points;
    if (exact) return left == 0 ? 1.0 : left < 0 ? 0.0 : reach_[(std::size_t(left) * 7 + o.dice) * 7 + o.pending];
    if (left <= 0 && !(o.hot && rules.no_stop_on_hot_dice)) return 1.0;
    return reach_[(std::size_t(std::max(left, 0)) * 7 + o.dice) * 7 + o.pending];
  };
  const auto sweep = [&](int need) {
    double change = 0;
    for (int dice = 1; dice <= rules.dice; ++dice)
      for (int pending = 0; pending < rules.pending_faces(); ++pending) {
        if (!rules.reachable(dice, pending)) continue;
        const ThrowOutcomes& t = throws[dice * 7 + pending];
        double sum = 0;
        for (const ThrowGroup& g : t.groups) {
          double best = 0;
          for (int k = g.first; k < g.first + g.count; ++k) best = std::max(best, after(need, t.options[k]));
          sum += g.probability * best;
        }
        double& slot = reach_[(std::size_t(need) * 7 + dice) * 7 + pending];
        change = std::max(change, std::abs(sum - slot));
        slot = sum;
      }
    return change;
  };
  // need 0 (one more allowed stop) refers to itself through hot dice under
  // IV.1: iterate, it contracts by the chance of hot dice. Larger needs only
  // refer to smaller ones.
  if (!exact)
    for (int i = 0; i < 10000 && sweep(0) > 0; ++i) {
    }
  for (int need = 1; need <= most; ++need) sweep(need);
}

WinSolution::WinSolution(const Rules& rules)
    : units_(rules.target / kPoint), values_(std::size_t(2) * units_ * units_) {}

namespace {

// A turn's value under a fixed policy, linear in what a bust hands over:
// (win, tie) + bust * (the mover's win and tie after a bust).
struct Handed {
  int total = 0, dice = 0, pending = kNoPending;  // a banked position (IV.5)
};

struct Linear {
  double win = 0, tie = 0, bust = 0;
  double utility(double bust_utility) const { return win + tie / 2 + bust * bust_utility; }
  void add(double p, const Linear& v) { win += p * v.win, tie += p * v.tie, bust += p * v.bust; }
  bool operator==(const Linear&) const = default;
};

// The values of decisions stay optimal while the bust value's utility
// stays inside [low, high]: then a second pass would find the same policy.
struct Stability {
  double low = -1, high = 2;
  // A choice of `chosen` over `other` made at bust utility u.
  void keep(const Linear& chosen, const Linear& other) {
    const double slope = chosen.bust - other.bust;
    if (slope == 0) return;
    const double cross = (other.win + other.tie / 2 - chosen.win - chosen.tie / 2) / slope;
    if (slope > 0)
      low = std::max(low, cross);
    else
      high = std::min(high, cross);
  }
  bool holds(double u) const { return u >= low && u <= high; }
};

class Solver {
 public:
  explicit Solver(const Scoring& scoring)
      : rules_(scoring.rules()), throws_(throw_outcomes(scoring)), solution_(rules_), units_(solution_.units()) {
    if (rules_.target % kPoint != 0) throw std::invalid_argument("the target is not a multiple of 50");
    index_states();
    pads_ = !rules_.exact_target;
    if (pads_) {
      // How far padding can matter: a chase of more than reach_span_ units
      // succeeds with a chance below kNegligible.
      const ReachTable probe(rules_, throws_, units_ + 4000, false);
      reach_span_ = probe.most();
      for (int need = 1; need <= probe.most(); ++need)
        if (probe.fresh(need) < kNegligible) {
          reach_span_ = need;
          break;
        }
    }
    if (rules_.continue_previous) {
      handed_offset_.resize(std::size_t(2) * units_ * units_);
      std::size_t next = 0;
      for (std::size_t state = 0; state < handed_offset_.size(); ++state) {
        handed_offset_[state] = next;
        next += std::size_t(state % units_) * dps_.size();  // totals 1..theirs
      }
      handed_values_.resize(next);
    }
    reach_ = std::make_unique<ReachTable>(rules_, throws_, units_ + reach_span_ + 2, rules_.exact_target);
    stop_ = std::make_unique<ReachTable>(rules_, throws_, 0, false);
  }

  WinSolution solve() {
    const auto start = std::chrono::steady_clock::now();
    for (int sum = 2 * (units_ - 1); sum >= 0; --sum)
      for (int a = std::min(sum, units_ - 1); a >= 0 && sum - a < units_; --a) solve_pair(a, sum - a);
    solution_.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return std::move(solution_);
  }

 private:
  // Dense numbering of the (dice, pending) states a throw starts from, and of
  // the ways a throw lands: (dice, pending) for the next throw, or hot dice
  // (a full hand, which IV.1 forbids banking on).
  void index_states() {
    dp_of_.fill(-1);
    for (int dice = 1; dice <= rules_.dice; ++dice)
      for (int pending = 0; pending < rules_.pending_faces(); ++pending)
        if (rules_.reachable(dice, pending)) {
          dp_of_[dice * 7 + pending] = static_cast<int>(dps_.size());
          dps_.push_back(dice * 7 + pending);
        }
    kinds_ = static_cast<int>(dps_.size()) + 1;  // the last: hot dice
    full_hand_ = dp_of_[rules_.dice * 7 + kNoPending];
    hot_kind_ = kinds_ - 1;
    bust_.resize(dps_.size());
    first_group_.assign(1, 0);
    for (std::size_t s = 0; s < dps_.size(); ++s) {
      const ThrowOutcomes& t = throws_[dps_[s]];
      bust_[s] = t.bust;
      fewest_busts_ = std::min(fewest_busts_, t.bust);
      for (const ThrowGroup& g : t.groups) {
        group_probability_.push_back(g.probability);
        first_option_.push_back(static_cast<int>(option_offset_.size()));
        for (int k = g.first; k < g.first + g.count; ++k) {
          const ThrowOption& o = t.options[k];
          const int kind = o.hot ? hot_kind_ : dp_of_[o.dice * 7 + o.pending];
          option_offset_.push_back(o.points * kinds_ + kind);
          option_kind_.push_back(kind);
          most_points_ = std::max(most_points_, o.points);
        }
      }
      first_group_.push_back(static_cast<int>(group_probability_.size()));
    }
    first_option_.push_back(static_cast<int>(option_offset_.size()));
  }

  int bank_minimum(int banked) const { return units_up(rules_.bank_minimum_at(banked * kPoint)); }
  // Whether the values past the top total need the fixed point of
  // land_above_top (else they are the bank values).
  bool stationary() const { return rules_.no_stop_on_hot_dice || rules_.continue_previous; }
  bool reached(int score) const { return rules_.exact_target ? score == units_ : score >= units_; }
  // The other seat answers a reached target in the same round: seat 0 always
  // (seat 1 plays after it), seat 1 only with last turns.
  bool answered(int seat) const { return seat == 0 || rules_.last_turn; }
  // The chance that the other seat, at `theirs`, answers a reached score
  // in its last turn: from a fresh hand, or (IV.5) taking over the banked
  // position `handed` (total, dice, pending) where that does better.
  double chase(int theirs, int score, const Handed& handed) const {
    const int need = std::max(score - theirs + 1, bank_minimum(theirs));
    double chance = reach_->fresh(need);
    if (rules_.continue_previous)
      chance = std::max(chance, reach_->at(need - handed.total, handed.dice, handed.pending));
    return chance;
  }
  double exact_hit(int theirs, const Handed& handed) const {
    const int need = units_ - theirs;
    double chance = reach_->fresh(need);
    if (rules_.continue_previous && need > handed.total)
      chance = std::max(chance, reach_->at(need - handed.total, handed.dice, handed.pending));
    return chance;
  }

  // The mover's (win, tie) after banking a final score `score` that reaches
  // the target, the other seat at `theirs`.
  Linear reached_value(int seat, int theirs, int score, const Handed& handed) const {
    if (!answered(seat)) return {1, 0, 0};
    if (rules_.exact_target) {
      const double hit = exact_hit(theirs, handed);
      return {1 - hit, hit, 0};
    }
    return {1 - chase(theirs, score, handed), 0, 0};
  }

  // The mover's (win, tie) after banking `handed.total` more units, not
  // reaching: the other seat's turn, which under IV.5 may take over.
  Linear banked_value(int seat, int mine, int theirs, const Handed& handed) const {
    const int score = mine + handed.total;
    const WinValue& next =
        rules_.continue_previous ? taken_over(1 - seat, theirs, score, handed) : solution_.at(1 - seat, theirs, score);
    return {1 - next.win - next.tie, next.tie, 0};
  }

  // IV.5: the value of a turn start of `seat` at (mine, theirs) handed a
  // banked position: the better of a fresh hand and taking it over.
  std::size_t handed_index(int seat, int mine, int theirs, const Handed& handed) const {
    const std::size_t state = (std::size_t(seat) * units_ + mine) * units_ + theirs;
    return handed_offset_[state] + std::size_t(handed.total - 1) * dps_.size() +
           dp_of_[handed.dice * 7 + handed.pending];
  }
  const WinValue& taken_over(int seat, int mine, int theirs, const Handed& handed) const {
    return handed_values_[handed_index(seat, mine, theirs, handed)];
  }

  // The highest turn total that needs a state of its own: above it every
  // total has reached the target and banking (where allowed) is best.
  int top_total(int seat, int mine, int theirs, double bust_utility, Stability& stability) const {
    if (rules_.exact_target) return units_ - mine;  // passing the target busts
    const int top = std::max(units_ - mine, bank_minimum(mine));
    if (!answered(seat)) return top;
    const int last = theirs + reach_span_;  // chasing past it is negligible
    if (rules_.no_stop_on_hot_dice || rules_.continue_previous || fewest_busts_ <= 0) return std::max(top, last - mine);
    // Padding from any state risks at least fewest_busts_ of dropping from
    // the bank value to bust_utility and gains at most the chase chance:
    // once that chance is below half the risk, banking is best.
    const double bound = 0.5 * fewest_busts_ * (1 - bust_utility);
    int score = std::max(units_, mine + top);
    while (score < last && chase(theirs, score + 1, {}) > bound) ++score;
    stability.high = std::min(stability.high, 1 - chase(theirs, score + 1, {}) / fewest_busts_);
    return std::max(top, score - mine);
  }

  // The position a bank at total t hands over, by how the throw landed.
  Handed handed(int t, int kind) const {
    if (kind == hot_kind_) return {t, rules_.dice, kNoPending};
    return {t, dps_[kind] / 7, dps_[kind] % 7};
  }
  Linear bank_value(int seat, int mine, int theirs, int t, int kind) const {
    const int score = mine + t;
    return reached(score) ? reached_value(seat, theirs, score, handed(t, kind))
                          : banked_value(seat, mine, theirs, handed(t, kind));
  }

  // Where a throw lands past the top total t: the target is reached and a
  // fresh chase of the score is negligible, so values no longer depend on
  // the total. Banking is best unless a bank is forbidden (hot dice under
  // IV.1) or (IV.5) the position handed over matters: then a small
  // fixed point over the dice in hand.
  void land_above_top(int seat, int mine, int theirs, int t, bool first, double bust_utility, Stability& stability,
                      Linear* row) {
    if (rules_.exact_target) {
      std::fill(row, row + kinds_, Linear{0, 0, 1});
      return;
    }
    if (stationary() && !first) {  // the same as the row below
      std::copy_n(row - kinds_, kinds_, row);
      return;
    }
    for (int kind = 0; kind < kinds_; ++kind) row[kind] = bank_value(seat, mine, theirs, t, kind);
    if (!stationary()) return;
    const std::vector<Linear> bank(row, row + kinds_);
    std::vector<Linear> go(dps_.size());
    for (int sweep = 0; sweep < 10000; ++sweep) {
      Stability last;
      for (std::size_t s = 0; s < dps_.size(); ++s)
        go[s] = throw_value(static_cast<int>(s), row, option_kind_.data(), bust_utility, last);
      double change = 0;
      for (int kind = 0; kind < kinds_; ++kind) {
        const Linear before = row[kind];
        choose(kind == hot_kind_ && rules_.no_stop_on_hot_dice, bank[kind], go[kind == hot_kind_ ? full_hand_ : kind],
               bust_utility, last, row[kind]);
        change = std::max(change, std::abs(row[kind].utility(bust_utility) - before.utility(bust_utility)));
      }
      if (change < 1e-16) {
        stability.low = std::max(stability.low, last.low);
        stability.high = std::min(stability.high, last.high);
        return;
      }
    }
  }

  // Banking (unless forbidden) against throwing on: the better into `out`.
  static void choose(bool forbidden, const Linear& bank, const Linear& on, double bust_utility, Stability& stability,
                     Linear& out) {
    if (forbidden) {
      out = on;
    } else if (on.utility(bust_utility) > bank.utility(bust_utility)) {
      out = on;
      stability.keep(on, bank);
    } else {
      out = bank;
      stability.keep(bank, on);
    }
  }

  // The value of a throw from dense state s, its outcomes landing in `from`
  // (a landing row shifted back by the throw's points).
  Linear throw_value(int s, const Linear* from, const int* offsets, double bust_utility, Stability& stability) const {
    Linear value{0, 0, bust_[s]};
    for (int g = first_group_[s]; g < first_group_[s + 1]; ++g) {
      const int first = first_option_[g], end = first_option_[g + 1];
      const Linear* best = from + offsets[first];
      for (int k = first + 1; k < end; ++k) {  // partial setting aside: the best part to keep
        const Linear* v = from + offsets[k];
        if (v->utility(bust_utility) > best->utility(bust_utility)) {
          stability.keep(*v, *best);
          best = v;
        } else {
          stability.keep(*best, *v);
        }
      }
      value.add(group_probability_[g], *best);
    }
    return value;
  }

  // Where a throw lands at total t <= top: banking, where allowed, against
  // throwing on.
  void land(int seat, int mine, int theirs, int t, const Linear* go, double bust_utility, Stability& stability,
            Linear* row) const {
    if (rules_.exact_target && mine + t > units_) {  // past an exact target: a bust (IV.5 rows only)
      std::fill(row, row + kinds_, Linear{0, 0, 1});
      return;
    }
    const bool reach = reached(mine + t);
    const int minimum = bank_minimum(mine);
    for (int kind = 0; kind < kinds_; ++kind) {
      const bool hot = kind == hot_kind_;
      const Linear& on = go[hot ? full_hand_ : kind];
      const bool may_bank = (rules_.exact_target && reach) || (t >= minimum && !(hot && rules_.no_stop_on_hot_dice));
      if (!may_bank) {
        row[kind] = on;
        continue;
      }
      const Linear bank = bank_value(seat, mine, theirs, t, kind);
      if (reach && !answered(seat))
        row[kind] = bank;
      else
        choose(false, bank, on, bust_utility, stability, row[kind]);
    }
  }

  // The value of a turn for the seat to move at (mine, theirs), linear in
  // what a bust hands over; decisions are taken at on_bust.
  Linear turn(int seat, int mine, int theirs, const WinValue& on_bust, Stability& stability) {
    const double u = on_bust.win + on_bust.tie / 2;
    // IV.5: every total the other seat could hand over needs its state.
    const int top = std::max(top_total(seat, mine, theirs, u, stability), rules_.continue_previous ? theirs : 0);
    const int states = static_cast<int>(dps_.size());
    std::vector<Linear>& throwing = throwing_[seat];
    const std::size_t rows = std::size_t(top) + most_points_ + 1;
    if (landing_.size() < rows * kinds_) landing_.resize(rows * kinds_);
    if (throwing.size() < std::size_t(top + 1) * states) throwing.resize(std::size_t(top + 1) * states);
    for (int t = top + 1; t < static_cast<int>(rows); ++t)
      land_above_top(seat, mine, theirs, t, t == top + 1, u, stability, &landing_[std::size_t(t) * kinds_]);
    for (int t = top; t >= 0; --t) {
      Linear* go = &throwing[std::size_t(t) * states];
      const Linear* from = &landing_[std::size_t(t) * kinds_];
      for (int s = 0; s < states; ++s) go[s] = throw_value(s, from, option_offset_.data(), u, stability);
      if (t > 0) land(seat, mine, theirs, t, go, u, stability, &landing_[std::size_t(t) * kinds_]);
    }
    solution_.stats.turn_states += std::size_t(top + 1) * states;
    return throwing[dp_of_[rules_.dice * 7 + kNoPending]];
  }

  // What a bust hands the mover: the other seat to move at the same scores.
  static WinValue handed_over(const WinValue& other) { return {1 - other.win - other.tie, other.tie}; }
  static WinValue apply(const Linear& l, const WinValue& on_bust) {
    return {l.win + l.bust * on_bust.win, l.tie + l.bust * on_bust.tie};
  }

  // The two turn starts at scores (a, b): seat 0 to move with a, and seat 1
  // to move with b. A bust hands each to the other, so they are solved
  // together: the policies best against a guess, then the exact values of
  // those policies (a 2x2 linear system), until the policies stand.
  void solve_pair(int a, int b) {
    WinValue& x = solution_.at(0, a, b);
    WinValue& y = solution_.at(1, b, a);
    // Start from the neighbouring pair's values: the policies rarely differ.
    x = b + 1 < units_ ? solution_.at(0, a, b + 1) : WinValue{0.5, 0};
    y = a + 1 < units_ ? solution_.at(1, b, a + 1) : WinValue{0.5, 0};
    solution_.stats.positions += 2;
    for (int iteration = 1; iteration <= kPolicyIterations; ++iteration) {
      solution_.stats.most_iterations = std::max(solution_.stats.most_iterations, iteration);
      Stability keep_x, keep_y;
      const Linear lx = turn(0, a, b, handed_over(y), keep_x);
      const Linear ly = turn(1, b, a, handed_over(x), keep_y);
      // x = lx + lx.bust * handed_over(y), y = ly + ly.bust * handed_over(x)
      const double both = 1 - lx.bust * ly.bust;
      if (both <= 0) {  // neither seat can ever bank: the game never ends
        x = y = {0, 1};
        return;
      }
      x.tie = (lx.tie + lx.bust * ly.tie) / both;
      y.tie = ly.tie + ly.bust * x.tie;
      x.win = (lx.win + lx.bust * (1 - y.tie) - lx.bust * (ly.win + ly.bust * (1 - x.tie))) / both;
      y.win = ly.win + ly.bust * (1 - x.win - x.tie);
      if (keep_x.holds(handed_over(y).utility()) && keep_y.holds(handed_over(x).utility()))
        return store_handed(a, b);  // the policies stand
    }
    // Policy iteration may cycle between near-equal policies of the two
    // seats; the plain fixed-point iteration contracts by the product of
    // the two bust chances, so it converges from wherever it stopped.
    for (int sweep = 0; sweep < 10000; ++sweep) {
      const WinValue old_x = x, old_y = y;
      Stability ignored;
      x = apply(turn(0, a, b, handed_over(y), ignored), handed_over(y));
      y = apply(turn(1, b, a, handed_over(x), ignored), handed_over(x));
      if (std::abs(x.win - old_x.win) + std::abs(x.tie - old_x.tie) + std::abs(y.win - old_y.win) +
              std::abs(y.tie - old_y.tie) <
          1e-15)
        break;
    }
    store_handed(a, b);
  }

  // IV.5: keeps, for the pair just solved, the value of each turn start
  // handed a position: the better of a fresh hand and throwing on from it.
  void store_handed(int a, int b) {
    if (!rules_.continue_previous) return;
    const int states = static_cast<int>(dps_.size());
    for (int seat = 0; seat < 2; ++seat) {
      const int mine = seat == 0 ? a : b, theirs = seat == 0 ? b : a;
      const WinValue fresh = solution_.at(seat, mine, theirs);
      const WinValue on_bust = handed_over(solution_.at(1 - seat, theirs, mine));
      for (int t = 1; t <= theirs; ++t)
        for (int s = 0; s < states; ++s) {
          const WinValue take = apply(throwing_[seat][std::size_t(t) * states + s], on_bust);
          handed_values_[handed_index(seat, mine, theirs, handed(t, s))] =
              take.utility() > fresh.utility() ? take : fresh;
        }
    }
  }

  Rules rules_;
  std::vector<ThrowOutcomes> throws_;
  WinSolution solution_;
  int units_;
  bool pads_ = false;   // whether a seat may pad (not with an exact target)
  int reach_span_ = 0;  // units beyond which a chase is negligible
  std::unique_ptr<ReachTable> reach_, stop_;

  std::array<int, 49> dp_of_{};  // (dice * 7 + pending) -> dense state, -1 if unreachable
  std::vector<int> dps_;         // dense state -> dice * 7 + pending
  int kinds_ = 0, hot_kind_ = 0, full_hand_ = 0;
  std::vector<double> bust_;                     // [state]
  std::vector<int> first_group_;                 // [state]: its groups
  std::vector<double> group_probability_;        // [group]
  std::vector<int> first_option_;                // [group]: its options
  std::vector<int> option_kind_;                 // [option]: the kind it lands as
  std::vector<int> option_offset_;               // [option]: points * kinds_ + kind, from a landing row
  double fewest_busts_ = 1;                      // the least chance of a bust of any throw
  int most_points_ = 0;                          // of any one throw, in units
  std::vector<Linear> landing_;                  // [total][kind]
  std::array<std::vector<Linear>, 2> throwing_;  // [seat][total][state]: the last turn solved
  // IV.5: the value of each turn start handed a position, per state
  // (seat, mine, theirs) the totals 1..theirs by dense (dice, pending).
  std::vector<std::size_t> handed_offset_;
  std::vector<WinValue> handed_values_;
};

}  // namespace

WinSolution solve_win(const Scoring& scoring) { return Solver(scoring).solve(); }

}  // namespace dicesim::tenk
