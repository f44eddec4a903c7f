// The checked build (DICESIM_CHECKED) aborts on any index out of a table's
// counters, instead of counting in the next seat's or measure's histogram.
#include <gtest/gtest.h>

#include <vector>

#include "engine/table.h"

namespace dicesim {
namespace {

#ifdef DICESIM_CHECKED

// Two seats, two measures of 3 and 5 bins.
struct TwoSeats {
  std::vector<int> bins{3, 5};
  std::vector<std::int64_t> data = std::vector<std::int64_t>(TableCounts::size(2, bins));
  TableCounts counts{data.data(), 2, bins};
};

TEST(CheckedTableDeathTest, AnIndexOutOfRangeAborts) {
  TwoSeats t;
  ++t.counts.histogram(0, 1)[2];  // the last bin of the last seat: fine
  ++t.counts.histogram(1, 1)[4];
  EXPECT_EQ(t.data[2 * 3 + 5 + 4], 1);  // after measure 0 (2 seats x 3 bins) and seat 0 of measure 1
  EXPECT_DEATH(++t.counts.histogram(0, 0)[3], "bin 3 out of range \\[0, 3\\)");  // seat 1's first bin
  EXPECT_DEATH(++t.counts.histogram(1, 0)[-1], "bin -1 out of range");
  EXPECT_DEATH(++t.counts.score(1, 3), "bin 3 out of range");  // measure 1's first bin
  EXPECT_DEATH(t.counts.histogram(2, 0), "measure 2 out of range \\[0, 2\\)");
  EXPECT_DEATH(t.counts.histogram(0, 2), "seat 2 out of range \\[0, 2\\)");
  EXPECT_DEATH(++t.counts.wins(2), "seat 2 out of range");
  EXPECT_DEATH(++t.counts.tied(-1), "seat -1 out of range");
  EXPECT_DEATH(t.counts.histogram_of(0, 2), "seat 2 out of range");
}

#endif

}  // namespace
}  // namespace dicesim
