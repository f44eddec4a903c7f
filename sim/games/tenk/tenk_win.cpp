#include "games/tenk/tenk_win.h"

#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>

#include "engine/memory_budget.h"
#include "engine/peak_memory.h"
#include "engine/progress.h"
#include "math/race.h"

namespace dicesim::tenk {
namespace {

int units_up(int points) { return (points + kPoint - 1) / kPoint; }

// Where chasing a score further than this many units has a chance below
// kNegligible, the first seat stops padding: the error is below it.
constexpr double kNegligible = 1e-16;
constexpr int kPolicyIterations = 12;
// Chances below this are not followed by the game's shape (a game still
// running after it, the second seat answering a first turn that reached).
constexpr double kUnfollowed = 1e-15;
// The largest target (units) at which the turns of a game with a strategy
// that reads the other's score (optimal_win) are followed.
constexpr int kCheapTurnsUnits = 4000 / kPoint;

}  // namespace

WinSolution::WinSolution(const Rules& rules)
    : units_(rules.target / kPoint), values_(std::size_t(2) * units_ * units_) {}

bool WinSolution::consistent(int units) const {
  if (units_ != units || values_.size() != std::size_t(2) * units * units) return false;
  return std::all_of(values_.begin(), values_.end(), [](const WinValue& v) {
    return v.win >= 0 && v.tie >= 0 && v.win + v.tie <= 1 + 1e-9;  // also false for NaN
  });
}

bool PolicyRule::banks(int, int mine, int, int t, int kind) const {
  const int banked = mine * kPoint, total = t * kPoint;
  if (banked + total >= rules_.target) return true;
  return !policy_.throws(regime_of(rules_, banked), landings_.pending(kind), landings_.dice(kind), total);
}

bool PolicyRule::takes_over(int, int mine, int, const Handed& h, int) const {
  return policy_.takes_over(regime_of(rules_, mine * kPoint), h.pending, h.dice, h.total * kPoint);
}

// choose_move's value of a part: without values every part is worth the
// same, so the first (the best move) is kept.
double PolicyRule::part_value(int, int regime, int after, int kind) const {
  if (policy_.value.empty()) return 0;
  return policy_.value[policy_.index(regime, landings_.pending(kind), landings_.dice(kind), after * kPoint)];
}

namespace {

// A turn's value under a fixed policy, linear in what a bust hands over:
// (win, tie) + bust * (the mover's win and tie after a bust).
struct Linear {
  double win = 0, tie = 0, bust = 0;
  double utility(double bust_utility) const { return win + tie / 2 + bust * bust_utility; }
  void add(double p, const Linear& v) { win += p * v.win, tie += p * v.tie, bust += p * v.bust; }
};

// The values of decisions stay optimal while the bust value's utility
// stays inside [low, high]: then a second pass would find the same policy.
struct Stability {
  double low = -1, high = 2;
  // A choice of `chosen` over `other` made at bust utility u.
  void keep(const Linear& chosen, const Linear& other) {
    const double slope = chosen.bust - other.bust;
    if (slope == 0) return;
    const double gap = other.win + other.tie / 2 - chosen.win - chosen.tie / 2;  // the crossing is gap / slope
    // Most choices leave the bounds as they are: a product tells so well
    // clear of rounding, and only a crossing that may move a bound is
    // divided out (the same bounds as dividing every time).
    const double bound = slope > 0 ? low : high, scaled = bound * slope;
    constexpr double kMargin = 4 * std::numeric_limits<double>::epsilon();
    if (std::abs(scaled) > kFarFromUnderflow && gap < scaled - kMargin * std::abs(scaled)) return;
    const double cross = gap / slope;
    if (slope > 0)
      low = std::max(low, cross);
    else
      high = std::min(high, cross);
  }
  static constexpr double kFarFromUnderflow = 1e-280;
  bool holds(double u) const { return u >= low && u <= high; }
  // Whether a choice made at u by a margin of `ahead` in utility may move
  // a bound: its crossing lies at least `ahead` from u (the bust values
  // differ by at most 1); the rest leaves room for rounding.
  bool may_move(double u, double ahead) const { return ahead <= std::max(u - low, high - u) + 1e-12; }
};

// What a bust hands the mover: the other seat to move at the same scores.
WinValue handed_over(const WinValue& other) { return {1 - other.win - other.tie, other.tie}; }
WinValue apply(const Linear& l, const WinValue& on_bust) {
  return {l.win + l.bust * on_bust.win, l.tie + l.bust * on_bust.tie};
}

bool same_linear(const Linear& a, const Linear& b) { return a.win == b.win && a.tie == b.tie && a.bust == b.bust; }

// What a thread works with while it solves a pair of scores.
struct SeatScratch {
  int mine = -1, theirs = -1;   // the turn start of the last turn solved
  std::vector<Linear> landing;  // [total][kind]
  std::vector<Stability> rows;  // [total]: where the decisions of the row and the rows above it stand
  std::vector<Linear> above;    // the rows past the top, of the pass before
  std::vector<double> utility;  // [total][kind]: the landing's utility at the pass's bust value
};
struct Scratch {
  std::array<SeatScratch, 2> seat;
  std::array<std::vector<Linear>, 2> throwing;          // [seat][total][state]: the last turn solved
  std::array<std::vector<std::uint8_t>, 2> decided;     // [seat][(total - 1) * kinds + kind]: banks
  std::array<std::vector<std::uint8_t>, 2> kept_parts;  // [seat][total * groups + group]: IV.4
  std::array<int, 2> tops{};                            // [seat]: the last turn's top total
  std::uint64_t turn_states = 0;                        // as WinSolveStats counts them
  int most_iterations = 0;
};

// A pair's decisions for the policy, kept until they are recorded in order.
struct SeatDecisions {
  int top = 0;
  std::vector<std::uint8_t> banks;  // [(total - 1) * kinds + kind], totals 1..top + 1
  std::vector<PartRun> parts;       // IV.4
  std::vector<std::uint8_t> takes;  // IV.5: [(total - 1) * states + state], totals 1..theirs
};
struct PairDecisions {
  std::array<SeatDecisions, 2> seat;
};

// Solves (seats without a rule) or evaluates (seats with one) the game,
// turn start by turn start from high score sums to low.
class Solver {
 public:
  Solver(const Scoring& scoring, const SeatRule* first, const SeatRule* second)
      : rules_(scoring.rules()),
        throws_(throw_outcomes(scoring)),
        landings_(rules_),
        solution_(rules_),
        units_(solution_.units()),
        seat_rule_{first, second} {
    if (rules_.target % kPoint != 0) throw std::invalid_argument("the target is not a multiple of 50");
    index_throws();
    if (!rules_.exact_target) reach_span_ = negligible_chase();
    reach_ = std::make_unique<ReachChances>(rules_, throws_, units_ + reach_span_ + 2, rules_.exact_target);
    if (rules_.continue_previous) handed_.resize(std::size_t(2 * units_ - 1) * units_);
    if (!first || !second) solution_.policy = WinPolicy(rules_, units_);
  }

  // The pairs of one score sum only read pairs of higher sums, so they are
  // solved in parallel when both seats are solved (a fixed strategy's
  // SeatRule and the tables worked out for it are not shared across
  // threads); their decisions enter the policy afterwards in the order of
  // a sequential solve, so the solution does not depend on the threads.
  WinSolution solve() {
    const auto start = std::chrono::steady_clock::now();
    Progress progress("10,000 solved for the win: score sums", 2 * units_ - 1);  // polls the stop flag too
    const bool parallel = !seat_rule_[0] && !seat_rule_[1];
    tbb::enumerable_thread_specific<Scratch> scratches;
    for (int sum = 2 * (units_ - 1); sum >= 0; --sum) {
      const int most_a = std::min(sum, units_ - 1), least_a = std::max(0, sum - (units_ - 1));
      const int pairs = most_a - least_a + 1;
      std::vector<PairDecisions> decided(pairs);
      if (rules_.continue_previous) allocate_handed(sum);
      const auto solve_one = [&](int i) { solve_pair(scratches.local(), most_a - i, sum - (most_a - i), decided[i]); };
      if (parallel)
        tbb::parallel_for(0, pairs, solve_one);
      else
        for (int i = 0; i < pairs; ++i) solve_one(i);
      for (int i = 0; i < pairs; ++i) record(most_a - i, sum - (most_a - i), decided[i]);
      if (rules_.continue_previous && !keep_handed_) release_handed(sum);
      progress.advance();
    }
    for (const Scratch& scratch : scratches) {
      solution_.stats.turn_states += scratch.turn_states;
      solution_.stats.most_iterations = std::max(solution_.stats.most_iterations, scratch.most_iterations);
    }
    solution_.stats.positions = std::uint64_t(2) * units_ * units_;
    solution_.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    solution_.stats.peak_bytes = peak_resident_bytes();
    return std::move(solution_);
  }

  // Each seat's first turn and the turns of the game, followed forward from
  // the start turn by turn (both seats evaluated).
  GameShape shape() const {
    GameShape shape;
    shape.first_turn[0] = first_turn_of_first_seat();
    if (!rules_.continue_previous) {
      shape.first_turn[1] = first_turn_of_second_seat(shape.first_turn[0]);
      if (turns_are_cheap()) shape.turns = turns_played();
    }
    shape.cut_at_most = cut_chance(shape);
    return shape;
  }

  // IV.5: keep the values of turn starts handed a position for
  // hand_over_handed (else each is dropped once read).
  void keep_handed() { keep_handed_ = true; }
  // IV.5: the values of turn starts handed a position, for a caller that
  // asked for them (keep_handed, then solve()), per turn start the totals
  // 1..theirs by Landings state.
  void hand_over_handed(WinSolution& solution) const {
    const int states = landings_.states();
    solution.handed_offset.resize(std::size_t(2) * units_ * units_);
    solution.handed_values.clear();
    for (int seat = 0; seat < 2; ++seat)
      for (int mine = 0; mine < units_; ++mine)
        for (int theirs = 0; theirs < units_; ++theirs) {
          solution.handed_offset[(std::size_t(seat) * units_ + mine) * units_ + theirs] = solution.handed_values.size();
          for (int t = 1; t <= theirs; ++t)
            for (int s = 0; s < states; ++s) solution.handed_values.push_back(handed_at(seat, mine, theirs, t, s));
        }
  }

 private:
  // The throws' outcomes flattened: per starting state its groups, per
  // group its options as offsets into a landing row.
  void index_throws() {
    const int kinds = landings_.count();
    first_group_ = first_groups(landings_, throws_);
    for (int s = 0; s < landings_.states(); ++s) {
      const ThrowOutcomes& t = throws_[landings_.dice(s) * kDiceSlots + landings_.pending(s)];
      bust_.push_back(t.bust);
      fewest_busts_ = std::min(fewest_busts_, t.bust);
      for (const ThrowGroup& g : t.groups) {
        group_probability_.push_back(g.probability);
        first_option_.push_back(static_cast<int>(option_offset_.size()));
        for (int k = g.first; k < g.first + g.count; ++k) {
          const ThrowOption& o = t.options[k];
          const int kind = landings_.of(o.dice, o.pending, o.hot);
          option_offset_.push_back(o.points * kinds + kind);
          option_kind_.push_back(kind);
          option_points_.push_back(o.points);
          most_points_ = std::max(most_points_, o.points);
        }
      }
    }
    first_option_.push_back(static_cast<int>(option_offset_.size()));
  }

  // Units past which a fresh chase succeeds with a chance below kNegligible:
  // how far padding can matter.
  int negligible_chase() const {
    const ReachChances probe(rules_, throws_, units_ + 4000, false);
    for (int need = 1; need <= probe.most(); ++need)
      if (probe.fresh(need) < kNegligible) return need;
    return probe.most();
  }

  int bank_minimum(int banked) const { return units_up(rules_.bank_minimum_at(banked * kPoint)); }
  // Whether the values past the top total need the fixed point of
  // land_above_top (else they are the bank values).
  bool stationary() const { return rules_.no_stop_on_hot_dice || rules_.continue_previous; }
  bool reached(int score) const { return rules_.exact_target ? score == units_ : score >= units_; }
  // The other seat answers a reached target in the same round: seat 0 always
  // (seat 1 plays after it), seat 1 only with last turns.
  bool answered(int seat) const { return seat == 0 || rules_.last_turn; }
  Handed handed(int t, int kind) const { return {t, landings_.dice(kind), landings_.pending(kind)}; }

  // The chance that `seat`, at `theirs`, answers a reached score in its last
  // turn: from a fresh hand, or (IV.5) taking over the banked position.
  double chase(int seat, int theirs, int score, const Handed& h) const {
    const int need = WinStrategy::need_to_beat(rules_, theirs * kPoint, score * kPoint);
    const SeatRule* rule = seat_rule_[seat];
    const bool values_parts = rules_.partial_set_aside && rule && !rule->answers_optimally();
    const double fresh = values_parts ? rule_chase(seat, theirs, score, need, 0, full_hand()) : reach_->fresh(need);
    if (!rules_.continue_previous || (rules_.exact_target && need <= h.total)) return fresh;
    const int dp = landings_.of(h.dice, h.pending, false);
    const double taken = values_parts ? rule_chase(seat, theirs, score, need, h.total, dp)
                                      : reach_->at(need - h.total, h.dice, h.pending);
    if (!rule || rule->answers_optimally()) return std::max(fresh, taken);
    return rule->takes_over(seat, theirs, score, h, dp) ? taken : fresh;
  }

  // IV.4: the chance that a fixed strategy at `mine` chasing `need` units
  // from total t in state s reaches it (exactly, with an exact target),
  // keeping the parts it values rather than those that reach likeliest
  // (ReachChances). From past the need (a taken-over position, IV.5) one
  // more throw must end where it may stop.
  double rule_chase(int seat, int mine, int theirs, int need, int t, int s) const {
    const RuleChase& chase = rule_chase_table(seat, mine, theirs, need);
    if (t < need) return chase.reach[std::size_t(t) * landings_.states() + s];
    double p = 0;
    for (int g = first_group_[s]; g < first_group_[s + 1]; ++g)
      p += group_probability_[g] *
           (option_kind_[kept_option(seat, mine, theirs, t, g)] == landings_.hot() ? chase.beyond[full_hand()] : 1.0);
    return p;
  }
  struct RuleChase {
    std::vector<double> reach;   // [total][state], totals below the need
    std::vector<double> beyond;  // [state]: the chance of a throw past the need ending where it may stop
  };
  const RuleChase& rule_chase_table(int seat, int mine, int theirs, int need) const {
    const auto key = std::tuple(seat, regime_of(rules_, mine * kPoint), need);  // parts depend on mine by regime
    if (const auto found = rule_chases_.find(key); found != rule_chases_.end()) return found->second;
    const int states = landings_.states();
    // Past the need only hot dice under IV.1 go on; the parts kept there
    // are those at the need (a chain of hot dice, of negligible chance).
    std::vector<double> beyond(states, 1.0);
    if (rules_.no_stop_on_hot_dice) {
      std::vector<double> stop(states, 0.0), hot(states, 0.0);
      for (int s = 0; s < states; ++s)
        for (int g = first_group_[s]; g < first_group_[s + 1]; ++g)
          (option_kind_[kept_option(seat, mine, theirs, need, g)] == landings_.hot() ? hot : stop)[s] +=
              group_probability_[g];
      const double full = stop[full_hand()] / (1 - hot[full_hand()]);
      for (int s = 0; s < states; ++s) beyond[s] = stop[s] + hot[s] * full;
    }
    std::vector<double> reach(std::size_t(need) * states, 0.0);  // [total][state], totals below the need
    for (int t = need - 1; t >= 0; --t)
      for (int s = 0; s < states; ++s) {
        double p = 0;
        for (int g = first_group_[s]; g < first_group_[s + 1]; ++g) {
          const int k = kept_option(seat, mine, theirs, t, g);
          const int kind = option_kind_[k], to = t + option_points_[k];
          const int next = kind == landings_.hot() ? full_hand() : kind;
          const double after = to < need                 ? reach[std::size_t(to) * states + next]
                               : rules_.exact_target     ? (to == need ? 1.0 : 0.0)
                               : kind == landings_.hot() ? beyond[next]
                                                         : 1.0;
          p += group_probability_[g] * after;
        }
        reach[std::size_t(t) * states + s] = p;
      }
    return rule_chases_[key] = RuleChase{std::move(reach), std::move(beyond)};
  }

  // The mover's (win, tie) after banking a final score that reaches the
  // target, the other seat at `theirs`.
  Linear reached_value(int seat, int theirs, int score, const Handed& h) const {
    if (!answered(seat)) return {1, 0, 0};
    if (const SeatRule* rule = seat_rule_[1 - seat]; rule && !rule->chases())
      return plain_answer(1 - seat, theirs, score, h);
    const double answer = chase(1 - seat, theirs, score, h);
    if (rules_.exact_target) return {1 - answer, answer, 0};  // an answer ties
    return {1 - answer, 0, 0};
  }

  // The reacher's (win, tie) when `answerer`, at `theirs`, answers `score`
  // with its usual turn: it may bank short of the score, or tie it.
  Linear plain_answer(int answerer, int theirs, int score, const Handed& h) const {
    const int dp = landings_.of(h.dice, h.pending, false);
    const bool takes = rules_.continue_previous && seat_rule_[answerer]->takes_over(answerer, theirs, score, h, dp);
    const TurnEnds& ends = takes ? taken_turn_ends(answerer, theirs, h.total, dp) : turn_ends(answerer, theirs);
    Linear value{1, 0, 0};
    for (int k = 0; k < static_cast<int>(ends.bank.size()); ++k) {
      const int final_score = theirs + ends.lowest + k;
      if (final_score == score) value.win -= ends.bank[k], value.tie += ends.bank[k];
      if (final_score > score) value.win -= ends.bank[k];
    }
    return value;
  }

  // The mover's (win, tie) after banking h.total more units, not reaching:
  // the other seat's turn, which under IV.5 may take over.
  Linear banked_value(int seat, int mine, int theirs, const Handed& h) const {
    const int score = mine + h.total;
    const WinValue& next = rules_.continue_previous
                               ? handed_at(1 - seat, theirs, score, h.total, landings_.of(h.dice, h.pending, false))
                               : solution_.at(1 - seat, theirs, score);
    return {1 - next.win - next.tie, next.tie, 0};
  }

  Linear bank_value(int seat, int mine, int theirs, int t, int kind) const {
    const int score = mine + t;
    return reached(score) ? reached_value(seat, theirs, score, handed(t, kind))
                          : banked_value(seat, mine, theirs, handed(t, kind));
  }

  // IV.5: the value of the turn start (seat, mine, theirs) handed total t
  // (1..theirs) in Landings state s. It is written when the pair of scores
  // is solved, at sum mine + theirs, and read once the pair at sum
  // mine + theirs - t is: it is kept in a block of that later sum and of t,
  // so that a block is freed as soon as its sum is solved (the values alive
  // at once are about a third of them all).
  WinValue& handed_at(int seat, int mine, int theirs, int t, int s) {
    const int sum = mine + theirs, lowest = std::max(0, sum - (units_ - 1));
    return handed_[std::size_t(sum - t) * units_ + t][(std::size_t(mine - lowest) * 2 + seat) * landings_.states() + s];
  }
  const WinValue& handed_at(int seat, int mine, int theirs, int t, int s) const {
    return const_cast<Solver*>(this)->handed_at(seat, mine, theirs, t, s);
  }
  // Before the pairs at `sum` are solved: the blocks they write, the turn
  // starts whose mine is at most the sum read from.
  void allocate_handed(int sum) {
    const int lowest = std::max(0, sum - (units_ - 1));
    for (int t = 1; t <= sum && t < units_; ++t)
      if (const int starts = std::min(sum - t, units_ - 1) - lowest + 1; starts > 0)
        handed_[std::size_t(sum - t) * units_ + t].resize(std::size_t(starts) * 2 * landings_.states());
  }
  // After the pairs at `sum` are solved: the blocks they read.
  void release_handed(int sum) {
    for (int t = 1; t < units_; ++t) std::vector<WinValue>().swap(handed_[std::size_t(sum) * units_ + t]);
  }

  // The highest turn total that needs a state of its own: above it every
  // total has reached the target and the decisions no longer depend on it.
  int top_total(int seat, int mine, int theirs, double bust_utility, Stability& stability) const {
    if (rules_.exact_target) return units_ - mine;  // passing the target busts
    int least = std::max(units_ - mine, bank_minimum(mine));
    if (!answered(seat) || (rules_.bank_at_target && !stationary())) return least;  // no padding
    const int last = theirs + reach_span_;  // a fresh chase past it is negligible
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

  // Banking (unless forbidden) against throwing on, into `out`; the
  // decision is recorded for the seat's policy.
  void choose(Scratch& work, int seat, int mine, int theirs, int t, int kind, bool forbidden, const Linear& bank,
              const Linear& on, double bust_utility, Stability& stability, Linear& out) {
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

  // The option a fixed strategy keeps of group g thrown at total t: the
  // solved one (optimal_win), else under IV.4 the first of the highest value
  // it gives the parts, worked out once per (seat, regime, total) row of
  // groups.
  int kept_option(int seat, int mine, int theirs, int t, int g) const {
    const int first = first_option_[g];
    if (first_option_[g + 1] - first == 1) return first;
    if (const std::optional<int> solved = seat_rule_[seat]->solved_part(seat, mine, theirs, t, g))
      return first + *solved;
    const int regime = regime_of(rules_, mine * kPoint);
    std::vector<int>& kept = kept_[seat][regime];
    const std::size_t groups = group_probability_.size();
    while (kept.size() <= std::size_t(t) * groups) add_kept_row(seat, regime, kept);
    return kept[std::size_t(t) * groups + g];
  }
  void add_kept_row(int seat, int regime, std::vector<int>& kept) const {
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

  // IV.4: the scan of the options [first, end) of a group again, for the
  // bounds of `stability`: each option compared with the best before it,
  // a comparison close enough to a tie to move a bound narrows them (most
  // that come close are of the same bust chance, which moves none).
  static void narrow_by_parts(int first, int end, const Linear* from, const double* utility, const int* offsets,
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

  // IV.4: the part kept of the options [first, end) of a group, the first
  // of the highest utility, and in `closest` how close a comparison of an
  // option with the best before it came to a tie: only a group with one
  // that may move the bounds of a Stability is scanned again for them
  // (narrow_by_parts), most have none.
  static int best_part(int first, int end, const double* utility, const int* offsets, double& closest) {
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

  // The value of a throw from state s at total t, its outcomes landing in
  // `from` (a landing row at the throw's total, offsets adding the points).
  // The parts kept under IV.4 are recorded for the seat's policy.
  // `utility` holds from's utilities at bust_utility, at the same offsets.
  Linear throw_value(Scratch& work, int seat, int mine, int theirs, int t, int s, const Linear* from,
                     const double* utility, const int* offsets, double bust_utility, Stability& stability) {
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

  // Where a throw lands at total t <= top: banking, where allowed, against
  // throwing on.
  void land(Scratch& work, int seat, int mine, int theirs, int t, const Linear* go, double bust_utility,
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

  // Where a throw lands past the top total t: the target is reached and a
  // fresh chase of the score is negligible, so values no longer depend on
  // the total. Banking is best unless a bank is forbidden (hot dice under
  // IV.1) or (IV.5) the position handed over matters: then a small fixed
  // point over the dice in hand.
  void land_above_top(Scratch& work, int seat, int mine, int theirs, int t, bool first, double bust_utility,
                      Stability& stability, Linear* row) {
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
        go[s] =
            throw_value(work, seat, mine, theirs, t, s, row, utility.data(), option_kind_.data(), bust_utility, last);
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

  int full_hand() const { return landings_.of(rules_.dice, kNoPending, false); }

  // How a fixed strategy's turn from (mine, theirs) ends: the chances of
  // banking each total (or of a bust). A strategy that ignores the other's
  // score ends it the same way whatever that score: worked out once per own
  // score (turn_ends).
  struct TurnEnds {
    double bust = 0;
    int lowest = 0;            // the total of bank[0]
    std::vector<double> bank;  // [total - lowest]
    double banks(int t) const { return t >= lowest && t - lowest < int(bank.size()) ? bank[t - lowest] : 0; }
  };
  // From total t0 in state s0: a fresh hand, or a position taken over (IV.5).
  TurnEnds follow_turn(int seat, int mine, int theirs, int t0, int s0) const {
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
  // IV.5: a fixed strategy's usual turn from a taken-over position, which
  // (unlike a chase) answers a reached score without knowing it.
  const TurnEnds& taken_turn_ends(int seat, int mine, int t0, int s0) const {
    std::optional<TurnEnds>& ends = taken_turn_ends_[std::tuple(seat, mine, t0, s0)];
    if (!ends) ends = follow_turn(seat, mine, 0, t0, s0);
    return *ends;
  }
  const TurnEnds& turn_ends(int seat, int mine) const {
    std::vector<std::optional<TurnEnds>>& cache = turn_ends_[seat];
    if (cache.empty()) cache.resize(units_);
    if (!cache[mine]) cache[mine] = follow_turn(seat, mine, 0, 0, full_hand());
    return *cache[mine];
  }

  // A strategy that reads the other's score ends its turns differently at
  // every pair of scores, each followed once: about 4 s a pair at 10,000.
  bool turns_are_cheap() const {
    const bool both_ignore_theirs = !seat_rule_[0]->reads_theirs() && !seat_rule_[1]->reads_theirs();
    return both_ignore_theirs || units_ <= kCheapTurnsUnits;
  }

  // How the turn of `seat` at (mine, theirs) ends, for the game's shape.
  const TurnEnds& ends_at(int seat, int mine, int theirs) const {
    if (!seat_rule_[seat]->reads_theirs()) return turn_ends(seat, mine);
    if (ends_by_state_.empty()) ends_by_state_.resize(std::size_t(2) * units_ * units_);
    std::optional<TurnEnds>& ends = ends_by_state_[(std::size_t(seat) * units_ + mine) * units_ + theirs];
    if (!ends) ends = follow_turn(seat, mine, theirs, 0, full_hand());
    return *ends;
  }

  std::vector<double> first_turn_of_first_seat() const {
    const TurnEnds& ends = ends_at(0, 0, 0);
    std::vector<double> p(std::max<std::size_t>(1, ends.lowest + ends.bank.size()), 0.0);  // a turn that never banks
    p[0] = ends.bust;
    for (std::size_t k = 0; k < ends.bank.size(); ++k) p[ends.lowest + k] += ends.bank[k];
    return p;
  }

  // The second seat starts at (0, the first seat's first turn). Where the
  // first seat reached the target in one turn the second's turn is a last
  // one: its score is not followed, so it is left unknown unless that
  // chance is negligible.
  std::vector<double> first_turn_of_second_seat(const std::vector<double>& first) const {
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

  // Spreads a turn from `mine` with chance `here`: every bank short of the
  // target goes to on_bank(score, p); returns the chance of reaching it
  // (every such bank ends the game alike, so they are not followed apart).
  template <class OnBank>
  double spread_turn(const TurnEnds& ends, int mine, double here, OnBank&& on_bank) const {
    double short_of_target = 0;
    for (int t = ends.lowest; mine + t < units_ && t < ends.lowest + int(ends.bank.size()); ++t) {
      const double p = ends.bank[t - ends.lowest];
      short_of_target += p;
      on_bank(mine + t, here * p);
    }
    return here * (rules_.exact_target ? ends.banks(units_ - mine) : 1 - ends.bust - short_of_target);
  }

  // The turns each seat plays; a seat that reaches the target ends its round
  // (and with last turns the first seat answers in the next).
  std::array<std::vector<double>, 2> turns_played() const {
    const int capped = rules_.max_rounds + 1;
    std::array<std::vector<double>, 2> turns{std::vector<double>(capped + 1, 0.0),
                                             std::vector<double>(capped + 1, 0.0)};
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

  // At most the chance that a game lasts into its last round, max_rounds,
  // where the cap may change who wins (no one may reach the target, or a
  // last turn may be cut): the game's own chance where its turns were
  // followed (the second seat plays in every round), else that of a seat
  // which plays its turns alone (without IV.5 the game ends no later than
  // it reaches the target on its own); nullopt where neither is known.
  std::optional<double> cut_chance(const GameShape& shape) const {
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

  // A seat whose strategy ignores the other's score, racing alone to the
  // target, turn by turn.
  Race race_alone(int seat) const {
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

  bool may_bank(int mine, int t, int kind) const {
    const bool hot = kind == landings_.hot();
    return (rules_.exact_target && reached(mine + t)) ||
           (t >= bank_minimum(mine) && !(hot && rules_.no_stop_on_hot_dice));
  }

  // The value of a turn for the seat to move at (mine, theirs), linear in
  // what a bust hands over; decisions are taken at on_bust.
  // A row's values depend on the decisions in it and above it, and its
  // decisions on the bust value only through the interval where they stay
  // optimal. So the next pass of policy iteration at the same turn start
  // keeps every row from the top down while the new bust value lies in
  // each row's interval (and the rows past the top came out the same), and
  // works out the rest: the same numbers as a pass over every row.
  Linear turn(Scratch& work, int seat, int mine, int theirs, const WinValue& on_bust, Stability& stability) {
    if (seat_rule_[seat] && !seat_rule_[seat]->reads_theirs() && !rules_.continue_previous) {
      const TurnEnds& ends = turn_ends(seat, mine);
      Linear value{0, 0, ends.bust};
      for (int k = 0; k < static_cast<int>(ends.bank.size()); ++k)
        if (ends.bank[k] > 0) value.add(ends.bank[k], bank_value(seat, mine, theirs, ends.lowest + k, landings_.hot()));
      return value;
    }
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
    if (work.decided[seat].size() < std::size_t(top + 1) * kinds)
      work.decided[seat].resize(std::size_t(top + 1) * kinds);
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
        go[s] = throw_value(work, seat, mine, theirs, t, s, from, &utility[std::size_t(t) * kinds],
                            option_offset_.data(), u, row);
      if (t > 0) land(work, seat, mine, theirs, t, go, u, row, &landing[std::size_t(t) * kinds]);
      utilities_of(t);
      stability.low = std::max(stability.low, row.low), stability.high = std::min(stability.high, row.high);
      work.turn_states += states;
    }
    return throwing[full_hand()];
  }

  // The two turn starts at scores (a, b): seat 0 to move with a, and seat 1
  // to move with b. A bust hands each to the other, so they are solved
  // together: the policies best against a guess, then the exact values of
  // those policies (a 2x2 linear system), until the policies stand.
  void solve_pair(Scratch& work, int a, int b, PairDecisions& decided) {
    WinValue& x = solution_.at(0, a, b);
    WinValue& y = solution_.at(1, b, a);
    // Start from the neighbouring pair's values: the policies rarely differ.
    x = b + 1 < units_ ? solution_.at(0, a, b + 1) : WinValue{0.5, 0};
    y = a + 1 < units_ ? solution_.at(1, b, a + 1) : WinValue{0.5, 0};
    for (int iteration = 1; iteration <= kPolicyIterations; ++iteration) {
      work.most_iterations = std::max(work.most_iterations, iteration);
      Stability keep_x, keep_y;
      const Linear lx = turn(work, 0, a, b, handed_over(y), keep_x);
      const Linear ly = turn(work, 1, b, a, handed_over(x), keep_y);
      // x = lx + lx.bust * handed_over(y), y = ly + ly.bust * handed_over(x)
      const double both = 1 - lx.bust * ly.bust;
      if (both <= 0) {  // neither seat can ever bank: the game never ends
        x = y = {0, 1};
        return finish_pair(work, a, b, decided);
      }
      x.tie = (lx.tie + lx.bust * ly.tie) / both;
      y.tie = ly.tie + ly.bust * x.tie;
      x.win = (lx.win + lx.bust * (1 - y.tie) - lx.bust * (ly.win + ly.bust * (1 - x.tie))) / both;
      y.win = ly.win + ly.bust * (1 - x.win - x.tie);
      if (keep_x.holds(handed_over(y).utility()) && keep_y.holds(handed_over(x).utility()))
        return finish_pair(work, a, b, decided);  // the policies stand
    }
    // Policy iteration may cycle between near-equal policies of the two
    // seats; the plain fixed-point iteration contracts by the product of
    // the two bust chances, so it converges from wherever it stopped.
    for (int sweep = 0; sweep < 10000; ++sweep) {
      const WinValue old_x = x, old_y = y;
      Stability ignored;
      x = apply(turn(work, 0, a, b, handed_over(y), ignored), handed_over(y));
      y = apply(turn(work, 1, b, a, handed_over(x), ignored), handed_over(x));
      if (std::abs(x.win - old_x.win) + std::abs(x.tie - old_x.tie) + std::abs(y.win - old_y.win) +
              std::abs(y.tie - old_y.tie) <
          1e-15)
        break;
    }
    finish_pair(work, a, b, decided);
  }

  // Keeps what later pairs and the policy need of the pair just solved: its
  // decisions (for record), and (IV.5) the value of each turn start handed
  // a position, the better of a fresh hand and throwing on from it.
  void finish_pair(const Scratch& work, int a, int b, PairDecisions& decided) {
    const int states = landings_.states(), kinds = landings_.count();
    for (int seat = 0; seat < 2; ++seat) {
      const int mine = seat == 0 ? a : b, theirs = seat == 0 ? b : a;
      SeatDecisions& mine_decided = decided.seat[seat];
      const SeatRule* rule = seat_rule_[seat];
      if (!rule) {
        mine_decided.top = work.tops[seat];
        mine_decided.banks.assign(work.decided[seat].begin(),
                                  work.decided[seat].begin() + std::size_t(work.tops[seat] + 1) * kinds);
        if (rules_.partial_set_aside)
          mine_decided.parts = WinPolicy::runs_of(work.kept_parts[seat], work.tops[seat] + 2,
                                                  static_cast<int>(group_probability_.size()));
      }
      if (!rules_.continue_previous) continue;
      const WinValue fresh = solution_.at(seat, mine, theirs);
      const WinValue on_bust = handed_over(solution_.at(1 - seat, theirs, mine));
      if (!rule) mine_decided.takes.resize(std::size_t(theirs) * states);
      for (int t = 1; t <= theirs; ++t)
        for (int s = 0; s < states; ++s) {
          const Handed h = handed(t, s);
          const WinValue take = apply(work.throwing[seat][std::size_t(t) * states + s], on_bust);
          const bool takes = rule ? rule->takes_over(seat, mine, theirs, h, s) : take.utility() > fresh.utility();
          handed_at(seat, mine, theirs, t, s) = takes ? take : fresh;
          if (!rule) mine_decided.takes[std::size_t(t - 1) * states + s] = takes;
        }
    }
  }

  // The decisions of the pair (a, b) into the policy, pair by pair in the
  // order of a sequential solve (the policy's layout follows it).
  void record(int a, int b, const PairDecisions& decided) {
    const int states = landings_.states(), kinds = landings_.count();
    WinPolicy& policy = solution_.policy;
    for (int seat = 0; seat < 2; ++seat) {
      if (seat_rule_[seat]) continue;
      const int mine = seat == 0 ? a : b, theirs = seat == 0 ? b : a;
      const SeatDecisions& d = decided.seat[seat];
      policy.set_top(seat, mine, theirs, d.top);
      for (int t = 1; t <= d.top + 1; ++t)
        for (int kind = 0; kind < kinds; ++kind)
          policy.set_bank(seat, mine, theirs, t, kind, d.banks[std::size_t(t - 1) * kinds + kind]);
      if (rules_.partial_set_aside) policy.set_runs(seat, mine, theirs, d.parts);
      for (int t = 1; t <= static_cast<int>(d.takes.size()) / std::max(1, states); ++t)
        for (int s = 0; s < states; ++s)
          policy.set_take(seat, mine, theirs, handed(t, s), s, d.takes[std::size_t(t - 1) * states + s]);
    }
  }

  Rules rules_;
  std::vector<ThrowOutcomes> throws_;
  Landings landings_;
  WinSolution solution_;
  int units_;
  std::array<const SeatRule*, 2> seat_rule_;  // nullptr: the seat maximises
  int reach_span_ = 0;                        // units beyond which a fresh chase is negligible
  std::unique_ptr<ReachChances> reach_;

  std::vector<double> bust_;               // [state]
  std::vector<int> first_group_;           // [state]: its groups
  std::vector<double> group_probability_;  // [group]
  std::vector<int> first_option_;          // [group]: its options
  std::vector<int> option_offset_;         // [option]: points * kinds + kind, from a landing row
  std::vector<int> option_kind_;           // [option]: the kind it lands as
  std::vector<int> option_points_;         // [option]: the points it adds, in units
  double fewest_busts_ = 1;                // the least chance of a bust of any throw
  int most_points_ = 0;                    // of any one throw, in units

  mutable std::array<std::vector<std::optional<TurnEnds>>, 2> turn_ends_;  // [seat][mine], for fixed strategies
  mutable std::vector<std::optional<TurnEnds>> ends_by_state_;             // [seat][mine][theirs], for shape()
  mutable std::map<std::tuple<int, int, int, int>, std::optional<TurnEnds>> taken_turn_ends_;  // IV.5, plain answers
  mutable std::map<std::tuple<int, int, int>, RuleChase> rule_chases_;  // (seat, regime, need): IV.4
  mutable std::array<std::array<std::vector<int>, kRegimes>, 2> kept_;  // [seat][regime][total][group]: IV.4
  // IV.5: the value of each turn start handed a position, in blocks
  // [sum read at][total] (handed_at).
  std::vector<std::vector<WinValue>> handed_;
  bool keep_handed_ = false;
};

}  // namespace

std::uint64_t win_solver_bytes(const Rules& rules) {
  const std::uint64_t units = std::uint64_t(rules.target / kPoint);
  std::uint64_t bytes = 2 * units * units * sizeof(WinValue);  // WinSolution's values
  // IV.5: each turn start (seat, mine, theirs) keeps the totals 1..theirs.
  // The limit counts them all, though at most units^3 / 6 + units^2 of them
  // a seat are alive at once (Solver::handed_at): about a third.
  if (rules.continue_previous)
    bytes += units * units * units * std::uint64_t(Landings(rules).states()) * sizeof(WinValue);
  return bytes;
}

void charge_win_solve(const Rules& rules, const std::string& what) {
  memory_budget().charge_once("tenk win " + rules_json(rules).dump(), win_solver_bytes(rules), what);
}

std::optional<std::string> win_solver_refusal(const Rules& rules, bool playing_to_win) {
  const int most = playing_to_win ? kMostWinTarget : kMostEvaluatedTarget;
  const std::string target = "target " + std::to_string(rules.target) + ": ";
  if (rules.target > most)
    return target + (playing_to_win ? "optimal_win is solved for targets up to " + std::to_string(most) +
                                          " (the solve grows as the cube of the target: about a minute there)"
                                    : "two-player games are evaluated exactly for targets up to " +
                                          std::to_string(most) + " (the odds grow as the square of the target)");
  if (const std::uint64_t bytes = win_solver_bytes(rules); bytes > kMostWinBytes)
    return target + "with continue_previous the two-player solver would hold " + std::to_string(bytes >> 20) +
           " MiB, more than its limit of " + std::to_string(kMostWinBytes >> 20) + " MiB";
  return std::nullopt;
}

namespace {

void require_within_limits(const Rules& rules, bool playing_to_win) {
  if (const std::optional<std::string> why = win_solver_refusal(rules, playing_to_win)) throw InputError(*why);
}

}  // namespace

WinSolution solve_win(const Scoring& scoring, bool keep_handed) {
  require_within_limits(scoring.rules(), true);
  charge_win_solve(scoring.rules(), "10,000's two-player win-optimal solve");
  Solver solver(scoring, nullptr, nullptr);
  if (keep_handed) solver.keep_handed();
  WinSolution solution = solver.solve();
  if (keep_handed) solver.hand_over_handed(solution);
  return solution;
}

WinSolution evaluate_win(const Scoring& scoring, const SeatRule& first, const SeatRule& second) {
  require_within_limits(scoring.rules(), false);
  return Solver(scoring, &first, &second).solve();
}

GameShape game_shape(const Scoring& scoring, const SeatRule& first, const SeatRule& second) {
  require_within_limits(scoring.rules(), false);
  return Solver(scoring, &first, &second).shape();
}

}  // namespace dicesim::tenk
