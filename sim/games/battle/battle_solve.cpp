// `dicesim solve battle`: P(d,k), blind d*, the sequential game by EG(i,j),
// the one-turn and the general simultaneous game, optimal against blind.
#include <CLI/CLI.hpp>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "app/help_examples.h"
#include "app/rule_options.h"
#include "games/battle/battle.h"
#include "games/battle/battle_exact.h"
#include "games/battle/battle_game.h"
#include "games/battle/battle_strategies.h"
#include "math/head_start.h"
#include "math/matrix_game.h"

namespace dicesim::battle {
namespace {

// -0.000000 is 0.
double tidy(double x) { return std::abs(x) < 5e-13 ? 0.0 : x; }

void print_mixed(const std::vector<double>& p) {
  for (std::size_t d = 0; d < p.size(); ++d)
    if (p[d] > 5e-13) std::cout << "  d=" << d + 1 << ": " << std::setprecision(6) << p[d];
  std::cout << "\n";
}

void print_throw_table(const Rules& rules, const std::vector<std::vector<double>>& p) {
  std::cout << "P(d,k), the probability that d dice score k (blank: impossible):\n" << std::setw(5) << "k";
  for (int d = 1; d <= rules.max_dice; ++d) std::cout << std::setw(10) << ("d=" + std::to_string(d));
  std::cout << "\n";
  for (int k = 1; k <= rules.max_throw(); ++k) {
    std::ostringstream line;
    line << std::setw(5) << k;
    for (int d = 1; d <= rules.max_dice; ++d) {
      const double x = k <= 6 * d ? p[d][k] : 0.0;
      if (x == 0)
        line << std::setw(10) << "";
      else if (x < 5e-7)  // 6^-d for many dice
        line << std::setw(10) << std::scientific << std::setprecision(2) << x << std::fixed;
      else
        line << std::setw(10) << std::fixed << std::setprecision(6) << x;
    }
    std::string text = line.str();
    text.erase(text.find_last_not_of(' ') + 1);
    std::cout << text << "\n";
  }
  std::cout << "\nexpected points 4d(5/6)^d + 1 - (5/6)^d:";
  for (int d = 1; d <= rules.max_dice; ++d)
    std::cout << "  " << d << ": " << std::setprecision(4) << expected_points(d);
  std::cout << "\nblind d* = " << blind_dice(rules.max_dice) << "\n";
}

// Exact head to head of the optimal policy against the blind one; with
// sequential turns in both seatings (simultaneous turns treat seats alike).
void print_against_blind(Rules rules, Turns turns) {
  rules.turns = turns;
  Solutions solutions(rules);
  const json blind_spec = {{"family", "blind"}};
  const Policy optimal = optimal_policy(rules, solutions),
               blind = compile_strategy(JsonNode(blind_spec, "solve"), rules, solutions);
  const Evaluation first = evaluate(rules, optimal, &blind);
  const char* seating = turns == Turns::sequential ? "optimal first against blind" : "optimal against blind";
  std::cout << std::setprecision(6) << "  " << seating << ": optimal wins " << first.win[0] << ", blind "
            << first.win[1] << ", tie " << first.tie << "\n";
  if (turns == Turns::simultaneous) return;
  const Evaluation second = evaluate(rules, blind, &optimal);
  std::cout << "  blind first against optimal: optimal wins " << second.win[1] << ", blind " << second.win[0]
            << ", tie " << second.tie << "\n";
}

void print_solution(const Rules& rules) {
  std::cout << std::fixed << "Dice Battle: at most " << rules.max_dice << " dice, goal " << rules.goal << "\n\n";
  print_throw_table(rules, throw_probabilities(rules.max_dice));

  const SequentialSolution sequential = solve_sequential(rules);
  std::cout << "\nsequential game (players alternate), optimal play by the EG(i,j) recursion:\n"
            << std::setprecision(6) << "  EG(0,0) = " << tidy(sequential.expected_gain(0, 0))
            << " (the first player's P(win) - P(loss)); d*(0,0) = " << sequential.best_dice(0, 0) << "\n"
            << "  P(the first player wins) = " << sequential.first_player_wins() << "\n";
  // No ties in the sequential game: P(win) = (1 + EG) / 2.
  const std::optional<HeadStart> head = fair_head_start(
      [&](int first, int second) { return (1 + sequential.expected_gain(first, second)) / 2; }, rules.goal);
  std::cout << "  " << head_start_line(head, 1) << "\n";
  if (const std::string contest = head_start_contest(
          head, 1, "optimal", rules.max_dice == 10 && rules.goal == 100 ? "configs/battle_sequential.json" : "");
      !contest.empty())
    std::cout << "  " << contest << "\n";
  print_against_blind(rules, Turns::sequential);

  const int size = rules.max_dice;
  const std::vector<double> matrix = one_turn_matrix(size);
  std::cout << "\none-turn simultaneous game: EG1(d1,d2) = P(player 1 scores more) - P(player 2 scores more)\n"
            << std::setw(6) << "d1\\d2";
  for (int d2 = 1; d2 <= size; ++d2) std::cout << std::setw(8) << d2;
  std::cout << "\n";
  for (int d1 = 1; d1 <= size; ++d1) {
    std::cout << std::setw(6) << d1 << std::setprecision(4);
    for (int d2 = 1; d2 <= size; ++d2) std::cout << std::setw(8) << tidy(matrix[(d1 - 1) * size + d2 - 1]);
    std::cout << "\n";
  }
  const MatrixGameSolution one_turn = solve_matrix_game(matrix, size, size);
  std::cout << "  equilibrium (LP):";
  print_mixed(one_turn.row_strategy);
  std::cout << "  value = " << std::setprecision(6) << tidy(one_turn.value) << "\n";

  Rules simultaneous_rules = rules;
  simultaneous_rules.turns = Turns::simultaneous;
  Solutions solutions(simultaneous_rules);
  const SimultaneousSolution& general = solutions.simultaneous();
  const Policy optimal = optimal_policy(simultaneous_rules, solutions);
  const Evaluation self = evaluate(simultaneous_rules, optimal, &optimal);
  std::cout << "\ngeneral simultaneous game (both at or past the goal in one turn: higher total wins, equal tie):\n"
            << "  " << rules.goal * rules.goal << " states solved backwards from the goal, " << general.linear_programs
            << " of them by LP (the others have a pure saddle point), in " << std::setprecision(3) << general.seconds
            << " s\n"
            << std::setprecision(6) << "  value V(0,0) = " << tidy(general.game_value(0, 0)) << "\n"
            << "  equilibrium at (0,0):";
  print_mixed(general.mixed(0, 0));
  std::cout << "  equilibrium play against itself: each player wins " << self.win[0] << ", tie " << self.tie << "\n";
  print_against_blind(rules, Turns::simultaneous);
}

}  // namespace

void add_solve_command(CLI::App& solve) {
  CLI::App* cmd =
      solve.add_subcommand("battle", "P(d,k), blind d*, sequential EG, one-turn and general simultaneous games");
  cmd->footer(help_examples({"dicesim solve battle", "dicesim solve battle --max-dice 3 --goal 50"}));
  // Both kinds of turns are solved: "turns" is no option.
  auto rules = std::make_shared<RuleOptions>(*cmd, rules_parameters(), std::vector<std::string_view>{"turns"});
  cmd->callback([rules] {
    const json given = {{"rules", rules->given()}};
    print_solution(read_rules(JsonNode(given, "command line")));
  });
}

}  // namespace dicesim::battle
