// The limits of planning: the total game count past 2^63 - 1 is refused, and
// planning a group whose sets cannot fill its seats ends at once.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "plan/run_config.h"
#include "test_util.h"

namespace dicesim {
namespace {

TEST(PlanningLimits, TheTotalGameCountIsRefusedPast2To63) {
  EXPECT_FALSE(too_many_games(9223, 1'000'000'000'000'000ULL));
  const std::optional<std::string> why = too_many_games(39402, 1'000'000'000'000'000ULL);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("39402000000000000000 games in all"), std::string::npos) << *why;
  // --games checks the total too: 100 strategies, 9900 ordered pairs.
  const testing::TempDir dir;
  const json config = {
      {"game", "tenk"},
      {"games", 1},
      {"strategies",
       {{{"name", "bank{total}"}, {"family", "bank_at"}, {"total", {{"from", 350}, {"to", 5300}, {"step", 50}}}}}},
      {"contests", {{"distributions", false}, {"sequential", true}}}};
  const std::string file = dir.write("many.json", config.dump());
  const auto result = testing::dicesim("run " + file + " --games 1e15 --dry-run");
  EXPECT_EQ(result.exit_code, 2) << result.out;
  EXPECT_EQ(result.out,
            "--games: 9900 tables of 1000000000000000 games make 9900000000000000000 games in all, more "
            "than 2^63 - 1 (the most a run counts)\n");
}

// Planning a group whose sets cannot fill its seats ends at once (it was
// exponential in the seats), and where they can, every seating is planned
// once, in the order of the names.
TEST(PlanningLimits, PlanningSeatsOnlyWhatCanBeFilled) {
  const auto plan = [](const json& groups) {
    const json config = {{"game", "pig"},
                         {"games", 10},
                         {"strategies",
                          {{{"name", "a{at}"}, {"family", "hold_at"}, {"at", {{"from", 10}, {"to", 22}}}},
                           {{"name", "b{at}"}, {"family", "hold_at"}, {"at", {{"from", 30}, {"to", 31}}}}}},
                         {"contests", {{"distributions", false}, {"sequential_tables", groups}}}};
    return load_run_config(parse_json_text(config.dump(), "plan.json"), "plan.json");
  };
  const auto start = std::chrono::steady_clock::now();
  json fourteen = json::array();
  for (int seat = 0; seat < 14; ++seat) fourteen.push_back("a{at}");
  fourteen.push_back("b{at}");
  EXPECT_THROW(plan(json::array({fourteen})), InputError);  // 14 seats from 13 strategies
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_THROW(plan({{"b{at}", "b{at}", "b{at}"}}), InputError);
  // Overlapping sets: the tables are every seating of different strategies,
  // in the order of the sets' members seat by seat (a10..a22 are 0..12,
  // b30 and b31 13 and 14).
  const RunConfig planned = plan({{"a{at}", "b{at}", "a{at}", "b{at}"}});
  std::vector<std::vector<int>> expected;
  for (int a = 0; a < 13; ++a)
    for (int b = 13; b < 15; ++b)
      for (int c = 0; c < 13; ++c)
        if (c != a) expected.push_back({a, b, c, b == 13 ? 14 : 13});
  ASSERT_EQ(planned.plan.tables.size(), expected.size());
  for (std::size_t t = 0; t < expected.size(); ++t) EXPECT_EQ(planned.plan.tables[t].table.seats, expected[t]) << t;
}

}  // namespace
}  // namespace dicesim
