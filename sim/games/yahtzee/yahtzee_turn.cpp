#include "games/yahtzee/yahtzee_turn.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace dicesim::yahtzee {
namespace {

// Adds the dice still to throw to every keeper's weight, one die at a time
// (smallest keepers first), so that each weight ends on a roll of five dice.
void throw_rest(std::array<std::uint64_t, kKeepers>& weight, const Die& die) {
  const Keepers& k = keepers();
  std::uint64_t face_weight[kFaces];
  for (int f = 1; f <= kFaces; ++f) face_weight[f - 1] = die.weight(f);
  for (int size = 0; size < kDice; ++size)
    for (int keeper : k.of_size(size)) {
      const std::uint64_t w = weight[keeper];
      if (w == 0) continue;
      weight[keeper] = 0;
      for (int f = 1; f <= kFaces; ++f) weight[k.with(keeper, f)] += w * face_weight[f - 1];
    }
}

// Each keeper's expected value from the values of the five-dice rolls: the
// mean over the next die's faces, largest keepers first.
void expect_back(std::array<double, kKeepers>& value) {
  const Keepers& k = keepers();
  for (int size = kDice - 1; size >= 0; --size)
    for (int keeper : k.of_size(size)) {
      double sum = 0;
      for (int f = 1; f <= kFaces; ++f) sum += value[k.with(keeper, f)];
      value[keeper] = sum / kFaces;
    }
}

}  // namespace

OutcomeWeights turn_weights(const TurnPlan& plan, int rolls, const Die& die) {
  const Keepers& k = keepers();
  std::array<std::uint64_t, kKeepers> weight{};
  weight[k.empty()] = 1;
  throw_rest(weight, die);
  for (int s = 0; s + 1 < rolls; ++s) {
    std::array<std::uint64_t, kKeepers> kept{};
    for (int r = 0; r < kRolls; ++r) {
      const int keeper = plan.keep[s][r];
      // Kept dice count sides each, so that every path ends out of sides^5 more.
      std::uint64_t w = weight[k.roll_keeper(r)];
      for (int d = 0; d < k.size(keeper); ++d) w *= std::uint64_t(die.sides);
      kept[keeper] += w;
    }
    weight = kept;
    throw_rest(weight, die);
  }
  // Rolls ending on one outcome summed by code (a roll's code at most 2^11).
  thread_local std::array<std::uint64_t, kOutcomeCodes> by_code{};
  std::array<std::uint16_t, kRolls> touched;
  int n = 0;
  for (int r = 0; r < kRolls; ++r) {
    const std::uint64_t w = weight[k.roll_keeper(r)];
    if (w == 0) continue;
    if (by_code[plan.outcome[r]] == 0) touched[n++] = plan.outcome[r];
    by_code[plan.outcome[r]] += w;
  }
  std::sort(touched.begin(), touched.begin() + n);
  OutcomeWeights out;
  out.reserve(std::size_t(n));
  for (int i = 0; i < n; ++i) out.emplace_back(touched[i], std::exchange(by_code[touched[i]], 0));
  return out;
}

double best_turn(const CardSpace& space, const ScoreTable& table, const Card& c, const double* values, TurnPlan* plan) {
  const Keepers& k = keepers();
  constexpr double kNone = -std::numeric_limits<double>::infinity();
  // The value of ending the turn with outcome o: its points and what follows.
  auto worth = [&](const Outcome& o) {
    int gained = 0;
    const Card next = space.after(c, o, gained);
    return gained + values[space.index(next)];
  };
  std::array<double, kKeepers> value;
  std::array<double, kRolls> final_value;
  final_value.fill(kNone);
  const int boxes = space.boxes();
  for (int b = 0; b < boxes; ++b) {
    if (c.filled >> b & 1) continue;
    double by_points[64];
    bool known[64] = {};
    for (int r = 0; r < kRolls; ++r) {
      if (table.yahtzee_face(r)) continue;  // below, with the joker
      const int points = table.points(b, r);
      if (!known[points]) known[points] = true, by_points[points] = worth(Outcome{b, points, false});
      if (by_points[points] > final_value[r]) {
        final_value[r] = by_points[points];
        if (plan) plan->outcome[r] = static_cast<std::uint16_t>(Outcome{b, points, false}.code());
      }
    }
  }
  for (int r = 0; r < kRolls; ++r) {
    if (!table.yahtzee_face(r)) continue;
    for_each_scoring(table, c, r, [&](const Outcome& o) {
      const double v = worth(o);
      if (v > final_value[r]) {
        final_value[r] = v;
        if (plan) plan->outcome[r] = static_cast<std::uint16_t>(o.code());
      }
    });
  }
  for (int r = 0; r < kRolls; ++r) value[k.roll_keeper(r)] = final_value[r];
  expect_back(value);
  for (int s = table.rules().rolls - 2; s >= 0; --s) {
    std::array<double, kRolls> chosen;
    for (int r = 0; r < kRolls; ++r) {
      double best = kNone;
      int best_keeper = 0;
      for (int keeper : k.keeps_of(r))
        if (value[keeper] > best) best = value[keeper], best_keeper = keeper;
      chosen[r] = best;
      if (plan) plan->keep[s][r] = static_cast<std::uint16_t>(best_keeper);
    }
    for (int r = 0; r < kRolls; ++r) value[k.roll_keeper(r)] = chosen[r];
    expect_back(value);
  }
  return value[k.empty()];
}

}  // namespace dicesim::yahtzee
