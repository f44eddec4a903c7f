// The throws of the table solve (tenk_table_win.h), flattened for its inner
// sums: per state a throw starts from (Landings order), its outcomes with
// their chance, points and how they land. Without IV.4 (refused by the table
// solve) every group of outcomes has one move.
#pragma once

#include <algorithm>
#include <memory>
#include <vector>

#include "games/tenk/tenk.h"
#include "games/tenk/tenk_rules.h"
#include "games/tenk/tenk_table_lanes.h"
#include "games/tenk/tenk_win_policy.h"

namespace dicesim::tenk {

struct TableThrows {
  TableThrows(const Rules& rules, const Scoring& scoring) : landings(rules) {
    const std::vector<ThrowOutcomes> all = throw_outcomes(scoring);
    kinds = landings.count(), states = landings.states();
    for (int s = 0; s < states; ++s) {
      const ThrowOutcomes& t = all[landings.dice(s) * kDiceSlots + landings.pending(s)];
      first.push_back(static_cast<int>(probability.size()));
      bust.push_back(t.bust);
      fewest_busts = std::min(fewest_busts, t.bust);
      for (const ThrowGroup& g : t.groups) {
        const ThrowOption& o = t.options[g.first];
        const int kind = landings.of(o.dice, o.pending, o.hot);
        probability.push_back(g.probability);
        points.push_back(o.points);
        landing.push_back(kind);
        offset.push_back(o.points * kinds + kind);
        most_points = std::max(most_points, o.points);
      }
    }
    first.push_back(static_cast<int>(probability.size()));
    full_hand = landings.of(rules.dice, kNoPending, false);
    reach = std::make_unique<ReachChances>(rules, all, rules.exact_target ? rules.target / kPoint : 4000,
                                           rules.exact_target);
  }
  ThrowArrays arrays() const { return {states, first.data(), offset.data(), probability.data(), bust.data()}; }
  // The state the next throw starts from after landing as `kind`.
  int from(int kind) const { return kind == landings.hot() ? full_hand : kind; }

  Landings landings;
  int kinds = 0, states = 0;
  std::vector<int> first;           // [state]: its outcomes [first[s], first[s + 1])
  std::vector<double> probability;  // [outcome]
  std::vector<int> points;          // [outcome], units
  std::vector<int> landing;         // [outcome]: the Landings kind
  std::vector<int> offset;          // [outcome]: points * kinds + kind, from a row of landings
  std::vector<double> bust;         // [state]
  double fewest_busts = 1;
  int most_points = 0;
  int full_hand = 0;
  std::unique_ptr<ReachChances> reach;
};

}  // namespace dicesim::tenk
