#include "math/race.h"

#include <algorithm>
#include <functional>
#include <numeric>

namespace dicesim {
namespace {

double at(const std::vector<double>& v, std::size_t m) { return m < v.size() ? v[m] : 0.0; }

RaceOdds empty_odds(std::size_t seats, int score_bins, int turn_bins) {
  RaceOdds out;
  out.win.assign(seats, 0.0);
  out.score.assign(seats, std::vector<double>(score_bins, 0.0));
  out.turns.assign(seats, std::vector<double>(turn_bins, 0.0));
  return out;
}

std::size_t bin(std::size_t turns, int turn_bins) { return std::min<std::size_t>(turns, turn_bins - 1); }

// Seat `seat` is still below the goal after m turns while the game ends with
// probability `ends`: its score is where it stands.
void add_standing(RaceOdds& out, int seat, const Race& race, std::size_t m, double ends) {
  if (m >= race.below.size() || ends == 0) return;
  const std::vector<double>& below = race.below[m];
  for (std::size_t s = 0; s < below.size(); ++s) out.score[seat][s] += below[s] * ends;
}

}  // namespace

Race::Race(int scores, int final_scores, int start) {
  below.push_back(std::vector<double>(scores, 0.0));
  below[0][std::size_t(start)] = 1;
  finished.emplace_back();
  finished_from.push_back(std::size_t(final_scores));
  going.push_back(1);
  finishing.push_back(0);
}

void Race::add_turn(std::vector<double> below_after, std::vector<double> finished_at) {
  going.push_back(std::accumulate(below_after.begin(), below_after.end(), 0.0));
  finishing.push_back(std::accumulate(finished_at.begin(), finished_at.end(), 0.0));
  while (!below_after.empty() && below_after.back() == 0) below_after.pop_back();
  while (!finished_at.empty() && finished_at.back() == 0) finished_at.pop_back();
  const std::size_t from =
      std::find_if(finished_at.begin(), finished_at.end(), [](double p) { return p != 0; }) - finished_at.begin();
  below.emplace_back(below_after.begin(), below_after.end());
  finished.emplace_back(finished_at.begin() + from, finished_at.end());
  finished_from.push_back(from);
}

RaceOdds race_in_turns(const std::vector<const Race*>& seats, int score_bins, int turn_bins) {
  const std::size_t n = seats.size();
  RaceOdds out = empty_odds(n, score_bins, turn_bins);
  std::size_t longest = 0;
  for (const Race* race : seats) longest = std::max(longest, race->finishing.size());
  std::vector<std::size_t> turns_of(n);
  std::vector<double> going(n);
  // Seat s ends the game at its m-th turn if no other seat has reached the
  // goal: the seats before it have played m turns, those after it m - 1.
  for (std::size_t m = 1; m < longest; ++m) {
    for (std::size_t s = 0; s < n; ++s) {
      const Race& mover = *seats[s];
      const double finishing = at(mover.finishing, m);
      if (finishing == 0) continue;
      for (std::size_t j = 0; j < n; ++j) {
        turns_of[j] = j < s ? m : m - 1;
        going[j] = j == s ? 1.0 : at(seats[j]->going, turns_of[j]);
      }
      const double others_going = std::accumulate(going.begin(), going.end(), 1.0, std::multiplies<>());
      const double ends = finishing * others_going;
      if (ends == 0) continue;
      out.win[s] += ends;
      for (std::size_t i = 0; i < mover.finished[m].size(); ++i)
        out.score[s][mover.finished_from[m] + i] += mover.finished[m][i] * others_going;
      out.turns[s][bin(m, turn_bins)] += ends;
      for (std::size_t j = 0; j < n; ++j) {
        if (j == s) continue;
        // The game ends with seat j still below the goal, the rest as above.
        double rest = finishing;
        for (std::size_t k = 0; k < n; ++k)
          if (k != s && k != j) rest *= going[k];
        add_standing(out, int(j), *seats[j], turns_of[j], rest);
        out.turns[j][bin(turns_of[j], turn_bins)] += ends;
      }
    }
  }
  return out;
}

RaceOdds race_at_once(const Race& first, const Race& second, int score_bins, int turn_bins) {
  RaceOdds out = empty_odds(2, score_bins, turn_bins);
  const std::size_t turns = std::max(first.finishing.size(), second.finishing.size());
  for (std::size_t m = 1; m < turns; ++m) {
    const double f0 = at(first.finishing, m), f1 = at(second.finishing, m);
    const double g0 = at(first.going, m), g1 = at(second.going, m);
    const double ends = f0 * g1 + g0 * f1 + f0 * f1;
    if (ends == 0) continue;
    out.win[0] += f0 * g1;
    out.win[1] += g0 * f1;
    add_standing(out, 0, first, m, f1);
    add_standing(out, 1, second, m, f0);
    const auto final_score = [&](const Race& race, std::size_t f) {
      return m < race.finished.size() && f >= race.finished_from[m] ? at(race.finished[m], f - race.finished_from[m])
                                                                    : 0.0;
    };
    for (int f = 0; f < score_bins; ++f) {
      out.score[0][f] += final_score(first, f) * (g1 + f1);
      out.score[1][f] += final_score(second, f) * (g0 + f0);
    }
    if (f0 > 0 && f1 > 0) {             // both reach the goal: the higher final score wins
      double a_below = 0, b_below = 0;  // P(the final score is below f)
      for (int f = 0; f < score_bins; ++f) {
        const double a_here = final_score(first, f), b_here = final_score(second, f);
        out.win[0] += a_here * b_below;
        out.win[1] += b_here * a_below;
        out.tie += a_here * b_here;
        a_below += a_here;
        b_below += b_here;
      }
    }
    out.turns[0][bin(m, turn_bins)] += ends;
    out.turns[1][bin(m, turn_bins)] += ends;
  }
  return out;
}

}  // namespace dicesim
