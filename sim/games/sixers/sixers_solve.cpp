// `dicesim solve sixers`: exact means, sd and P(0) of strategies, z and
// head-to-head matrices, optimal_win in every seat of a sequential table.
#include <CLI/CLI.hpp>
#include <cmath>
#include <iomanip>
#include <iostream>

#include "app/help_examples.h"
#include "app/rule_options.h"
#include "config/terminal_text.h"
#include "games/sixers/sixers.h"
#include "games/sixers/sixers_exact.h"
#include "games/sixers/sixers_game.h"
#include "games/sixers/sixers_strategies.h"
#include "math/stats.h"
#include "plan/run_config.h"
#include "results/strategy_matrix.h"

namespace dicesim::sixers {
namespace {

struct SolveOptions {
  std::unique_ptr<RuleOptions> rules;
  std::string config;
  std::vector<std::string> strategies;
  std::uint64_t z_games = 0;
  bool headtohead = false;
};

// P(win) of each seat at sequential tables of 2..8 optimal_win players.
void print_win_seats(const SixersGame& game) {
  constexpr int kMostPlayers = 8;
  std::cout << "\noptimal_win in every seat of a sequential table: P(seat wins alone), P(tie)\n";
  if (win_seat_states(game.hands()) > kMaxWinStates) {
    std::cout << "(not solved: these rules are beyond optimal_win's limit)\n";
    return;
  }
  std::cout << std::left << std::setw(8) << "players" << std::right;
  for (int seat = 1; seat <= kMostPlayers; ++seat) std::cout << std::setw(10) << "seat " + std::to_string(seat);
  std::cout << std::setw(10) << "tie" << std::setprecision(6) << "\n";
  for (int players = 2; players <= kMostPlayers; ++players) {
    std::vector<const Policy*> seats;
    for (int seat = 0; seat < players; ++seat)
      seats.push_back(&game.solutions().optimal_win(players - 1 - seat).policy);
    const TableOdds odds = table_odds(game.hands(), seats, true);
    std::cout << std::left << std::setw(8) << players << std::right;
    for (int seat = 0; seat < kMostPlayers; ++seat)
      if (seat < players)
        std::cout << std::setw(10) << odds.win[seat];
      else
        std::cout << std::setw(10) << "";
    std::cout << std::setw(10) << odds.tie << "\n";
  }
}

// The config that `solve sixers` solves: --config as `run` loads it (so
// whatever run refuses is refused), then the command line's rules and
// strategies on top; without --config, the command line's alone.
RunConfigOf<SixersGame> solve_config(const SolveOptions& options) {
  json config = {{"game", "sixers"}, {"games", std::uint64_t{1}}, {"strategies", json::array()}};
  std::string source = "command line";
  if (!options.config.empty()) {
    source = options.config;
    config = load_run_config_of_game(parse_json_file(options.config), source, "sixers").document;
  }
  config["rules"] = options.rules->over(config.value("rules", json::object()));
  for (const std::string& text : options.strategies) {
    json spec = strategy_from_text(text);
    spec["name"] = text;
    config["strategies"].push_back(spec);
  }
  if (config["strategies"].empty())
    config["strategies"].push_back({{"name", "optimal_mean"}, {"family", "optimal_mean"}});
  return load_run_config_of_game(std::move(config), source, "sixers", load_game);
}

void print_solution(const SolveOptions& options) {
  const RunConfigOf<SixersGame> config = solve_config(options);
  const SixersGame& game = *config.game;
  const Rules& r = game.hands().rules();

  std::cout << "Sixers: " << r.dice << " dice, " << r.rolls << " rolls, face " << r.zero_face << " scores 0\n"
            << std::fixed << std::setprecision(6) << "optimal_mean policy: expected total "
            << solve_mean_optimum(game.hands()).mean << "\n\n"
            << std::left << std::setw(24) << "strategy" << std::right << std::setw(12) << "mean" << std::setw(12)
            << "sd" << std::setw(12) << "P(0)"
            << "\n";
  std::vector<stats::Moments> moments;
  for (std::size_t i = 0; i < game.strategies().size(); ++i) {
    const std::vector<double> p = score_distribution(game.hands(), game.policy(static_cast<int>(i)));
    moments.push_back(stats::exact_moments(p, 0));
    std::cout << std::left << std::setw(24) << terminal_text(game.strategies()[i].name) << std::right << std::setw(12)
              << moments.back().mean << std::setw(12) << moments.back().sd << std::setw(12) << p[0] << "\n";
  }
  const auto matrix = [&](const std::string& title, int precision, auto cell) {
    std::cout << "\n";
    print_strategy_matrix(std::cout, title, game.strategies(), precision, cell);
  };
  if (options.z_games > 0) {
    matrix(
        "expected z of the difference of means (row - column) at " + std::to_string(options.z_games) + " games each:",
        2, [&](std::size_t i, std::size_t j) {
          const double spread =
              std::sqrt((moments[i].sd * moments[i].sd + moments[j].sd * moments[j].sd) / double(options.z_games));
          return std::optional<MatrixCell>(MatrixCell{spread > 0 ? (moments[i].mean - moments[j].mean) / spread : 0.0});
        });
  }
  if (options.headtohead) {
    matrix("P(row wins) head to head, independent turns (ties are neither):", 6,
           [&](std::size_t i, std::size_t j) -> std::optional<MatrixCell> {
             if (i == j) return std::nullopt;  // not played against itself
             return MatrixCell{game.exact(Table{{int(i), int(j)}, false})->win[0]};
           });
  }
  print_win_seats(game);
}

}  // namespace

void add_solve_command(CLI::App& solve) {
  auto options = std::make_shared<SolveOptions>();
  CLI::App* cmd = solve.add_subcommand("sixers", "exact means, sd and P(0) of Sixers strategies");
  cmd->footer(help_examples({"dicesim solve sixers", "dicesim solve sixers --headtohead --z-games 100000",
                             "dicesim solve sixers --config configs/sixers_paper.json"}));
  options->rules = std::make_unique<RuleOptions>(*cmd, rules_parameters());
  cmd->add_option("--config", options->config, "take rules and strategies from a config");
  cmd->add_option("--z-games", options->z_games, "also print the expected z of mean differences at N games each")
      ->check(CLI::Range(std::uint64_t{1}, kMaxGames));
  cmd->add_flag("--headtohead", options->headtohead, "also print exact head-to-head win probabilities");
  cmd->add_option("strategies", options->strategies, "strategies such as dv(2,2) dn(3,2) ts(5,5) optimal_mean");
  cmd->callback([options] { print_solution(*options); });
}

}  // namespace dicesim::sixers
