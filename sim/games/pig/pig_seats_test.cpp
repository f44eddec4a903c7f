// optimal_win with "seats" (games/pig/pig_game.cpp): the engine plays the
// table solve's decisions (each seat by its own index and every seat's
// score), its exact odds come from the table solve with every seat's
// decisions fixed, it sits only at a table of its seat count, and at two
// seats it is the two-player optimal_win.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numeric>

#include "config/json_input.h"
#include "engine/rng.h"
#include "games/game.h"
#include "games/pig/pig_exact.h"
#include "games/pig/pig_game.h"
#include "games/pig/pig_strategies.h"
#include "games/pig/pig_table_win.h"
#include "math/stats.h"
#include "test_util.h"

namespace dicesim::pig {
namespace {

json strategy(const std::string& name, const json& family) {
  json spec = family;
  spec["name"] = name;
  return spec;
}
json solved(int seats) { return {{"family", "optimal_win"}, {"seats", seats}}; }
json holding_at(int at) { return {{"family", "hold_at"}, {"at", at}}; }

std::unique_ptr<PigGame> pig_game(const Rules& rules, const json& strategies) {
  const json config = {
      {"game", "pig"}, {"rules", {{"dice", rules.dice}, {"goal", rules.goal}}}, {"strategies", strategies}};
  return load_game(JsonNode(config, "test"), fair_die());
}

// Each seat's wins in `games` games at the table.
std::vector<std::int64_t> play_wins(const Game& game, const Table& table, std::uint64_t games, std::uint64_t seed) {
  const int seats = static_cast<int>(table.seats.size());
  const std::vector<int> bins = game.measure_bins();
  std::vector<std::int64_t> data(TableCounts::size(seats, bins), 0);
  Rng rng = block_rng(seed, 0, 0);
  game.play(table, games, rng, TableCounts(data.data(), seats, bins));
  const TableCountsView counts(data.data(), seats, bins);
  std::vector<std::int64_t> wins;
  for (int s = 0; s < seats; ++s) wins.push_back(counts.wins(s));
  return wins;
}

void expect_monte_carlo_agrees(const Game& game, const Table& table, const std::vector<double>& exact,
                               std::uint64_t games, const std::string& what) {
  const std::vector<std::int64_t> wins = play_wins(game, table, games, 7);
  ASSERT_EQ(exact.size(), wins.size()) << what;
  for (std::size_t s = 0; s < wins.size(); ++s)
    EXPECT_LT(std::abs(stats::rate_z(std::uint64_t(wins[s]), games, exact[s])), 5.0) << what << " seat " << s;
}

double total(const std::vector<double>& p) { return std::accumulate(p.begin(), p.end(), 0.0); }

// Three seats of it win as the table solve, computed here on its own, says;
// Monte Carlo of the engine's play agrees at |z| < 5, one die and two.
TEST(PigSolvedSeats, ATableOfTheSolvedPolicyWinsAsTheSolveSays) {
  for (int dice : {1, 2}) {
    const Rules rules{dice, dice == 1 ? 30 : 20};
    const auto game = pig_game(rules, json::array({strategy("opt3", solved(3))}));
    const Table table{{0, 0, 0}, true};
    const TableWin solve = solve_table_win(rules, 3);
    const int start[kMostTableSeats] = {};
    const std::vector<double> expected(solve.value(0, start).begin(), solve.value(0, start).begin() + 3);
    const TableOdds odds = *game->exact(table);
    ASSERT_EQ(odds.win.size(), 3u);
    for (int s = 0; s < 3; ++s) EXPECT_DOUBLE_EQ(odds.win[s], expected[s]) << dice << " dice, seat " << s;
    EXPECT_FALSE(odds.not_compared.empty());  // score and turns
    expect_monte_carlo_agrees(*game, table, expected, 400'000, std::to_string(dice) + " dice");
  }
}

// The solved seat among hold_at seats, in each seat: it plays its own
// seat's decisions (its index, every seat's score). The exact odds (the
// table solve, every seat's decisions fixed) sum to 1, the solved seat
// does better than either hold_at would in its place, and Monte Carlo
// agrees.
TEST(PigSolvedSeats, MixedTablesExactOddsSumToOneAndMatchMonteCarlo) {
  const Rules rules{1, 30};
  const auto game = pig_game(rules, {strategy("opt3", solved(3)), strategy("hold_at 10", holding_at(10)),
                                     strategy("hold_at 15", holding_at(15))});
  for (const std::vector<int>& seats : {std::vector<int>{0, 1, 2}, {1, 0, 2}, {2, 1, 0}}) {
    const Table table{seats, true};
    const TableOdds odds = *game->exact(table);
    ASSERT_EQ(odds.win.size(), 3u);
    EXPECT_NEAR(total(odds.win), 1, 1e-12);
    const std::size_t solved_seat = std::size_t(std::find(seats.begin(), seats.end(), 0) - seats.begin());
    for (int instead : {1, 2}) {  // the solved seat playing hold_at 10, then hold_at 15, instead
      std::vector<Decision> fixed;
      for (std::size_t s = 0; s < 3; ++s)
        fixed.push_back(hold_at_decision(s == solved_seat ? (instead == 1 ? 10 : 15) : seats[s] == 1 ? 10 : 15));
      const int start[kMostTableSeats] = {};
      EXPECT_GT(odds.win[solved_seat], solve_table_win(rules, 3, fixed).value(0, start)[solved_seat]);
    }
    expect_monte_carlo_agrees(
        *game, table, odds.win, 400'000,
        "seats " + std::to_string(seats[0]) + std::to_string(seats[1]) + std::to_string(seats[2]));
  }
}

// At two seats the table solve is the two-player optimal_win: the same
// exact odds against hold_at and against itself, and Monte Carlo of the
// solved seat agrees with the two-player policy's exact odds.
TEST(PigSolvedSeats, TwoSeatsAgreeWithTheTwoPlayerOptimalWin) {
  const Rules rules{1, 40};
  const auto game = pig_game(rules, {strategy("opt2", solved(2)), strategy("optimal_win", {{"family", "optimal_win"}}),
                                     strategy("hold_at 20", holding_at(20))});
  for (const auto& [solved_pair, two_player_pair] :
       {std::pair{std::vector<int>{0, 2}, std::vector<int>{1, 2}}, {{2, 0}, {2, 1}}, {{0, 0}, {1, 1}}}) {
    const TableOdds got = *game->exact(Table{solved_pair, true});
    const TableOdds expected = *game->exact(Table{two_player_pair, true});
    ASSERT_EQ(got.win.size(), 2u);
    for (int s = 0; s < 2; ++s) EXPECT_NEAR(got.win[s], expected.win[s], 1e-11) << "seat " << s;
    EXPECT_NEAR(game->win_probability(solved_pair[0], solved_pair[1]), expected.win[0], 1e-11);
    expect_monte_carlo_agrees(*game, Table{solved_pair, true}, expected.win, 400'000, "two seats");
  }
  EXPECT_NEAR(game->exact(Table{{0, 0}, true})->win[0], solve_optimal_win(rules).win(0, 0), 1e-11);
}

bool mentions(const TableOdds& odds, const std::string& text) {
  return std::any_of(odds.not_compared.begin(), odds.not_compared.end(),
                     [&](const std::string& line) { return line.find(text) != std::string::npos; });
}

// Where the table solve cannot value a table that watches the scores, the
// win is left out and check is told why: a seat that plans its turns, more
// seats than it solves, and two dice past three seats at goal 60 unless a
// seat plays the solve (whose passes take minutes at goal 100). A
// score-watching table it values matches Monte Carlo (two dice with a
// solved seat: the tests above).
TEST(PigSolvedSeats, TablesTheSolveCannotValueSayWhy) {
  const json strategies = {strategy("opt3", solved(3)),
                           strategy("optimal_win", {{"family", "optimal_win"}}),
                           strategy("hold_at 10", holding_at(10)),
                           strategy("hold_at 15", holding_at(15)),
                           strategy("turns 2", {{"family", "optimal_turns"}, {"turns", 2}}),
                           strategy("hold_at 12", holding_at(12)),
                           strategy("hold_at 8", holding_at(8))};
  const auto one_die = pig_game(Rules{1, 40}, strategies);  // to goal 30 optimal_win ignores the opponent
  const TableOdds planned = *one_die->exact(Table{{0, 4, 2}, true});
  EXPECT_TRUE(planned.win.empty());
  EXPECT_TRUE(mentions(planned, "\"turns 2\" plans its turns"));
  const TableOdds five = *one_die->exact(Table{{1, 2, 3, 5, 6}, true});
  EXPECT_TRUE(five.win.empty());
  EXPECT_TRUE(mentions(five, "a table of 5 needs the joint state"));
  const TableOdds watched = *one_die->exact(Table{{1, 2, 3}, true});
  ASSERT_EQ(watched.win.size(), 3u);
  EXPECT_NEAR(total(watched.win), 1, 1e-12);
  expect_monte_carlo_agrees(*one_die, Table{{1, 2, 3}, true}, watched.win, 400'000, "two-player optimal_win at 3");

  const auto two_dice = pig_game(Rules{2, 61}, strategies);
  const TableOdds left = *two_dice->exact(Table{{1, 2, 3}, true});
  EXPECT_TRUE(left.win.empty());
  EXPECT_TRUE(mentions(left, "with two dice the table solve takes passes"));
}

// Writes a config of a solved seat at a table and runs it: the exit code and
// the output.
testing::CommandResult run_config(const testing::TempDir& dir, const json& config) {
  const std::string path = dir.file("config.json");
  json complete = config;
  complete["games"] = 1000;
  std::ofstream(path) << complete.dump();
  return testing::dicesim("run " + path + " -o " + dir.file("out.h5"));
}

// "sequential_tables" from lists of names (a braced list of two strings
// would be a JSON object).
json tables(const std::vector<std::vector<std::string>>& groups) {
  json out = json::array();
  for (const auto& group : groups) out.push_back(group);
  return out;
}

int lines(const std::string& text) { return static_cast<int>(std::count(text.begin(), text.end(), '\n')); }

// A table of another size than its "seats", or a distribution (alone), is
// refused at plan time in one line naming the strategy, exit 2; so is a
// table solve too large for memory, when the config is read.
TEST(PigSolvedSeats, TablesOfAnotherSizeAreRefused) {
  const testing::TempDir dir;
  const json strategies = {strategy("opt3", solved(3)), strategy("hold_at 20", holding_at(20)),
                           strategy("hold_at 25", holding_at(25)), strategy("hold_at 15", holding_at(15))};
  const json rules = {{"goal", 30}};
  for (const json& contests :
       {json{{"distributions", false}, {"sequential_tables", tables({{"opt3", "hold_at 20"}})}},
        json{{"distributions", false},
             {"sequential_tables", tables({{"hold_at 20", "opt3", "hold_at 25", "hold_at 15"}})}},
        json{{"distributions", false}, {"sequential", {"opt3", "hold_at 20"}}},
        json{{"sequential_tables", tables({{"opt3", "hold_at 20", "hold_at 25"}})}}}) {
    const auto result =
        run_config(dir, {{"game", "pig"}, {"rules", rules}, {"strategies", strategies}, {"contests", contests}});
    EXPECT_EQ(result.exit_code, 2) << contests.dump() << "\n" << result.out;
    EXPECT_EQ(lines(result.out), 1) << result.out;
    EXPECT_NE(result.out.find("\"opt3\" plays only at tables of exactly 3 players"), std::string::npos) << result.out;
  }
  const auto fits = run_config(
      dir, {{"game", "pig"},
            {"rules", rules},
            {"strategies", strategies},
            {"contests",
             {{"distributions", false}, {"sequential_tables", tables({{"opt3", "hold_at 20", "hold_at 25"}})}}}});
  EXPECT_EQ(fits.exit_code, 0) << fits.out;
  // Four seats with two dice at goal 100: every value is kept between passes, 17 GiB.
  const auto too_large = run_config(dir, {{"game", "pig"},
                                          {"rules", {{"dice", 2}}},
                                          {"strategies", json::array({strategy("opt4", solved(4))})},
                                          {"contests", {{"distributions", false}}}});
  EXPECT_EQ(too_large.exit_code, 2) << too_large.out;
  EXPECT_EQ(lines(too_large.out), 1) << too_large.out;
  EXPECT_NE(too_large.out.find("/strategies/0/seats"), std::string::npos) << too_large.out;
}

// A head start: optimal_win against itself is valued at the solve's state
// (0, 4), and a race of hold_at seats (each one's turns alone) agrees with
// the walk over both scores from the same start.
TEST(PigHeadStart, TheExactOddsStartFromTheHeadStart) {
  const Rules rules{1, 40};
  const auto game =
      pig_game(rules, {strategy("optimal_win", {{"family", "optimal_win"}}), strategy("hold_at 20", holding_at(20))});
  const TableOdds optimal = *game->exact(Table{{0, 0}, true, {0, 4}});
  EXPECT_NEAR(optimal.win[0], solve_optimal_win(rules).win(0, 4), 1e-11);
  const TableOdds race = *game->exact(Table{{1, 1}, true, {3, 10}});
  const Policy hold = hold_at(rules, 20);
  const TurnOutcomes outcomes(rules, hold);
  const std::optional<Evaluation> walk =
      evaluate_outcomes(rules, {&outcomes, &outcomes}, 2 * rules.goal + 1, true, {3, 10});
  for (int s = 0; s < 2; ++s) {
    EXPECT_NEAR(race.win[s], walk->win[s], 1e-12) << s;
    for (int score = 0; score < rules.score_bins(); ++score)
      EXPECT_NEAR(race.probability[0][s][score], walk->score[s][score], 1e-12) << s << " " << score;
  }
  // One die never takes a banked score back: seat 1 ends at 10 or more.
  for (int score = 0; score < 10; ++score) EXPECT_EQ(race.probability[0][1][score], 0.0);
  expect_monte_carlo_agrees(*game, Table{{1, 1}, true, {3, 10}}, race.win, 400'000, "hold_at 20 from 3 and 10");
}

}  // namespace
}  // namespace dicesim::pig
