#include "games/yahtzee/yahtzee_heuristics.h"

#include <algorithm>

namespace dicesim::yahtzee {
namespace {

using Aim = Heuristic::Aim;

// Where a zero goes when nothing scores: the cheapest boxes first.
int scratch_rank(const Rules& rules, int box) {
  if (box == 0 || box == 1) return box;
  if (rules.boxes()[box] == Box::yahtzee) return 2;
  return box + 1;
}

// The face shown most often (the higher face on ties) and how often.
int most_common_face(const FaceCounts& c, int& count) {
  int face = 1;
  count = 0;
  for (int f = 1; f <= kFaces; ++f)
    if (c[f - 1] >= count) face = f, count = c[f - 1];
  return face;
}

bool open(const Card& card, int box) { return !(card.filled >> box & 1); }

// How `h` rates scoring `o`: its points, pushed towards the upper bonus.
int rating(const ScoreTable& table, const Heuristic& h, const Card& card, const Outcome& o) {
  int r = o.points;
  if (o.box < kUpperBoxes && card.upper < table.rules().bonus_threshold)
    r += h.bonus_push * (o.points - 3 * (o.box + 1));
  return r;
}

// The outcome `h` scores roll r as: upper_first takes an open upper box
// whose face shows `par` times or more; otherwise the best rating wins, ties
// to the cheaper box to scratch.
Outcome choose_outcome(const ScoreTable& table, const Heuristic& h, const Card& card, int roll) {
  const FaceCounts& c = keepers().counts(keepers().roll_keeper(roll));
  Outcome best{};
  bool found = false;
  int best_rating = 0, upper_count = -1;
  for_each_scoring(table, card, roll, [&](const Outcome& o) {
    if (h.aim == Aim::upper_first && o.box < kUpperBoxes && c[o.box] >= h.par && o.points == (o.box + 1) * c[o.box]) {
      // Ties: the higher face, which comes later.
      if (c[o.box] >= upper_count) upper_count = c[o.box], best = o, found = true;
      return;
    }
    if (upper_count >= 0) return;
    const int r = rating(table, h, card, o);
    if (!found || r > best_rating ||
        (r == best_rating && scratch_rank(table.rules(), o.box) < scratch_rank(table.rules(), best.box)))
      best = o, best_rating = r, found = true;
  });
  return best;
}

// The dice that count towards box b, from throw c.
FaceCounts dice_for(const Rules& rules, int b, const FaceCounts& c) {
  FaceCounts keep{};
  int count;
  const int face = most_common_face(c, count);
  auto run_of = [&](int from, int to) {
    for (int f = from; f <= to; ++f) keep[f - 1] = c[f - 1] > 0;
  };
  switch (rules.boxes()[b]) {
    case Box::full_house:
    case Box::yatzy_full_house:
      for (int f = 0; f < kFaces; ++f) keep[f] = static_cast<std::uint8_t>(c[f] >= 2 ? std::min<int>(c[f], 3) : 0);
      return keep;
    case Box::small_straight:
    case Box::large_straight: {
      // The longest run of faces shown (the higher on ties), one die each.
      int best_from = 1, best_len = 0;
      for (int from = 1; from <= kFaces; ++from) {
        int len = 0;
        while (from + len <= kFaces && c[from + len - 1] > 0) ++len;
        if (len >= best_len) best_from = from, best_len = len;
      }
      run_of(best_from, best_from + best_len - 1);
      return keep;
    }
    case Box::yatzy_small_straight:
      run_of(1, 5);
      return keep;
    case Box::yatzy_large_straight:
      run_of(2, 6);
      return keep;
    case Box::chance:
      for (int f = 4; f <= kFaces; ++f) keep[f - 1] = c[f - 1];
      return keep;
    case Box::one_pair:
    case Box::two_pairs: {
      int pairs = 0;
      for (int f = kFaces; f >= 1; --f)
        if (c[f - 1] >= 2 && pairs < (rules.boxes()[b] == Box::one_pair ? 1 : 2)) keep[f - 1] = 2, ++pairs;
      return keep;
    }
    default:
      if (b < kUpperBoxes) {
        keep[b] = c[b];
      } else if (count >= 2) {  // kinds and Yahtzee: the most common face
        keep[face - 1] = static_cast<std::uint8_t>(count);
      }
      return keep;
  }
}

// The keeper `h` keeps from roll r with throws still to come; `target` is
// where it would score r now.
int choose_keep(const ScoreTable& table, const Heuristic& h, const Card& card, int roll, const Outcome& target) {
  const Keepers& k = keepers();
  const FaceCounts& c = k.counts(k.roll_keeper(roll));
  const Rules& rules = table.rules();
  int count;
  const int face = most_common_face(c, count);
  FaceCounts keep{};
  if (h.aim == Aim::keep_most) {
    if (count >= h.min_count) keep[face - 1] = static_cast<std::uint8_t>(count);
    return k.index(keep);
  }
  // Both cards have a box for five of a kind (Yatzy's pays no bonus).
  const int five_box =
      static_cast<int>(std::find(rules.boxes().begin(), rules.boxes().end(), Box::yahtzee) - rules.boxes().begin());
  const bool yahtzee_worth = open(card, five_box) || card.yahtzee_50;
  if (h.aim == Aim::best_box && count >= h.yahtzee_from && yahtzee_worth) {
    keep[face - 1] = static_cast<std::uint8_t>(count);
    return k.index(keep);
  }
  if (h.aim == Aim::upper_first) {
    int best = -1;
    for (int f = 1; f <= kFaces; ++f)
      if (open(card, f - 1) && c[f - 1] > 0 && (best < 0 || c[f - 1] >= c[best - 1])) best = f;
    if (best > 0) {
      keep[best - 1] = c[best - 1];
      return k.index(keep);
    }
  }
  // A box already made at its fixed score: keep everything.
  const Box box = rules.boxes()[target.box];
  const bool made = target.points > 0 &&
                    (box == Box::full_house || box == Box::small_straight || box == Box::large_straight ||
                     box == Box::yahtzee || box == Box::yatzy_small_straight || box == Box::yatzy_large_straight);
  if (made) return k.roll_keeper(roll);
  if (target.points == 0 && target.box >= kUpperBoxes) {
    if (count >= 2) keep[face - 1] = static_cast<std::uint8_t>(count);
    return k.index(keep);
  }
  return k.index(dice_for(rules, target.box, c));
}

}  // namespace

void heuristic_plan(const ScoreTable& table, const Heuristic& h, const Card& card, TurnPlan& plan) {
  for (int r = 0; r < kRolls; ++r) {
    const Outcome scored = choose_outcome(table, h, card, r);
    plan.outcome[r] = static_cast<std::uint16_t>(scored.code());
    const int keep = choose_keep(table, h, card, r, scored);
    for (int s = 0; s + 1 < table.rules().rolls; ++s) plan.keep[s][r] = static_cast<std::uint16_t>(keep);
  }
}

}  // namespace dicesim::yahtzee
