// A table: strategies seated in order, playing games against each other.
// The engine's unit of work; every contest in a config is a set of tables.
#pragma once

#include <cstdint>
#include <vector>

namespace dicesim {

constexpr int kMaxSeats = 16;

struct Table {
  std::vector<int> seats;   // strategy indices, in seating (playing) order
  bool sequential = false;  // later seats see the earlier seats' results
};

// The counters of one table, laid out in a flat int64 block so that the
// engine can add blocks without knowing what they mean:
//   scores[seat][bin], wins[seat], tied[seat], tie_games
// wins: the seat alone won; tied: the seat shared the win; tie_games: games
// whose win was shared.
template <class Count>  // std::int64_t to fill, const std::int64_t to read
class BasicTableCounts {
 public:
  static std::size_t size(int seats, int bins) { return std::size_t(seats) * bins + 2 * std::size_t(seats) + 1; }

  BasicTableCounts(Count* data, int seats, int bins) : data_(data), seats_(seats), bins_(bins) {}

  Count& score(int seat, int bin) const { return data_[std::size_t(seat) * bins_ + bin]; }
  Count& wins(int seat) const { return data_[std::size_t(seats_) * bins_ + seat]; }
  Count& tied(int seat) const { return data_[std::size_t(seats_) * bins_ + seats_ + seat]; }
  Count& tie_games() const { return data_[std::size_t(seats_) * bins_ + 2 * seats_]; }
  std::vector<std::int64_t> scores_of(int seat) const {
    return {data_ + std::size_t(seat) * bins_, data_ + std::size_t(seat + 1) * bins_};
  }
  int seats() const { return seats_; }

 private:
  Count* data_;
  int seats_;
  int bins_;
};
using TableCounts = BasicTableCounts<std::int64_t>;
using TableCountsView = BasicTableCounts<const std::int64_t>;

// The exact counterpart of a table's counters.
struct TableOdds {
  std::vector<std::vector<double>> score_probability;  // per seat, per score bin
  std::vector<double> win;                             // per seat, alone
  double tie = 0;                                      // the win is shared
};

}  // namespace dicesim
