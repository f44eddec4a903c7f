// Players racing to a goal, each playing its own game whatever the others
// do (a strategy that never looks at the opponent's score: Pig's
// hold_at, Dice Battle's fixed, blind or random). Each one's race alone is
// computed once, turn by turn; a game between n of them follows from the n
// in O(turns x n x (n + scores)), instead of a walk over every n-tuple of
// scores turn by turn. Pig and Dice Battle both use it.
#pragma once

#include <vector>

namespace dicesim {

// One player alone, after m of its turns (m = 0, 1, ...).
struct Race {
  // Stored without their zeros at the ends (a long race keeps thousands of
  // turns): below[m][s] for s < below[m].size(), finished[m][i] for the final
  // score f = finished_from[m] + i.
  std::vector<std::vector<double>> below;     // [m][s]: P(still below the goal, at score s)
  std::vector<std::vector<double>> finished;  // [m][i]: P(reaching the goal at turn m with final score f)
  std::vector<std::size_t> finished_from;     // [m]
  std::vector<double> going;                  // [m]: P(still below the goal)
  std::vector<double> finishing;              // [m]: P(reaching the goal at turn m)

  // Starts at score `start` (0, or a head start) with `scores` cells below
  // the goal and `final_scores` bins.
  Race(int scores, int final_scores, int start = 0);
  // Appends turn m + 1, filled in by the caller, and returns it.
  void add_turn(std::vector<double> below_after, std::vector<double> finished_at);
};

// What a game between racers gives, per seat.
struct RaceOdds {
  std::vector<double> win;  // outright, per seat
  double tie = 0;
  std::vector<std::vector<double>> score;  // final score, per seat
  std::vector<std::vector<double>> turns;  // turns played, per seat (the last bin: that many or more)
};

// Players take turns in seat order, seat 0 first; the first to reach the goal
// wins and ends the game. Any number of seats.
RaceOdds race_in_turns(const std::vector<const Race*>& seats, int score_bins, int turn_bins);
// Both play a turn at once; when both reach the goal in the same turn the
// higher final score wins, equal scores tie.
RaceOdds race_at_once(const Race& first, const Race& second, int score_bins, int turn_bins);

}  // namespace dicesim
