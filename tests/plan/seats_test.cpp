// Seats are positions: a strategy may hold several seats of a table, and a
// seat of a race may start with a head start (part of the table and its key).
#include <gtest/gtest.h>

#include <string>

#include "plan/run_config.h"
#include "test_util.h"

namespace dicesim {
namespace {

RunConfig plan(const std::string& game, const json& strategies, const json& groups) {
  const json config = {{"game", game},
                       {"games", 10},
                       {"strategies", strategies},
                       {"contests", {{"distributions", false}, {"sequential_tables", groups}}}};
  return load_run_config(parse_json_text(config.dump(), "seats.json"), "seats.json");
}

std::string error_of(const std::string& game, const json& strategies, const json& groups) {
  try {
    plan(game, strategies, groups);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// ai is 0; the set hold{at} is hold15, hold20, hold25: 1, 2, 3.
const json kPigStrategies = {{{"name", "ai"}, {"family", "hold_at"}, {"at", 20}},
                             {{"name", "hold{at}"}, {"family", "hold_at"}, {"at", {15, 20, 25}}}};

TEST(Seats, AStrategyNamedInSeveralSeatsHoldsThemAll) {
  const RunConfig planned = plan("pig", kPigStrategies, json::parse(R"([["ai", "hold{at}", "ai"]])"));
  ASSERT_EQ(planned.plan.tables.size(), 3u);
  EXPECT_EQ(planned.plan.tables[0].table.seats, (std::vector<int>{0, 1, 0}));
  EXPECT_EQ(planned.plan.tables[2].table.seats, (std::vector<int>{0, 3, 0}));
  EXPECT_EQ(planned.plan.tables[0].key, R"(sequential["ai","hold15","ai"])");
}

TEST(Seats, ASetNeverGivesASeatAStrategyAnotherSeatHolds) {
  // hold20 is named in seats 1 and 2, so the set's hold20 is left out of seat 0.
  const RunConfig planned = plan("pig", kPigStrategies, json::parse(R"([["hold{at}", "hold20", "hold20"]])"));
  ASSERT_EQ(planned.plan.tables.size(), 2u);
  EXPECT_EQ(planned.plan.tables[0].table.seats, (std::vector<int>{1, 2, 2}));
  EXPECT_EQ(planned.plan.tables[1].table.seats, (std::vector<int>{3, 2, 2}));
  // A set of one stands for one strategy, as a name does: it may repeat.
  EXPECT_EQ(error_of("pig", {{{"name", "only{at}"}, {"family", "hold_at"}, {"at", {20}}}},
                     json::parse(R"([["only{at}", "only{at}"]])")),
            "");
  EXPECT_EQ(error_of("pig", kPigStrategies, json::parse(R"([["hold{at}", "hold15", "hold20", "hold25"]])")),
            "seats.json: /contests/sequential_tables/0: its sets stand for 0 strategies that no other seat holds, too "
            "few for its 1 set seat");
}

TEST(Seats, AHeadStartIsPartOfTheTableAndItsKey) {
  const RunConfig planned =
      plan("pig", kPigStrategies,
           json::parse(R"([["ai", {"strategy": "ai", "head_start": 4}], ["ai", "ai"], ["ai", {"strategy": "ai"}]])"));
  // The second and third groups are one table: a head start of 0 is none.
  ASSERT_EQ(planned.plan.tables.size(), 2u);
  EXPECT_EQ(planned.plan.tables[0].table.head_start, (std::vector<int>{0, 4}));
  EXPECT_EQ(planned.plan.tables[0].key, R"(sequential["ai",{"head_start":4,"strategy":"ai"}])");
  EXPECT_TRUE(planned.plan.tables[1].table.head_start.empty());
  EXPECT_EQ(planned.plan.tables[1].key, R"(sequential["ai","ai"])");
}

TEST(Seats, HeadStartsAreRefusedWhereTheGameHasNone) {
  const json sixers = {{{"name", "best"}, {"family", "optimal_mean"}}};
  EXPECT_EQ(error_of("sixers", sixers, json::parse(R"([["best", {"strategy": "best", "head_start": 5}]])")),
            "seats.json: /contests/sequential_tables/0/1/head_start: a Sixers table allows no head start under "
            "these rules (head starts are points at the start of a race to a goal, up to the goal less one)");
  EXPECT_EQ(error_of("pig", kPigStrategies, json::parse(R"([["ai", {"strategy": "ai", "head_start": 100}]])")),
            "seats.json: /contests/sequential_tables/0/1/head_start: expected an integer from 0 to 99, got 100");
  const json tenk = {{{"name", "ai"}, {"family", "bank_at"}, {"total", 350}}};
  EXPECT_EQ(error_of("tenk", tenk, json::parse(R"([["ai", {"strategy": "ai", "head_start": 120}]])")),
            "seats.json: /contests/sequential_tables/0/1/head_start: a head start is a multiple of 50 points, got 120");
  EXPECT_EQ(error_of("pig", kPigStrategies, json::parse(R"([["ai", {"strategy": "ai", "head": 4}]])")),
            "seats.json: /contests/sequential_tables/0/1/head: unknown key (expected one of: strategy, head_start)");
}

// A head start is played, shown in the summary beside its seat's win rate
// ("name+points"), and checked from there: 10,000 past the two-player
// solver's targets compares no first turn from a head start with one from 0.
TEST(Seats, AHeadStartIsPlayedShownAndChecked) {
  const testing::TempDir dir;
  const json pig = {{"game", "pig"},
                    {"games", 20000},
                    {"strategies", json::parse(R"([{"name": "h20", "family": "hold_at", "at": 20}])")},
                    {"contests", json::parse(R"({"distributions": false, "sequential_tables":
                                                [["h20", {"strategy": "h20", "head_start": 30}]]})")}};
  const auto shown = testing::dicesim("check " + dir.write("pig.json", pig.dump()) + " -o " + dir.file("pig.h5"));
  EXPECT_EQ(shown.exit_code, 0) << shown.out;
  EXPECT_NE(shown.out.find("wins  h20 0."), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("  h20+30 0."), std::string::npos) << shown.out;
  const json tenk = {{"game", "tenk"},
                     {"games", 20000},
                     {"rules", {{"target", 60000}}},
                     {"strategies", json::parse(R"([{"name": "b", "family": "bank_at", "total": 1000},
                                                    {"name": "c", "family": "bank_at", "total": 300}])")},
                     {"contests", json::parse(R"({"distributions": false, "sequential_tables":
                                                 [[{"strategy": "b", "head_start": 59500}, "c"]]})")}};
  const auto checked = testing::dicesim("check " + dir.write("tenk.json", tenk.dump()) + " -o " + dir.file("tenk.h5"));
  EXPECT_EQ(checked.exit_code, 0) << checked.out;
  EXPECT_NE(checked.out.find("every first turn"), std::string::npos) << checked.out;
}

}  // namespace
}  // namespace dicesim
