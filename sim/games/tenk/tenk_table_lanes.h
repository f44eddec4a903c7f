// The numbers the table solve (tenk_table_win.h) keeps side by side for
// every state, as "lanes": each seat's utility, then, where ties can happen
// (IV.3, an exact target), each seat's chance of winning alone, and in the
// last lane the coefficient of what a bust (or an answer's failure) hands
// over. The width is fixed per table shape (4, 8 or 12 lanes) so that the
// compiler keeps a throw's sum over its outcomes in vector registers: the
// solve spends nearly all its time in that sum.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace dicesim::tenk {

constexpr int kMostTableWinSeats = 4;

using SeatNumbers = std::array<double, kMostTableWinSeats>;

struct TableWinOdds {
  SeatNumbers win{};      // P(the seat wins alone)
  SeatNumbers utility{};  // win + each shared win's chance / the seats sharing it: what the seat maximises
};

template <int L>
struct alignas(32) Lanes {
  std::array<double, L> v{};
  void add(const Lanes& o, double p) {
    for (int i = 0; i < L; ++i) v[i] += p * o.v[i];
  }
  double handed() const { return v[L - 1]; }  // the coefficient of what a bust hands over
  Lanes without_handed() const {
    Lanes out = *this;
    out.v[L - 1] = 0;
    return out;
  }
};

// The outcomes of every throw, flattened: throw s's are [first[s],
// first[s + 1]), each with its chance and where it lands in a row of
// landings (offset), and bust[s] the chance that it scores nothing.
struct ThrowArrays {
  int states = 0;
  const int* first = nullptr;
  const int* offset = nullptr;
  const double* probability = nullptr;
  const double* bust = nullptr;
};

// Every throw's value from one turn total: go[s] is the sum over throw s's
// outcomes of their chance * the lanes where each lands (from[offset]), and
// its bust chance in the last lane. The inner loop of the table solve
// (tenk_table_kernel.cpp), built twice, for AVX2 and for any x86-64, chosen
// when the program loads: the same additions and multiplications in the
// same order (no fused multiply-add: the build sets no -mfma or -march), so
// the same numbers on every machine.
void throw_row(const Lanes<4>* from, const ThrowArrays& throws, Lanes<4>* go);
void throw_row(const Lanes<8>* from, const ThrowArrays& throws, Lanes<8>* go);
void throw_row(const Lanes<12>* from, const ThrowArrays& throws, Lanes<12>* go);

// Where each number sits in the lanes of a table of `seats`.
struct LaneLayout {
  int seats = 0;
  bool ties = false;
  int stored() const { return ties ? 2 * seats : seats; }  // numbers kept per turn start
  int win(int seat) const { return ties ? seats + seat : seat; }
  // A place solve (solve_table_places, three seats) keeps other numbers in
  // as many lanes: seat k's chance of finishing last (strictly below both
  // others) in lane k and, where ties can happen, its chance of finishing
  // first (alone or shared) in lane seats + k.
  int last(int seat) const { return seat; }
  int first(int seat) const { return seats + seat; }
  // The lanes a table needs: the stored numbers and the handed coefficient, in fours.
  int width() const { return (stored() + 1 + 3) / 4 * 4; }

  template <int L>
  Lanes<L> won_by(int seat) const {
    Lanes<L> lanes;
    lanes.v[seat] = lanes.v[win(seat)] = 1;
    return lanes;
  }
  template <int L>
  TableWinOdds odds(const Lanes<L>& lanes) const {
    TableWinOdds out;
    for (int k = 0; k < seats; ++k) out.utility[k] = lanes.v[k], out.win[k] = lanes.v[win(k)];
    return out;
  }
  template <int L>
  Lanes<L> lanes(const TableWinOdds& odds) const {
    Lanes<L> out;
    for (int k = 0; k < seats; ++k) out.v[k] = odds.utility[k], out.v[win(k)] = odds.win[k];
    return out;
  }
};

// Calls f(std::integral_constant<int, L>{}) for the layout's width.
template <class F>
decltype(auto) with_lane_width(const LaneLayout& layout, F&& f) {
  switch (layout.width()) {
    case 4:
      return f(std::integral_constant<int, 4>{});
    case 8:
      return f(std::integral_constant<int, 8>{});
    case 12:
      return f(std::integral_constant<int, 12>{});
  }
  throw std::logic_error("tenk: a table of " + std::to_string(layout.seats) + " seats has no lane width");
}

}  // namespace dicesim::tenk
