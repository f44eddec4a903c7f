// The printed summaries: aligned columns that never cut a name, estimates
// with their 95% intervals, "-" where a strategy meets itself.
#include <gtest/gtest.h>

#include <sstream>

#include "math/stats.h"
#include "results/text_columns.h"
#include "test_util.h"

namespace dicesim {
namespace {

using testing::dicesim;
using testing::TempDir;

TEST(Summary, AnEstimateCarriesTheHalfWidthOfIts95PercentInterval) {
  EXPECT_EQ(with_interval(0.50814, 0.00104, 4), "0.5081 \u00b10.0010");
  // 5,000 wins in 10,000 games: 1.96 * sqrt(0.25 / 10,000).
  EXPECT_NEAR(stats::rate_half_width(5000, 10000), 0.0098, 0.00001);
  EXPECT_NEAR(stats::mean_half_width(2.0, 400), 0.196, 0.0001);
  EXPECT_EQ(stats::rate_half_width(0, 0), 0);
}

TEST(Summary, ColumnsAreAsWideAsTheirWidestCell) {
  TextColumns table;
  table.add_row({"", "a_strategy_with_a_long_name", "b"});
  table.add_row({"x", "0.5000 \u00b10.0100", "-"});
  std::ostringstream out;
  table.print(out);
  EXPECT_EQ(out.str(),
            "   a_strategy_with_a_long_name  b\n"
            "x               0.5000 \u00b10.0100  -\n");
  EXPECT_EQ(display_width("0.5 \u00b10.1"), 8u);
}

TEST(Summary, RunPrintsWholeNamesIntervalsAndADashOnTheDiagonal) {
  TempDir dir;
  const std::string config = dir.write("c.json", R"J({"game": "pig", "games": 2000,
    "strategies": [{"name": "hold_at_twenty_points_always", "family": "hold_at", "at": 20},
                   {"name": "hold_at_twenty_five_points", "family": "hold_at", "at": 25}],
    "contests": {"distributions": true, "sequential": true}})J");
  const auto run = dicesim("run " + config + " -o " + dir.file("c.h5"));
  ASSERT_EQ(run.exit_code, 0) << run.out;
  EXPECT_NE(run.out.find("hold_at_twenty_points_always"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("hold_at_twenty_five_points"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find(" \u00b10.0"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("P(min)"), std::string::npos) << "a race has no least score that wins:\n" << run.out;
  const auto solve = dicesim("solve sixers --headtohead");
  ASSERT_EQ(solve.exit_code, 0) << solve.out;
  const std::string matrix = solve.out.substr(solve.out.find("P(row wins) head to head"));
  EXPECT_EQ(matrix.find("0.000000"), std::string::npos) << matrix;
  EXPECT_NE(matrix.find("  -"), std::string::npos) << matrix;
}

}  // namespace
}  // namespace dicesim
