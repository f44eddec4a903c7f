#include "games/yahtzee/yahtzee_optimum.h"

#include <oneapi/tbb/parallel_for.h>

#include <bit>

#include "engine/progress.h"
#include "games/yahtzee/yahtzee_turn.h"

namespace dicesim::yahtzee {

Optimum solve_optimum(const Rules& rules) {
  const CardSpace space(rules);
  const ScoreTable table(rules);
  Optimum out{rules, std::vector<double>(space.size(), 0.0)};
  const std::uint32_t masks = space.full() + 1;
  // Cards by boxes filled: a turn fills one, so each layer needs only the next.
  std::vector<std::vector<std::uint32_t>> by_filled(space.boxes() + 1);
  for (std::uint32_t m = 0; m < masks; ++m) by_filled[std::popcount(m)].push_back(m);
  const int uppers = rules.bonus_threshold + 1;
  const int flags = rules.has_yahtzee_bonus() ? 2 : 1;
  Progress progress("yahtzee optimum: layers of cards", std::uint64_t(space.boxes()));
  for (int filled = space.boxes() - 1; filled >= 0; --filled) {
    const std::vector<std::uint32_t>& layer = by_filled[filled];
    tbb::parallel_for(std::size_t(0), layer.size(), [&](std::size_t i) {
      for (int upper = 0; upper < uppers; ++upper)
        for (int flag = 0; flag < flags; ++flag) {
          const Card c{layer[i], upper, flag == 1};
          if (!space.possible(c)) continue;
          out.value[space.index(c)] = best_turn(space, table, c, out.value.data(), nullptr);
        }
    });
    progress.advance();
  }
  return out;
}

}  // namespace dicesim::yahtzee
