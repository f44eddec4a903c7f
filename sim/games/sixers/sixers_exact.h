// Exact Sixers: score distributions of any compiled policy, the policy that
// minimises the expected total, the policy that maximises the chance of
// finishing below a score to beat, and exact odds of a table of players.
#pragma once

#include <vector>

#include "games/sixers/sixers.h"
#include "table.h"

namespace dicesim::sixers {

// P(final score = s) for s = 0..max_score, facing a score to beat.
std::vector<double> score_distribution(const Hands& hands, const Policy& policy, int target = kNoTarget);

struct MeanOptimum {
  // expected[r * (dice + 1) + n]: the least expected score still to come with
  // r rolls left (r = 1..rolls) and n dice in hand.
  std::vector<double> expected;
  double mean = 0;  // from the start of a turn
  Policy policy;
};
MeanOptimum solve_mean_optimum(const Hands& hands);

// Keeps the dice that maximise P(final < target); among equally good choices
// (including "no target" and a target already lost or won) the one with the
// lowest expected total.
Policy solve_target_aware(const Hands& hands, const MeanOptimum& mean);

// Seats play in order; in a sequential table each seat sees the lowest score
// so far as its score to beat, otherwise all play blind.
TableOdds table_odds(const Hands& hands, const std::vector<const Policy*>& seats, bool sequential);

}  // namespace dicesim::sixers
