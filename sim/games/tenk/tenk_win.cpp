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
    if (exact) return left == 0 ? 1.0 : left < 0 ? 0.0 : at(left, o.dice, o.pending);
    if (left <= 0 && !(o.hot && rules.no_stop_on_hot_dice)) return 1.0;
    return at(std::max(left, 0), o.dice, o.pending);
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
    if (rules_.continue_previous) throw std::invalid_argument("the win solver does not handle IV.5 yet");
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
          most_points_ = std::max(most_points_, o.points);
        }
      }
      first_group_.push_back(static_cast<int>(group_probability_.size()));
    }
    first_option_.push_back(static_cast<int>(option_offset_.size()));
  }

  int bank_minimum(int banked) const { return units_up(rules_.bank_minimum_at(banked * kPoint)); }
  bool reached(int score) const { return rules_.exact_target ? score == units_ : score >= units_; }
  // The other seat answers a reached target in the same round: seat 0 always
  // (seat 1 plays after it), seat 1 only with last turns.
  bool answered(int seat) const { return seat == 0 || rules_.last_turn; }
  double chase(int theirs, int score) const {
    const int need = std::max(score - theirs + 1, bank_minimum(theirs));
    return reach_->fresh(std::min(need, reach_->most()));
  }

  // The mover's (win, tie) after banking a final score `score` that reaches
  // the target, the other seat at `theirs`.
  Linear reached_value(int seat, int theirs, int score) const {
    if (!answered(seat)) return {1, 0, 0};
    if (rules_.exact_target) {
      const double hit = reach_->fresh(units_ - theirs);
      return {1 - hit, hit, 0};
    }
    return {1 - chase(theirs, score), 0, 0};
  }

  // The mover's (win, tie) after banking `total` more units, not reaching.
  Linear banked_value(int seat, int mine, int theirs, int total) const {
    const WinValue& next = solution_.at(1 - seat, theirs, mine + total);
    return {1 - next.win - next.tie, next.tie, 0};
  }

  // The highest turn total that needs a state of its own: above it every
  // total has reached the target and banking (where allowed) is best.
  int top_total(int seat, int mine, int theirs, double bust_utility, Stability& stability) const {
    if (rules_.exact_target) return units_ - mine;  // passing the target busts
    const int top = std::max(units_ - mine, bank_minimum(mine));
    if (!answered(seat)) return top;
    const int last = theirs + reach_span_;  // chasing past it is negligible
    if (rules_.no_stop_on_hot_dice || fewest_busts_ <= 0) return std::max(top, last - mine);
    // Padding from any state risks at least fewest_busts_ of dropping from
    // the bank value to bust_utility and gains at most the chase chance:
    // once that chance is below half the risk, banking is best.
    const double bound = 0.5 * fewest_busts_ * (1 - bust_utility);
    int score = std::max(units_, mine + top);
    while (score < last && chase(theirs, score + 1) > bound) ++score;
    stability.high = std::min(stability.high, 1 - chase(theirs, score + 1) / fewest_busts_);
    return std::max(top, score - mine);
  }

  // Where a throw lands past the top total: reached, banking if allowed.
  void land_above_top(int seat, int mine, int theirs, int t, Linear* row) const {
    const int score = mine + t;
    if (rules_.exact_target) {
      std::fill(row, row + kinds_, Linear{0, 0, 1});
      return;
    }
    const Linear bank = reached_value(seat, theirs, score);
    std::fill(row, row + kinds_, bank);
    if (rules_.no_stop_on_hot_dice) {  // a forced throw; every later stop banks
      const double stop = stop_->fresh(0);
      row[hot_kind_] = {stop * bank.win, stop * bank.tie, 1 - stop};
    }
  }

  // Where a throw lands at total t <= top: banking, where allowed, against
  // throwing on.
  void land(int seat, int mine, int theirs, int t, const Linear* go, double bust_utility, Stability& stability,
            Linear* row) const {
    const int score = mine + t;
    const bool reach = reached(score);
    const int minimum = bank_minimum(mine);
    const Linear bank = reach ? reached_value(seat, theirs, score) : banked_value(seat, mine, theirs, t);
    const double bank_utility = bank.utility(bust_utility);
    for (int kind = 0; kind < kinds_; ++kind) {
      const bool hot = kind == hot_kind_;
      const Linear& on = go[hot ? dp_of_[rules_.dice * 7 + kNoPending] : kind];
      const bool may_bank = (rules_.exact_target && reach) || (t >= minimum && !(hot && rules_.no_stop_on_hot_dice));
      if (!may_bank) {
        row[kind] = on;
      } else if (reach && !answered(seat)) {
        row[kind] = bank;
      } else if (on.utility(bust_utility) > bank_utility) {
        row[kind] = on;
        stability.keep(on, bank);
      } else {
        row[kind] = bank;
        stability.keep(bank, on);
      }
    }
  }

  // The value of a turn for the seat to move at (mine, theirs), linear in
  // what a bust hands over; decisions are taken at on_bust.
  Linear turn(int seat, int mine, int theirs, const WinValue& on_bust, Stability& stability) {
    const double u = on_bust.win + on_bust.tie / 2;
    const int top = top_total(seat, mine, theirs, u, stability);
    const int states = static_cast<int>(dps_.size());
    const std::size_t rows = std::size_t(top) + most_points_ + 1;
    if (landing_.size() < rows * kinds_) landing_.resize(rows * kinds_);
    if (throwing_.size() < std::size_t(top + 1) * states) throwing_.resize(std::size_t(top + 1) * states);
    for (int t = top + 1; t < static_cast<int>(rows); ++t)
      land_above_top(seat, mine, theirs, t, &landing_[std::size_t(t) * kinds_]);
    for (int t = top; t >= 0; --t) {
      Linear* go = &throwing_[std::size_t(t) * states];
      const Linear* from = &landing_[std::size_t(t) * kinds_];
      for (int s = 0; s < states; ++s) {
        Linear value{0, 0, bust_[s]};
        for (int g = first_group_[s]; g < first_group_[s + 1]; ++g) {
          const int first = first_option_[g], end = first_option_[g + 1];
          const Linear* best = from + option_offset_[first];
          for (int k = first + 1; k < end; ++k) {  // partial setting aside: the best part to keep
            const Linear* v = from + option_offset_[k];
            if (v->utility(u) > best->utility(u)) {
              stability.keep(*v, *best);
              best = v;
            } else {
              stability.keep(*best, *v);
            }
          }
          value.add(group_probability_[g], *best);
        }
        go[s] = value;
      }
      if (t > 0) land(seat, mine, theirs, t, go, u, stability, &landing_[std::size_t(t) * kinds_]);
    }
    solution_.stats.turn_states += std::size_t(top + 1) * states;
    return throwing_[dp_of_[rules_.dice * 7 + kNoPending]];
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
      const auto u = [](const WinValue& v) { return v.win + v.tie / 2; };
      if (keep_x.holds(u(handed_over(y))) && keep_y.holds(u(handed_over(x)))) return;  // the policies stand
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
  int kinds_ = 0, hot_kind_ = 0;
  std::vector<double> bust_;                // [state]
  std::vector<int> first_group_;            // [state]: its groups
  std::vector<double> group_probability_;   // [group]
  std::vector<int> first_option_;           // [group]: its options
  std::vector<int> option_offset_;          // [option]: points * kinds_ + kind, from a landing row
  double fewest_busts_ = 1;                 // the least chance of a bust of any throw
  int most_points_ = 0;                     // of any one throw, in units
  std::vector<Linear> landing_, throwing_;  // [total][kind], [total][state]
};

}  // namespace

WinSolution solve_win(const Scoring& scoring) { return Solver(scoring).solve(); }

}  // namespace dicesim::tenk
