// A table: strategies seated in order, playing games against each other.
// The engine's unit of work; every contest of a config (headtohead, nway, ...) is a set of tables.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/device.h"

namespace dicesim {

constexpr int kMaxSeats = 16;
constexpr int kMaxMeasures = 8;  // histograms a game may record per seat

// In a checked build (DICESIM_CHECKED: CMake's -DDICESIM_CHECKED=ON or a
// Debug build), every index into a table's counters is checked, because a
// wrong bin would otherwise land silently in the next seat's histogram.
[[noreturn]] inline void counter_index_out_of_range(const char* what, std::ptrdiff_t index, std::ptrdiff_t size) {
  std::fprintf(stderr, "dicesim: table counters: %s %td out of range [0, %td)\n", what, index, size);
  std::abort();
}
// (On a GPU, unchecked: the host build runs the same code checked.)
DICESIM_HD inline void check_counter_index([[maybe_unused]] const char* what, [[maybe_unused]] std::ptrdiff_t index,
                                           [[maybe_unused]] std::ptrdiff_t size) {
#if defined(DICESIM_CHECKED) && !defined(__CUDA_ARCH__)
  if (index < 0 || index >= size) counter_index_out_of_range(what, index, size);
#endif
}

#ifdef DICESIM_CHECKED
// One histogram's bins, each access checked against their number.
template <class Count>
class CheckedBins {
 public:
  CheckedBins() = default;
  CheckedBins(std::nullptr_t) {}  // as a pointer would be, for a seat the table does not have
  DICESIM_HD CheckedBins(Count* first, int bins) : first_(first), bins_(bins) {}
  DICESIM_HD Count& operator[](std::ptrdiff_t bin) const {
    check_counter_index("bin", bin, bins_);
    return first_[bin];
  }

 private:
  Count* first_ = nullptr;
  int bins_ = 0;
};
template <class Count>
using Bins = CheckedBins<Count>;
#else
template <class Count>
using Bins = Count*;  // the hot loops index the histogram directly
#endif

struct Table {
  std::vector<int> seats;   // strategy indices, in seating (playing) order (a strategy may hold several)
  bool sequential = false;  // later seats see the earlier seats' results
  // The points each seat starts with in a race to a goal (a head start), in
  // the game's units; empty: every seat starts at 0.
  std::vector<int> head_start = {};

  int start(int seat) const { return head_start.empty() ? 0 : head_start[std::size_t(seat)]; }
  bool has_head_start() const {
    for (int points : head_start)
      if (points != 0) return true;
    return false;
  }
};

// The counters of one table, laid out in a flat int64 block so that the
// engine can add blocks without knowing what they mean:
//   histogram[measure][seat][bin] for each of the game's measures, then
//   wins[seat], tied[seat], tie_games
// wins: the seat alone won; tied: the seat shared the win; tie_games: games
// whose win was shared. Measure 0 is the score that decides games.
template <class Count>  // std::int64_t to fill, const std::int64_t to read
class BasicTableCounts {
 public:
  // bins: the number of bins of each measure.
  static std::size_t size(int seats, std::span<const int> bins) {
    std::size_t total = 2 * std::size_t(seats) + 1;
    for (int b : bins) total += std::size_t(seats) * b;
    return total;
  }

  BasicTableCounts() = default;  // no counters, no layout
  BasicTableCounts(Count* data, int seats, std::span<const int> bins) : data_(data), seats_(seats) {
    if (bins.empty() || bins.size() > std::size_t(kMaxMeasures))
      throw std::logic_error("a game records between 1 and kMaxMeasures measures");
    measures_ = static_cast<int>(bins.size());
    start_[0] = 0;
    for (int m = 0; m < measures_; ++m) {
      bins_[m] = bins[m];
      start_[m + 1] = start_[m] + std::size_t(seats) * bins[m];
    }
  }

  // The same layout over other counters (a GPU thread's own block's).
  DICESIM_HD BasicTableCounts rebased(Count* data) const {
    BasicTableCounts moved = *this;
    moved.data_ = data;
    return moved;
  }

  // A seat's bins of a measure: Count* in a plain build, bounds-checked bins in a checked one.
  using Histogram = Bins<Count>;
  DICESIM_HD Histogram histogram(int measure, int seat) const {
#ifdef DICESIM_CHECKED
    return {first_bin(measure, seat), bins_[measure]};
#else
    return first_bin(measure, seat);
#endif
  }
  DICESIM_HD Count& score(int seat, int bin) const { return histogram(0, seat)[bin]; }
  DICESIM_HD Count& wins(int seat) const {
    check_counter_index("seat", seat, seats_);
    return data_[start_[measures_] + seat];
  }
  DICESIM_HD Count& tied(int seat) const {
    check_counter_index("seat", seat, seats_);
    return data_[start_[measures_] + seats_ + seat];
  }
  DICESIM_HD Count* data() const { return data_; }
  DICESIM_HD Count& tie_games() const { return data_[start_[measures_] + 2 * seats_]; }
  std::vector<std::int64_t> histogram_of(int measure, int seat) const {
    const Count* first = first_bin(measure, seat);
    return {first, first + bins_[measure]};
  }
  std::vector<std::int64_t> scores_of(int seat) const { return histogram_of(0, seat); }
  int seats() const { return seats_; }
  int measures() const { return measures_; }
  int bins(int measure) const { return bins_[measure]; }

 private:
  DICESIM_HD Count* first_bin(int measure, int seat) const {
    check_counter_index("measure", measure, measures_);
    check_counter_index("seat", seat, seats_);
    return data_ + start_[measure] + std::size_t(seat) * bins_[measure];
  }

  Count* data_ = nullptr;
  int seats_ = 0;
  int measures_ = 0;
  std::array<int, kMaxMeasures> bins_{};
  std::array<std::size_t, kMaxMeasures + 1> start_{};
};
using TableCounts = BasicTableCounts<std::int64_t>;
using TableCountsView = BasicTableCounts<const std::int64_t>;

// The exact counterpart of a table's counters, as far as the game knows it.
struct TableOdds {
  // probability[measure][seat][bin]; an empty vector, or a measure beyond
  // the end, means the game has no exact distribution for it.
  std::vector<std::vector<std::vector<double>>> probability;
  std::vector<double> win;  // per seat, P(wins alone); empty when not known
  double tie = 0;           // P(the win is shared), when win is known
  // What the solver leaves out at this table although the game counts it,
  // and why, one line each ("win, tie and place: max_rounds 5 ..."): check
  // prints them.
  std::vector<std::string> not_compared;

  const std::vector<double>* distribution(int measure, int seat) const {
    if (std::size_t(measure) >= probability.size() || std::size_t(seat) >= probability[measure].size()) return nullptr;
    const std::vector<double>& p = probability[measure][seat];
    return p.empty() ? nullptr : &p;
  }
};

}  // namespace dicesim
