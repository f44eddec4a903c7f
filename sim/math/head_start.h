// The head start that makes a two-player race fairest: the least number of
// points given to the seat behind at the start that brings the first seat's
// chance closest to one half. Each game's two-player solver gives the first
// seat's chance at any pair of starting scores; this header only searches.
#pragma once

#include <cmath>
#include <optional>
#include <sstream>
#include <string>

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

}  // namespace dicesim
