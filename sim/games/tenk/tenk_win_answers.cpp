// The two-player win solve (tenk_win_solver.h): the value of a bank that
// reaches the target, through the other seat's answer: a chase of the
// score, or (a fixed strategy that does not chase) its usual turn.
#include <algorithm>
#include <tuple>
#include <utility>
#include <vector>

#include "games/tenk/tenk_win_solver.h"

namespace dicesim::tenk::win_solve {

double Solver::chase(int seat, int theirs, int score, const Handed& h) const {
  const int need = WinStrategy::need_to_beat(rules_, theirs * kPoint, score * kPoint);
  const SeatRule* rule = seat_rule_[seat];
  const bool values_parts = rules_.partial_set_aside && rule && !rule->answers_optimally();
  const double fresh = values_parts ? rule_chase(seat, theirs, score, need, 0, full_hand()) : reach_->fresh(need);
  if (!rules_.continue_previous || (rules_.exact_target && need <= h.total)) return fresh;
  const int dp = landings_.of(h.dice, h.pending, false);
  const double taken =
      values_parts ? rule_chase(seat, theirs, score, need, h.total, dp) : reach_->at(need - h.total, h.dice, h.pending);
  if (!rule || rule->answers_optimally()) return std::max(fresh, taken);
  return rule->takes_over(seat, theirs, score, h, dp) ? taken : fresh;
}

double Solver::rule_chase(int seat, int mine, int theirs, int need, int t, int s) const {
  const RuleChase& chase = rule_chase_table(seat, mine, theirs, need);
  if (t < need) return chase.reach[std::size_t(t) * landings_.states() + s];
  double p = 0;
  for (int g = first_group_[s]; g < first_group_[s + 1]; ++g)
    p += group_probability_[g] *
         (option_kind_[kept_option(seat, mine, theirs, t, g)] == landings_.hot() ? chase.beyond[full_hand()] : 1.0);
  return p;
}

const Solver::RuleChase& Solver::rule_chase_table(int seat, int mine, int theirs, int need) const {
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

Linear Solver::reached_value(int seat, int theirs, int score, const Handed& h) const {
  if (!answered(seat)) return {1, 0, 0};
  if (const SeatRule* rule = seat_rule_[1 - seat]; rule && !rule->chases())
    return plain_answer(1 - seat, theirs, score, h);
  const double answer = chase(1 - seat, theirs, score, h);
  if (rules_.exact_target) return {1 - answer, answer, 0};  // an answer ties
  return {1 - answer, 0, 0};
}

Linear Solver::plain_answer(int answerer, int theirs, int score, const Handed& h) const {
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

}  // namespace dicesim::tenk::win_solve
