// Dice Battle on the engine: config -> rules and compiled strategies, a
// block of games at a table, the exact odds, `dicesim list` and
// `dicesim solve battle`.
#include <CLI/CLI.hpp>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "app/help_examples.h"
#include "games/battle/battle.h"
#include "games/battle/battle_exact.h"
#include "games/battle/battle_strategies.h"
#include "games/game.h"
#include "games/game_entries.h"

namespace dicesim::battle {
namespace {

const char* turns_name(Turns turns) { return turns == Turns::sequential ? "sequential" : "simultaneous"; }

const std::vector<Parameter>& rules_parameters() {
  static const std::vector<Parameter> all = {
      integer_parameter("max_dice", 1, kMaxDiceLimit, "D: the most dice a player may throw")
          .with_default(Rules{}.max_dice),
      integer_parameter("goal", 1, kMaxGoal, "N: the first to reach it wins").with_default(Rules{}.goal),
      choice_parameter("turns", {turns_name(Turns::sequential), turns_name(Turns::simultaneous)},
                       "sequential: players alternate; simultaneous: both choose, then throw; both at or past the "
                       "goal: the higher total wins, equal totals tie")
          .with_default(turns_name(Rules{}.turns)),
  };
  return all;
}

Rules read_rules(const JsonNode& config) {
  Rules rules;
  const std::optional<JsonNode> node = config.find("rules");
  if (!node) return rules;
  node->only_keys(keys_of(rules_parameters()));
  if (auto v = read_integer_key(*node, rules_parameters(), "max_dice")) rules.max_dice = static_cast<int>(*v);
  if (auto v = read_integer_key(*node, rules_parameters(), "goal")) rules.goal = static_cast<int>(*v);
  if (auto v = node->find("turns"))
    rules.turns = named(rules_parameters(), "turns").read_choice(*v) == turns_name(Turns::simultaneous)
                      ? Turns::simultaneous
                      : Turns::sequential;
  return rules;
}

// Games in flight per thread (see play_side_by_side).
constexpr int kGamesSideBySide = 4;

class BattleGame final : public Game {
 public:
  BattleGame(const Rules& rules, const JsonNode& config) : rules_(rules), dice_(rules.max_dice) {
    Solutions solutions(rules_);
    strategies_ = read_strategies(
        config, [&](const JsonNode& spec) { policies_.push_back(compile_strategy(spec, rules_, solutions)); });
  }

  json rules() const override {
    return {{"max_dice", rules_.max_dice}, {"goal", rules_.goal}, {"turns", turns_name(rules_.turns)}};
  }

  std::vector<Measure> measures() const override {
    return {{"score", "final score (the winner's is at least the goal)", "points", 0, 1, rules_.score_bins()},
            {"turns", "turns the seat played in the game", "turns", 0, 1, rules_.goal + 1}};
  }

  void play(const Table& table, std::uint64_t games, Rng& rng, TableCounts counts) const override {
    const int seats = static_cast<int>(table.seats.size());
    TableCounts::Histogram score[2] = {counts.histogram(0, 0), seats > 1 ? counts.histogram(0, 1) : nullptr};
    TableCounts::Histogram turns[2] = {counts.histogram(1, 0), seats > 1 ? counts.histogram(1, 1) : nullptr};
    const Policy* second = seats > 1 ? &policies_[table.seats[1]] : nullptr;
    Rng local = rng;  // a copy the compiler keeps in registers
    // Alone, a seat "wins" every game: a race against the goal.
    play_games<kGamesSideBySide>(dice_, rules_, policies_[table.seats[0]], second, games, local,
                                 [&](const GameRecord& r) {
                                   for (int s = 0; s < seats; ++s) ++score[s][r.score[s]], ++turns[s][r.turns[s]];
                                   if (r.winner >= 0) {
                                     ++counts.wins(r.winner);
                                   } else {
                                     ++counts.tie_games();
                                     ++counts.tied(0), ++counts.tied(1);
                                   }
                                 });
    rng = local;
  }

  std::optional<TableOdds> exact(const Table& table) const override {
    const Policy* second = table.seats.size() > 1 ? &policies_[table.seats[1]] : nullptr;
    Evaluation e = evaluate(rules_, policies_[table.seats[0]], second);
    TableOdds odds;
    odds.probability = {std::move(e.score), std::move(e.turns)};
    odds.win = std::move(e.win);
    odds.tie = e.tie;
    return odds;
  }

 private:
  Rules rules_;
  ThrowSampler dice_;
  std::vector<Policy> policies_;
};

std::unique_ptr<Game> load(const JsonNode& config) { return std::make_unique<BattleGame>(read_rules(config), config); }

void describe(std::ostream& out) {
  describe_rules_and_families(out, rules_parameters(), families());
  out << "  exact solver cost (check, solve battle): a pair of fixed, blind or random takes about 1 s at\n"
      << "    max_dice 20, goal 1000 (each one's race alone, then both together); a pair with optimal follows\n"
      << "    every pair of scores: throw by throw up to goal 300 (about 1 s there, with the turns played), above\n"
      << "    once in increasing score sums (about 1 s at goal 1000; no turns). The optimal policies: sequential\n"
      << "    1-5 s, simultaneous (LPs) about 4 s at the limits; solve battle --max-dice 20 --goal 1000: 9 s\n";
}

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

void add_solve_command(CLI::App& solve) {
  auto rules = std::make_shared<Rules>();
  CLI::App* cmd =
      solve.add_subcommand("battle", "P(d,k), blind d*, sequential EG, one-turn and general simultaneous games");
  cmd->footer(help_examples({"dicesim solve battle", "dicesim solve battle --max-dice 3 --goal 50"}));
  cmd->add_option("--max-dice", rules->max_dice, "the most dice a player may throw (default 10)")
      ->check(CLI::Range(1, kMaxDiceLimit));
  cmd->add_option("--goal", rules->goal, "the goal (default 100)")->check(CLI::Range(1, kMaxGoal));
  cmd->callback([rules] { print_solution(*rules); });
}

}  // namespace

GameEntry battle_entry() {
  // Two players; with sequential turns the seats are not interchangeable,
  // so blind tables (headtohead mirrors each pair) would hide who moved first.
  TableLimits tables;
  tables.max_seats = 2;
  tables.blind_rule = "turns";
  tables.blind_rule_value = "simultaneous";
  tables.why_not_blind = "Dice Battle with sequential turns has a first player";
  return {.name = "battle",
          .title = "Dice Battle",
          .description = "Dice Battle: throw 1..D dice, any 1 scores 1, else the sum; first to the goal wins",
          .tables = tables,
          .load = load,
          .rules_parameters = rules_parameters,
          .families = families,
          .measures = {"score", "turns"},
          .describe = describe,
          .add_solve_command = add_solve_command};
}

}  // namespace dicesim::battle
