// The fair head start (math/head_start.h): the search, and what `solve`
// prints for each race game from its two-player solver.
#include "math/head_start.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "games/pig/pig.h"
#include "games/pig/pig_exact.h"
#include "test_util.h"

namespace dicesim {
namespace {

// A first seat whose chance falls by 0.03 a point of the second's head start
// (and rises as much with its own).
double linear_race(int first, int second) { return 0.56 + 0.03 * (first - second); }

TEST(HeadStart, FindsTheHeadStartClosestToFairForTheSeatBehind) {
  const std::optional<HeadStart> head = fair_head_start(linear_race, 100);
  ASSERT_TRUE(head);
  EXPECT_FALSE(head->to_first);  // the first seat is favoured: the second gets it
  EXPECT_EQ(head->closest, 2);   // 0.50 exactly
  EXPECT_EQ(head->flips, 3);     // 0.47: the second seat now favoured
  EXPECT_NEAR(head->before_flip_value, 0.50, 1e-12);
  const auto second_favoured = [](int first, int second) { return linear_race(first, second) - 0.12; };  // 0.44
  const std::optional<HeadStart> other = fair_head_start(second_favoured, 100);
  ASSERT_TRUE(other);
  EXPECT_TRUE(other->to_first);
  EXPECT_EQ(other->closest, 2);
  EXPECT_FALSE(fair_head_start([](int, int) { return 0.9; }, 100));  // nothing below the target evens it
}

// Pig's head start, from the solver, is the one whose first-seat chance is
// nearest one half among every head start to the goal.
TEST(HeadStart, PigsIsTheClosestToOneHalfOfEveryHeadStart) {
  for (const int dice : {1, 2}) {
    pig::Rules rules;
    rules.dice = dice;
    const pig::WinSolution solution = pig::solve_optimal_win(rules);
    const std::optional<HeadStart> head =
        fair_head_start([&](int first, int second) { return solution.win(first, second); }, rules.goal);
    ASSERT_TRUE(head) << dice;
    for (int h = 0; h < rules.goal; ++h)
      EXPECT_LE(std::abs(head->closest_value - 0.5), std::abs(solution.win(0, h) - 0.5) + 1e-15) << dice << " " << h;
    const auto solve = testing::dicesim("solve pig --optimal --dice " + std::to_string(dice));
    EXPECT_NE(solve.out.find(head_start_line(head, 1)), std::string::npos) << solve.out;
  }
}

TEST(HeadStart, EveryRaceGamesSolvePrintsIt) {
  const testing::TempDir dir;
  const std::string tenk = dir.write(
      "tenk.json",
      R"({"game": "tenk", "games": 1000, "rules": {"target": 2000}, "strategies": [{"name": "ev", "family": "ev_heuristic"}, {"name": "b", "family": "bank_at", "total": 350}],
          "contests": {"distributions": false, "sequential": true}})");
  const std::string cache = "DICESIM_CACHE_DIR=" + dir.path().string() + " ";
  for (const std::string& command :
       std::vector<std::string>{"solve battle", "solve pig --optimal", "solve tenk --win --config " + tenk}) {
    const auto solve = testing::run_shell(cache + DICESIM_BINARY + " " + command);
    EXPECT_EQ(solve.exit_code, 0) << command << "\n" << solve.out;
    EXPECT_NE(solve.out.find("Head start for a fair game: "), std::string::npos) << command << "\n" << solve.out;
    EXPECT_NE(solve.out.find("Simulate it with a config's \"sequential_tables\": [["), std::string::npos)
        << command << "\n"
        << solve.out;
  }
}

// The contest that plays a head start puts it on the seat behind, and names
// the shipped config only where one plays it.
TEST(HeadStart, TheContestPutsItOnTheSeatBehind) {
  HeadStart second;
  second.closest = 4;
  EXPECT_EQ(head_start_contest(second, 1, "o", ""),
            R"(Simulate it with a config's "sequential_tables": [["o", {"strategy": "o", "head_start": 4}]])");
  HeadStart first;
  first.to_first = true;
  first.closest = 2;
  EXPECT_EQ(head_start_contest(first, 50, "o", "configs/x.json"),
            R"(Simulate it with a config's "sequential_tables": [[{"strategy": "o", "head_start": 100}, "o"]] )"
            R"((configs/x.json plays it; build/dicesim check configs/x.json compares it with the exact odds))");
  EXPECT_EQ(head_start_contest(std::nullopt, 1, "o", ""), "");
}

// At a table of three the search finds the starting scores that even the
// seats out: here seat k's share grows with c_k + 0.01 * its head start, so
// (12, 6, 0) makes every share a third, and no fewer points do.
TEST(HeadStart, AtATableOfThreeTheSearchFindsTheStartsThatEvenTheSeatsOut) {
  const std::vector<double> edge = {-0.06, 0, 0.06};
  const auto values = [&](const std::vector<int>& starts) {
    std::vector<double> weight;
    double total = 0;
    for (std::size_t k = 0; k < 3; ++k) total += weight.emplace_back(1 + edge[k] + 0.01 * starts[k]);
    for (double& w : weight) w /= total;
    return weight;
  };
  const TableHeadStarts fair = fair_table_head_starts(values, 3, 40);
  EXPECT_EQ(fair.starts, (std::vector<int>{12, 6, 0}));
  EXPECT_LT(fair.miss, 1e-12);
  EXPECT_EQ(table_head_start_line(fair, 50).rfind("Head starts for a fair game of 3: 600, 300 and 0 points", 0), 0u)
      << table_head_start_line(fair, 50);
  EXPECT_EQ(table_head_start_contest(fair, 50, 3),
            R"(Simulate it with a config's "sequential_tables": [[{"strategy": "opt", "head_start": 600}, )"
            R"({"strategy": "opt", "head_start": 300}, "opt"]], "opt" being {"family": "optimal_win", "seats": 3})");
}

}  // namespace
}  // namespace dicesim
