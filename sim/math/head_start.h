// The head start that makes a two-player race fairest: the least number of
// points given to the seat behind at the start that brings the first seat's
// chance closest to one half. Each game's two-player solver gives the first
// seat's chance at any pair of starting scores; this header only searches.
#pragma once

#include <algorithm>
#include <climits>
#include <cmath>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace dicesim {

// Scores in the game's own units (10,000's 50 points, Pig's 1).
struct HeadStart {
  bool to_first = false;                         // given to the first seat (the second is favoured)
  int closest = 0;                               // the head start closest to fair
  double closest_value = 0;                      // the first seat's chance with it
  int flips = 0;                                 // the least head start that makes the other seat the favourite
  double before_flip_value = 0, flip_value = 0;  // the first seat's chance at flips - 1 and at flips
};

// first_value(first's score, second's score): the first seat's chance of
// winning from there (ties counted half); scores below `most`. nullopt where
// no head start below `most` makes the other seat the favourite.
template <class FirstValue>
std::optional<HeadStart> fair_head_start(FirstValue first_value, int most) {
  const bool first_behind = first_value(0, 0) < 0.5;
  const auto with = [&](int h) { return first_behind ? first_value(h, 0) : first_value(0, h); };
  int h = 0;
  while (h + 1 < most && (with(h) < 0.5) == first_behind) ++h;
  if ((with(h) < 0.5) == first_behind) return std::nullopt;
  const int closest = std::abs(with(h) - 0.5) <= std::abs(with(h - 1) - 0.5) ? h : h - 1;
  return HeadStart{first_behind, closest, with(closest), h, with(h - 1), with(h)};
}

// "Head start for a fair game: 100 points to the first seat (...)", the
// scores shown in points (`points` per unit).
inline std::string head_start_line(const std::optional<HeadStart>& head, int points) {
  if (!head) return "No head start below the target makes the game fair.";
  std::ostringstream line;
  line.precision(6);
  line << "Head start for a fair game: " << head->closest * points << " points to the "
       << (head->to_first ? "first" : "second") << " seat (the first seat's chance then " << head->closest_value << "; "
       << (head->flips - 1) * points << " points: " << head->before_flip_value << ", " << head->flips * points
       << " points: " << head->flip_value << ")";
  return line.str();
}

// The contest that plays that head start, for a config of a strategy named
// `strategy` in both seats: "sequential_tables": [[...]] (seats are
// positions, so one strategy holds both), and `shipped`, a config that plays
// it under these rules (empty: none does).
inline std::string head_start_contest(const std::optional<HeadStart>& head, int points, const std::string& strategy,
                                      const std::string& shipped) {
  if (!head || head->closest == 0) return "";
  const std::string with =
      "{\"strategy\": \"" + strategy + "\", \"head_start\": " + std::to_string(head->closest * points) + "}";
  const std::string plain = "\"" + strategy + "\"";
  const std::string contest = "Simulate it with a config's \"sequential_tables\": [[" +
                              (head->to_first ? with + ", " + plain : plain + ", " + with) + "]]";
  if (shipped.empty()) return contest;
  return contest + " (" + shipped + " plays it; build/dicesim check " + shipped + " compares it with the exact odds)";
}

// The head starts that make a table of `seats` fairest: the tuple of
// starting scores (below `most`, the seat given none at 0, summing below
// `most_given`) whose seats' chances (ties shared) lie closest to an equal
// share, the largest miss smallest, then the fewest points given.
// values(starts) gives every seat's chance from those starting scores, the
// first seat to move.
struct TableHeadStarts {
  std::vector<int> starts;     // per seat, in the game's units
  std::vector<double> values;  // per seat, with them
  double miss = 0;             // the largest |value - 1/seats|
};
template <class Values>
TableHeadStarts fair_table_head_starts(Values values, int seats, int most, int most_given = INT_MAX) {
  TableHeadStarts best;
  best.miss = 2;
  int best_given = 0;
  std::vector<int> starts(std::size_t(seats), 0);
  for (;;) {
    int given = 0;
    for (int h : starts) given += h;
    if (given < most_given && *std::min_element(starts.begin(), starts.end()) == 0) {
      const std::vector<double> v = values(starts);
      double miss = 0;
      for (double x : v) miss = std::max(miss, std::abs(x - 1.0 / seats));
      if (miss < best.miss || (miss == best.miss && given < best_given)) best = {starts, v, miss}, best_given = given;
    }
    int k = 0;
    while (k < seats && ++starts[std::size_t(k)] == most) starts[std::size_t(k++)] = 0;
    if (k == seats) return best;
  }
}

// "Head starts for a fair game of 3: 0, 150 and 300 points (each seat's
// chance then ...)", the scores shown in points (`points` per unit).
inline std::string table_head_start_line(const TableHeadStarts& fair, int points) {
  std::ostringstream line;
  line.precision(6);
  line << "Head starts for a fair game of " << fair.starts.size() << ": ";
  for (std::size_t k = 0; k < fair.starts.size(); ++k)
    line << (k == 0 ? "" : k + 1 == fair.starts.size() ? " and " : ", ") << fair.starts[k] * points;
  line << " points to the seats in playing order (each seat's chance then";
  for (double v : fair.values) line << " " << v;
  line << ")";
  return line.str();
}

// The sequential_tables entry that plays those head starts, every seat the
// table solve ("opt": {"family": "optimal_win", "seats": n}).
inline std::string table_head_start_contest(const TableHeadStarts& fair, int points, int seats) {
  std::string table;
  for (std::size_t k = 0; k < fair.starts.size(); ++k)
    table += std::string(k ? ", " : "") +
             (fair.starts[k] == 0
                  ? std::string("\"opt\"")
                  : "{\"strategy\": \"opt\", \"head_start\": " + std::to_string(fair.starts[k] * points) + "}");
  return "Simulate it with a config's \"sequential_tables\": [[" + table +
         "]], \"opt\" being {\"family\": \"optimal_win\", \"seats\": " + std::to_string(seats) + "}";
}

}  // namespace dicesim
