// `dicesim solve pig`: the seed's reach-the-goal tables and stop numbers,
// optimal_win's P(win), and with --config every pair's exact P(win).
#include <CLI/CLI.hpp>
#include <chrono>
#include <climits>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>

#include "app/help_examples.h"
#include "app/rule_options.h"
#include "engine/engine.h"
#include "engine/jobs.h"
#include "games/pig/pig.h"
#include "games/pig/pig_exact.h"
#include "games/pig/pig_game.h"
#include "games/pig/pig_table_win.h"
#include "math/equilibrium.h"
#include "math/head_start.h"
#include "plan/run_config.h"
#include "results/strategy_matrix.h"

namespace dicesim::pig {
namespace {

struct SolveOptions {
  std::unique_ptr<RuleOptions> rules;
  int turns = 0;
  bool optimal = false;
  int seats = 2;
  std::string config;
};

void print_turns_tables(const Rules& rules, int turns) {
  const TurnsSolution solution = solve_turns(rules, turns);
  const auto table = [&](const std::string& title, auto cell, int precision) {
    std::cout << title << "\n" << std::setw(6) << "score";
    for (int n = 1; n <= turns; ++n) std::cout << std::setw(7) << n;
    std::cout << "\n" << std::fixed << std::setprecision(precision);
    for (int s = rules.goal - 1; s >= 0; --s) {
      std::cout << std::setw(6) << s;
      for (int n = 1; n <= turns; ++n) std::cout << std::setw(7) << cell(n, s);
      std::cout << "\n";
    }
  };
  table(
      "P(reach " + std::to_string(rules.goal) +
          " within N turns), percent, by banked score at the start of a turn (columns: N)",
      [&](int n, int s) { return 100 * solution.reach[n][s]; }, 1);
  std::cout << "\n";
  table(
      "Stop numbers: hold once the turn total reaches this (columns: N turns left)",
      [&](int n, int s) { return solution.stop[n][s]; }, 0);
  if (!solution.thresholds) std::cout << "(some rows are not thresholds: a stop number is the last switch to hold)\n";
}

void print_optimal(const Rules& rules) {
  const auto start = std::chrono::steady_clock::now();
  const WinSolution solution = solve_optimal_win(rules);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "optimal_win (both players play it):\n"
            << std::fixed << std::setprecision(6) << "  P(first player wins)  " << solution.win(0, 0) << "\n"
            << "  P(second player wins) " << 1 - solution.win(0, 0) << "\n"
            << std::setprecision(3) << "  solved in " << seconds << " s (" << solution.passes
            << (solution.passes == 1 ? " pass" : " passes") << " over the " << rules.goal * rules.goal
            << " turn-start states), " << solution.policy.distinct_rows() << " distinct policy rows\n";
  const std::optional<HeadStart> head =
      fair_head_start([&](int first, int second) { return solution.win(first, second); }, rules.goal);
  std::cout << "  " << head_start_line(head, 1) << "\n";
  if (const std::string contest = head_start_contest(
          head, 1, "optimal_win", rules.dice == 1 && rules.goal == 100 ? "configs/pig_one_die.json" : "");
      !contest.empty())
    std::cout << "  " << contest << "\n";
}

// Whether the decisions settled (passes that cycled, score tuples whose
// rounds cycled and how they were settled, passes stopped at their limit),
// and how far from an equilibrium the decisions returned are: one more
// solve per seat.
void print_settling(const Rules& rules, const TableWin& table) {
  std::cout << std::setprecision(3) << std::defaultfloat;
  const bool settled = !table.cycle && table.unsettled_tuples == 0 && table.passes_settled;
  if (settled)
    std::cout << "  settled: every score tuple's decisions"
              << (table.cycled_tuples > 0 ? " (by rounds of best replies or, where they cycled, below)" : "")
              << ", and the passes\n";
  if (table.cycle)
    std::cout << "  not settled: the passes returned to earlier decisions " << table.cycle->returns
              << " times (best replies cycling; the last pass changed " << table.cycle->flipped
              << " decisions and moved a value by " << table.cycle->change << ")\n";
  if (table.cycled_tuples > 0)
    std::cout << "  cycled: at " << table.cycled_tuples << (table.cycled_tuples == 1 ? " score tuple" : " score tuples")
              << " rounds of best replies cycled; there the seats play an equilibrium of the tuple's turns found on "
                 "their best-turn paths, mixed at "
              << table.mixed_tuples
              << " (some seats randomise one decision each; no seat gains there by another turn, most "
              << table.most_cycled_gain << ")\n";
  if (table.unsettled_tuples > 0)
    std::cout << "  not settled: at " << table.unsettled_tuples
              << (table.unsettled_tuples == 1 ? " score tuple" : " score tuples")
              << " rounds of best replies did not settle (cycling within the tuple), and no equilibrium of its turns "
                 "was found on the seats' best-turn paths\n";
  if (!table.passes_settled)
    std::cout << "  not settled: the passes stopped at their limit with the values still moving\n";
  if (!settled) std::cout << "  the chances above are those of the last decisions, evaluated exactly\n";
  std::istringstream lines(
      deviation_gain_lines(deviation_gains(rules, table), "its best reply's passes did not settle"));
  for (std::string line; std::getline(lines, line);) std::cout << "  " << line << "\n";
}

// Each seat's chance at a table of three or more where every seat plays to win.
void print_optimal_table(const Rules& rules, int seats) {
  if (const std::string why = table_win_refusal(rules, seats); !why.empty()) throw InputError("--seats: " + why);
  const TableWin table = solve_table_win(rules, seats);
  const int start[kMostTableSeats] = {};
  std::cout << "optimal_win at a table of " << seats
            << " (each seat maximises its own chance of winning, the others doing the same):\n"
            << std::fixed << std::setprecision(6);
  for (int seat = 0; seat < seats; ++seat)
    std::cout << "  P(seat " << seat + 1 << " wins) " << table.value(0, start)[std::size_t(seat)] << "\n";
  std::cout << std::setprecision(3) << "  solved in " << table.seconds << " s (" << table.passes
            << (table.passes == 1 ? " pass" : " passes") << " over the " << table.turn_starts()
            << " turn-start states)\n";
  print_settling(rules, table);
  const TableHeadStarts fair = fair_table_head_starts(
      [&](const std::vector<int>& starts) {
        const SeatOdds& odds = table.value(0, starts.data());
        return std::vector<double>(odds.begin(), odds.begin() + seats);
      },
      seats, rules.goal, table.kept_below_sum());
  std::cout << "  " << table_head_start_line(fair, 1) << "\n  " << table_head_start_contest(fair, 1, seats) << "\n";
  if (table.kept_below_sum() < INT_MAX)
    std::cout << "  (head starts searched among those summing below " << table.kept_below_sum()
              << ": the values the solve keeps at this size)\n";
}

void print_matrix(const std::string& file, const RuleOptions& given) {
  json document = parse_json_file(file);
  if (document.is_object()) document["rules"] = given.over(document.value("rules", json::object()));
  const RunConfigOf<PigGame> config = load_run_config_of_game(std::move(document), file, "pig", load_game);
  const PigGame& game = *config.game;
  const std::size_t count = game.strategies().size();
  std::vector<double> win(count * count);
  // Every pair first, so that the progress line never interleaves with the table.
  run_jobs(win.size(), usable_threads(available_cpus()), "solve pig: pair",
           [&](std::size_t pair) { win[pair] = game.win_probability(int(pair / count), int(pair % count)); });
  print_strategy_matrix(std::cout, "P(row wins), the row playing first (exact):", game.strategies(), 6,
                        [&](std::size_t i, std::size_t j) -> std::optional<MatrixCell> {
                          if (std::isnan(win[i * count + j]))
                            return std::nullopt;  // a pair neither strategy can sit at
                          return MatrixCell{win[i * count + j]};
                        });
}

void solve(const SolveOptions& options) {
  if (!options.config.empty()) {
    print_matrix(options.config, *options.rules);
    return;
  }
  const json given = {{"rules", options.rules->given()}};
  const Rules rules = read_rules(JsonNode(given, "command line"));
  std::cout << "Pig: " << rules.dice << (rules.dice == 1 ? " die" : " dice") << ", goal " << rules.goal << "\n\n";
  const int turns = options.turns == 0 && !options.optimal ? 4 : options.turns;
  if (turns > 0) print_turns_tables(rules, turns);
  if (turns > 0 && options.optimal) std::cout << "\n";
  if (options.optimal) options.seats == 2 ? print_optimal(rules) : print_optimal_table(rules, options.seats);
}

}  // namespace

void add_solve_command(CLI::App& solve_cmd) {
  auto options = std::make_shared<SolveOptions>();
  CLI::App* cmd = solve_cmd.add_subcommand("pig", "the seed's reach-the-goal tables and the optimal win probability");
  cmd->footer(help_examples({"dicesim solve pig --dice 2 --turns 4", "dicesim solve pig --dice 1 --optimal",
                             "dicesim solve pig --optimal --seats 3 --goal 50",
                             "dicesim solve pig --config configs/pig_two_dice.json"}));
  options->rules = std::make_unique<RuleOptions>(*cmd, rules_parameters());
  cmd->add_option("--turns", options->turns, "print P(reach the goal within N turns) and stop numbers, N = 1..turns")
      ->check(CLI::Range(1, kMaxPhases));
  CLI::Option* optimal =
      cmd->add_flag("--optimal", options->optimal, "print the first player's P(win) under optimal play");
  cmd->add_option(
         "--seats", options->seats,
         "with --optimal: players at the table (2 to " + std::to_string(kMostTableSeats) +
             "; three at goal 100 takes about a minute with the deviation gains it prints, four about 20 minutes and "
             "12 GiB, and an hour more for its gains)")
      ->check(CLI::Range(2, kMostTableSeats))
      ->needs(optimal);
  cmd->add_option("--config", options->config, "print the exact P(win) of every ordered pair of a config's strategies");
  cmd->callback([options] { solve(*options); });
}

}  // namespace dicesim::pig
