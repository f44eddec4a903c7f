// Exact Sixers: score distributions of any compiled policy, the policy that
// minimises the expected total, the policy that maximises the chance of
// finishing below a score to beat, and exact odds of a table of players.
#pragma once

#include <vector>

#include "engine/table.h"
#include "games/sixers/sixers.h"

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

// optimal_win: the seat of a sequential table that maximises its chance of
// winning alone (a shared lowest score is a tie, which counts as no win),
// given the score to beat and the win-optimal play of the seats after it.
struct WinSeat {
  Policy policy;          // slots by (score to beat, score so far)
  PolicySampler sampler;  // the policy compiled for play
  // above[t]: P(this seat finishes above t, facing t): the chance that it
  // leaves a lowest score t standing.
  std::vector<double> above;
  double first_value = 0;  // P(win) as the first seat (no score to beat)
};

// later_above[t]: P(every seat after this one finishes above t, the first of
// them facing t): the product of their `above`, all 1 for the last seat.
// Backward induction over the turn: a finished total t is worth
// later_above[t] if it is below the score to beat, else 0; ties between
// choices go to the lower expected total, as in target_aware.
WinSeat solve_win_seat(const Hands& hands, const MeanOptimum& mean, const std::vector<double>& later_above);
// The decision states solve_win_seat tabulates (scores to beat x scores so
// far x rolls x hands): its memory in bytes while it solves.
std::size_t win_seat_states(const Hands& hands);
// optimal_win is refused for rules beyond this (a few seconds and 100 MB a seat).
constexpr std::size_t kMaxWinStates = 100'000'000;

// Seats play in order; in a sequential table each seat sees the lowest score
// so far as its score to beat, otherwise all play blind.
TableOdds table_odds(const Hands& hands, const std::vector<const Policy*>& seats, bool sequential);

}  // namespace dicesim::sixers
