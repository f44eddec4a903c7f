#include "games/yahtzee/yahtzee_rules.h"

#include <algorithm>

namespace dicesim::yahtzee {
namespace {

int total(const FaceCounts& c) {
  int sum = 0;
  for (int f = 0; f < kFaces; ++f) sum += (f + 1) * c[f];
  return sum;
}

// The highest face shown at least `n` times, or 0.
int highest_with(const FaceCounts& c, int n) {
  for (int f = kFaces; f >= 1; --f)
    if (c[f - 1] >= n) return f;
  return 0;
}

// The longest run of consecutive faces shown.
int longest_run(const FaceCounts& c) {
  int best = 0, run = 0;
  for (int f = 0; f < kFaces; ++f) {
    run = c[f] > 0 ? run + 1 : 0;
    best = std::max(best, run);
  }
  return best;
}

bool full_house(const FaceCounts& c) {
  return std::count(c.begin(), c.end(), 3) == 1 && std::count(c.begin(), c.end(), 2) == 1;
}

bool shows_all(const FaceCounts& c, int from, int to) {
  for (int f = from; f <= to; ++f)
    if (c[f - 1] == 0) return false;
  return true;
}

int two_pairs(const FaceCounts& c) {
  int pairs = 0, sum = 0;
  for (int f = kFaces; f >= 1; --f)
    if (c[f - 1] >= 2 && pairs < 2) ++pairs, sum += 2 * f;
  return pairs == 2 ? sum : 0;
}

}  // namespace

std::string_view box_name(Box box) {
  static constexpr std::string_view names[] = {"ones",           "twos",           "threes",          "fours",
                                               "fives",          "sixes",          "three_of_a_kind", "four_of_a_kind",
                                               "full_house",     "small_straight", "large_straight",  "yahtzee",
                                               "chance",         "one_pair",       "two_pairs",       "three_of_a_kind",
                                               "four_of_a_kind", "small_straight", "large_straight",  "full_house"};
  return names[static_cast<int>(box)];
}

int five_of_a_kind(const FaceCounts& c) { return highest_with(c, 5); }

int box_points(Box box, const FaceCounts& c) {
  const int b = static_cast<int>(box);
  if (b < kUpperBoxes) return (b + 1) * c[b];
  switch (box) {
    case Box::three_kind:
      return highest_with(c, 3) ? total(c) : 0;
    case Box::four_kind:
      return highest_with(c, 4) ? total(c) : 0;
    case Box::full_house:
      return full_house(c) ? 25 : 0;
    case Box::small_straight:
      return longest_run(c) >= 4 ? 30 : 0;
    case Box::large_straight:
      return longest_run(c) >= 5 ? 40 : 0;
    case Box::yahtzee:
      return five_of_a_kind(c) ? 50 : 0;
    case Box::chance:
      return total(c);
    case Box::one_pair:
      return 2 * highest_with(c, 2);
    case Box::two_pairs:
      return two_pairs(c);
    case Box::yatzy_three_kind:
      return 3 * highest_with(c, 3);
    case Box::yatzy_four_kind:
      return 4 * highest_with(c, 4);
    case Box::yatzy_small_straight:
      return shows_all(c, 1, 5) ? 15 : 0;
    case Box::yatzy_large_straight:
      return shows_all(c, 2, 6) ? 20 : 0;
    case Box::yatzy_full_house:
      return full_house(c) ? total(c) : 0;
    default:
      return 0;
  }
}

const std::vector<Box>& Rules::boxes() const {
  using enum Box;
  static const std::vector<Box> yahtzee_card = {ones,           twos,       threes,    fours,      fives,
                                                sixes,          three_kind, four_kind, full_house, small_straight,
                                                large_straight, yahtzee,    chance};
  static const std::vector<Box> yatzy_card = {ones,
                                              twos,
                                              threes,
                                              fours,
                                              fives,
                                              sixes,
                                              one_pair,
                                              two_pairs,
                                              yatzy_three_kind,
                                              yatzy_four_kind,
                                              yatzy_small_straight,
                                              yatzy_large_straight,
                                              yatzy_full_house,
                                              chance,
                                              Box::yahtzee};
  return card == CardKind::yahtzee ? yahtzee_card : yatzy_card;
}

int Rules::yahtzee_box() const {
  if (card != CardKind::yahtzee) return -1;
  const auto& b = boxes();
  return static_cast<int>(std::find(b.begin(), b.end(), Box::yahtzee) - b.begin());
}

int Rules::max_score() const {
  const Keepers& k = keepers();
  int top = 0;
  for (Box box : boxes()) {
    int best = 0;
    for (int r = 0; r < kRolls; ++r) best = std::max(best, box_points(box, k.counts(k.roll_keeper(r))));
    // A joker pays a lower box in full: at most the box's own best.
    top += best;
  }
  top += upper_bonus;
  if (has_yahtzee_bonus()) top += 100 * (box_count() - 1);
  return top;
}

ScoreTable::ScoreTable(const Rules& rules) : rules_(rules) {
  const Keepers& k = keepers();
  const std::vector<Box>& boxes = rules.boxes();
  for (int r = 0; r < kRolls; ++r) {
    const FaceCounts& c = k.counts(k.roll_keeper(r));
    yahtzee_face_[r] = static_cast<std::uint8_t>(five_of_a_kind(c));
    for (std::size_t b = 0; b < boxes.size(); ++b) points_[b][r] = static_cast<std::uint8_t>(box_points(boxes[b], c));
  }
}

}  // namespace dicesim::yahtzee
