// `dicesim solve yahtzee`: the solitaire optimum, its exact score
// distribution, and its exact odds against each family at its defaults (or
// each strategy of a config), head to head and at tables of the optimum.
#include <oneapi/tbb/parallel_for.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "app/help_examples.h"
#include "app/rule_options.h"
#include "config/terminal_text.h"
#include "games/yahtzee/yahtzee_exact.h"
#include "games/yahtzee/yahtzee_game.h"
#include "games/yahtzee/yahtzee_strategies.h"
#include "plan/run_config.h"

namespace dicesim::yahtzee {
namespace {

struct SolveOptions {
  std::unique_ptr<RuleOptions> rules;
  std::string config;
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string rules_line(const Rules& r) {
  std::ostringstream out;
  out << (r.card == CardKind::yahtzee ? "Yahtzee" : "Yatzy") << "'s card, " << r.rolls
      << (r.rolls == 1 ? " throw" : " throws") << " a turn, upper bonus " << r.upper_bonus << " at "
      << r.bonus_threshold;
  if (r.card == CardKind::yahtzee)
    out << ", Yahtzee bonus " << (r.yahtzee_bonus ? "on" : "off") << ", joker "
        << (r.joker == Joker::none     ? "none"
            : r.joker == Joker::forced ? "forced"
                                       : "free");
  return out.str();
}

void print_optimum(const Optimum& optimum, const std::vector<double>& p, double solve_s, double dist_s) {
  std::cout << "The solitaire optimum (optimal_mean: maximises the expected final score):\n"
            << std::fixed << std::setprecision(10) << "  expected score      " << optimum.expected() << "\n"
            << std::setprecision(6) << "  distribution mean   " << mean_of(p)
            << "  (thrown forward; off the expected score by " << std::scientific << std::setprecision(1)
            << std::abs(mean_of(p) - optimum.expected()) << ")\n"
            << std::fixed << std::setprecision(6) << "  standard deviation  " << sd_of(p) << "\n  quantiles          ";
  for (double q : {0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99})
    std::cout << " " << std::setprecision(0) << 100 * q << "%: " << quantile_of(p, q);
  double at_least_300 = 0;
  for (std::size_t x = 300; x < p.size(); ++x) at_least_300 += p[x];
  std::cout << "\n"
            << std::setprecision(6) << "  P(score >= 300)     " << at_least_300 << "\n"
            << std::setprecision(1) << "  solved in " << solve_s << " s, distribution in " << dist_s << " s\n";
}

// Each strategy's distribution and its exact head-to-head odds with the optimum.
void print_against(const std::vector<std::string>& names, const std::vector<std::vector<double>>& dists,
                   const std::vector<double>& optimum) {
  std::cout << "\nAgainst the optimum, head to head (exact; a shared highest score is a tie, counted apart):\n"
            << "  " << std::left << std::setw(24) << "strategy" << std::right << std::setw(10) << "mean" << std::setw(8)
            << "sd" << std::setw(12) << "gives away" << std::setw(14) << "P(opt wins)" << std::setw(12) << "P(it wins)"
            << std::setw(10) << "P(tie)\n";
  for (std::size_t i = 0; i < names.size(); ++i) {
    const TableOdds odds = highest_score_odds({&optimum, &dists[i]});
    std::cout << "  " << std::left << std::setw(24) << terminal_text(names[i]) << std::right << std::fixed
              << std::setprecision(4) << std::setw(10) << mean_of(dists[i]) << std::setprecision(2) << std::setw(8)
              << sd_of(dists[i]) << std::setprecision(4) << std::setw(12) << mean_of(optimum) - mean_of(dists[i])
              << std::setprecision(6) << std::setw(14) << odds.win[0] << std::setw(12) << odds.win[1] << std::setw(10)
              << odds.tie << "\n";
  }
}

void print_tables(const std::vector<double>& optimum) {
  std::cout << "\nEvery seat playing the optimum (exact; ties counted apart, not split):\n";
  for (int seats : {2, 3, 4}) {
    const TableOdds odds = highest_score_odds(std::vector<const std::vector<double>*>(std::size_t(seats), &optimum));
    std::cout << "  " << seats << " seats: P(seat 1 wins alone) " << std::fixed << std::setprecision(6) << odds.win[0]
              << ", P(tie) " << odds.tie << "\n";
  }
}

void solve(const SolveOptions& options) {
  std::vector<std::string> names;
  std::vector<std::vector<double>> dists;
  Rules rules;
  if (!options.config.empty()) {
    json document = parse_json_file(options.config);
    if (document.is_object()) document["rules"] = options.rules->over(document.value("rules", json::object()));
    const RunConfigOf<YahtzeeGame> config =
        load_run_config_of_game(std::move(document), options.config, "yahtzee", load_game);
    rules = config.game->yahtzee_rules();
    for (std::size_t s = 0; s < config.game->strategies().size(); ++s) {
      names.push_back(config.game->strategies()[s].name);
      dists.push_back(config.game->distribution(int(s)));
    }
  } else {
    const json given = {{"rules", options.rules->given()}};
    rules = read_rules(JsonNode(given, "command line"));
    for (const StrategyFamily& family : families()) {
      if (family.name == "optimal_mean") continue;
      names.push_back(std::string(family.name) + " (defaults)");
      Solutions unused(rules);
      dists.push_back(
          score_distribution(rules, plan_of(JsonNode(json{{"family", family.name}}, "family"), rules, unused)));
    }
  }
  std::cout << rules_line(rules) << "\n\n";
  auto start = std::chrono::steady_clock::now();
  const Optimum optimum = solve_optimum(rules);
  const double solve_s = seconds_since(start);
  start = std::chrono::steady_clock::now();
  const std::vector<double> p = score_distribution(rules, optimal_plan(optimum));
  print_optimum(optimum, p, solve_s, seconds_since(start));
  print_against(names, dists, p);
  print_tables(p);
}

}  // namespace

void add_solve_command(CLI::App& solve_cmd) {
  auto options = std::make_shared<SolveOptions>();
  CLI::App* cmd = solve_cmd.add_subcommand(
      "yahtzee", "the solitaire optimum, its exact score distribution and its odds against the other families");
  cmd->footer(
      // Two examples: a test runs each, and Yatzy's card or a config takes several times as long.
      help_examples({"dicesim solve yahtzee", "dicesim solve yahtzee --joker free --rolls 2"}));
  options->rules = std::make_unique<RuleOptions>(*cmd, rules_parameters());
  cmd->add_option("--config", options->config,
                  "the odds of the optimum against each strategy of a config (instead of each family's defaults)");
  cmd->callback([options] { solve(*options); });
}

}  // namespace dicesim::yahtzee
