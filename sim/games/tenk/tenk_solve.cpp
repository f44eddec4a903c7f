// `dicesim solve tenk`: seed 000's Tables 1 and 2, seed 003's pattern
// tables, one turn's odds per strategy, and with --win the two-player game
// solved for the chance of winning.
#include <CLI/CLI.hpp>
#include <cmath>
#include <ctime>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "app/help_examples.h"
#include "app/rule_options.h"
#include "config/terminal_text.h"
#include "engine/files.h"
#include "games/tenk/tenk.h"
#include "games/tenk/tenk_exact.h"
#include "games/tenk/tenk_game.h"
#include "games/tenk/tenk_rules.h"
#include "games/tenk/tenk_strategies.h"
#include "games/tenk/tenk_table_win.h"
#include "games/tenk/tenk_win.h"
#include "games/tenk/tenk_win_cache.h"
#include "math/equilibrium.h"
#include "math/head_start.h"
#include "math/stats.h"
#include "plan/run_config.h"
#include "results/csv.h"
#include "results/output_file.h"

namespace dicesim::tenk {
namespace {

struct SolveOptions {
  std::string rules = "game_of_dice";
  std::string config;
  bool win = false;
  bool as_json = false;
  std::string policy_csv;
  int seats = 2;
  std::unique_ptr<RuleOptions> rule_options;  // on top of the preset's or the config's rules
};

void print_throw_tables(const Scoring& scoring) {
  const int dice = scoring.rules().dice;
  std::cout << "Table 1: one throw of I dice, every scoring die set aside; K = dice of the next throw\n"
            << "(K = " << dice << " after hot dice), K = 0 nothing scores; \"any\" = something scores\n"
            << std::setw(4) << "I" << std::setw(8) << "";
  for (int k = 1; k <= dice; ++k) std::cout << std::setw(10) << ("K=" + std::to_string(k));
  std::cout << std::setw(10) << "K=0" << std::setw(10) << "any"
            << "\n"
            << std::fixed << std::setprecision(2);
  for (int n = 1; n <= dice; ++n) {
    const ThrowStats t = throw_stats(scoring, n);
    std::cout << std::setw(4) << n << std::setw(8) << "P %";
    for (int k = 1; k <= dice; ++k) std::cout << std::setw(10) << 100 * t.p[k];
    std::cout << std::setw(10) << 100 * t.p[0] << std::setw(10) << 100 * t.any_p << "\n";
    std::cout << std::setw(4) << "" << std::setw(8) << "S";
    for (int k = 1; k <= dice; ++k) std::cout << std::setw(10) << t.s[k];
    std::cout << std::setw(10) << "" << std::setw(10) << t.any_s << "\n";
  }
  const CriticalScores critical = critical_scores(scoring);
  std::cout << "\nTable 2: W(I) mean score throwing I dice until a zero; Cs(I) = W(I)(1-P(I,0))/P(I,0)\n"
            << std::setw(4) << "I" << std::setw(12) << "W(I)" << std::setw(12) << "Cs(I)"
            << "\n";
  for (int n = 1; n <= dice; ++n)
    std::cout << std::setw(4) << n << std::setw(12) << critical.w[n] << std::setw(12) << critical.cs[n] << "\n";
}

void print_pattern_tables(const Scoring& scoring) {
  const Rules& r = scoring.rules();
  std::cout << "\nSuccess and failure (seed 003), ordered outcomes of 6^I\n"
            << std::setw(6) << "dice" << std::setw(8) << "triple" << std::setw(12) << "successes" << std::setw(10)
            << "success%" << std::setw(10) << "failure%"
            << "\n";
  for (int pending = 0; pending < r.pending_faces(); ++pending)
    for (int n = r.dice; n >= 1; --n) {
      if (!r.reachable(n, pending)) continue;
      const std::uint64_t outcomes = scoring.outcomes(n), success = scoring_outcomes(scoring, n, pending);
      std::cout << std::setw(6) << n << std::setw(8) << (pending == 0 ? "-" : std::to_string(pending) + "s")
                << std::setw(12) << success << std::setw(10) << 100.0 * double(success) / double(outcomes)
                << std::setw(10) << 100.0 * double(outcomes - success) / double(outcomes) << "\n";
    }
  std::cout << "\nCombinations by dice pattern (seed 003's rows): outcomes, %, mean points of the best move,\n"
            << "and for \"Add to 3-of-a-kind\" the mean number of dice of the triple's face\n";
  for (int pending = 0; pending < r.pending_faces(); ++pending)
    for (int n = r.dice; n >= 1; --n) {
      if (!r.reachable(n, pending)) continue;
      const std::uint64_t outcomes = scoring.outcomes(n);
      std::cout << "Rolling " << n << " dice" << (pending ? " with a triple of " + std::to_string(pending) + "s" : "")
                << "\n";
      const auto stats = pattern_stats(scoring, n, pending);
      for (int p = 0; p < kPatterns; ++p) {
        if (stats[p].outcomes == 0 || p == static_cast<int>(Pattern::nothing)) continue;
        std::cout << "  " << std::left << std::setw(20) << pattern_name(static_cast<Pattern>(p)) << std::right
                  << std::setw(8) << stats[p].outcomes << std::setw(8)
                  << 100.0 * double(stats[p].outcomes) / double(outcomes) << std::setw(10) << stats[p].mean_points;
        if (p == static_cast<int>(Pattern::add)) std::cout << "   adds " << std::setprecision(4) << stats[p].mean_adds;
        std::cout << std::setprecision(2) << "\n";
      }
    }
}

// What each compiled strategy does: the least turn total at which it banks,
// by dice for the next throw (a fresh turn: nothing banked, no pending
// triple), the bank minimum, IV.1 and the target applied; "-" where it
// throws on to the target.
void print_bank_totals(const TenkGame& game) {
  const Rules& r = game.scoring().rules();
  std::cout << "\nBanks first at this turn total, by dice for the next throw (bank minimum " << r.bank_minimum
            << ", target " << r.target << "; -: throws on to the target)\n"
            << std::left << std::setw(24) << "strategy" << std::right;
  for (int n = 1; n <= r.dice; ++n) std::cout << std::setw(9) << ("n=" + std::to_string(n));
  std::cout << "\n";
  for (std::size_t i = 0; i < game.strategies().size(); ++i) {
    std::cout << std::left << std::setw(24) << terminal_text(game.strategies()[i].name) << std::right;
    for (int n = 1; n <= r.dice; ++n) {
      const int total = first_bank_total(r, game.policy(static_cast<int>(i)), n);
      std::cout << std::setw(9) << (total < 0 ? "-" : std::to_string(total));
    }
    std::cout << "\n";
  }
}

std::optional<HeadStart> head_start(const WinSolution& solution) {
  return fair_head_start([&](int first, int second) { return solution.at(0, first, second).utility(); },
                         solution.units());
}

// Optimal play against a strategy: the optimal player's P(win) + P(tie)/2 in each seat.
struct AgainstStrategy {
  std::string strategy;
  double optimal_first, optimal_second;
};

std::vector<AgainstStrategy> against_each_strategy(const TenkGame& game, const WinSolution& solution) {
  const WinRule optimal(solution.policy);
  std::vector<AgainstStrategy> rows;
  for (std::size_t i = 0; i < game.strategies().size(); ++i) {
    const Policy& policy = game.policy(static_cast<int>(i));
    if (policy.plays_to_win) continue;
    const PolicyRule other(game.scoring().rules(), policy);
    rows.push_back({game.strategies()[i].name, evaluate_win(game.scoring(), optimal, other).at(0, 0, 0).utility(),
                    1 - evaluate_win(game.scoring(), other, optimal).at(0, 0, 0).utility()});
  }
  return rows;
}

void print_win_odds(const std::vector<AgainstStrategy>& rows, double value) {
  std::cout << "\nOptimal play against each strategy (P(win) + P(tie)/2 of the optimal player; the game's value is "
            << std::setprecision(6) << value << " first, " << 1 - value << " second):\n"
            << std::left << std::setw(24) << "strategy" << std::right << std::setw(14) << "optimal 1st" << std::setw(12)
            << "gain" << std::setw(14) << "optimal 2nd" << std::setw(12) << "gain"
            << "\n";
  for (const AgainstStrategy& row : rows)
    std::cout << std::left << std::setw(24) << terminal_text(row.strategy) << std::right << std::setw(14)
              << row.optimal_first << std::setw(12) << row.optimal_first - value << std::setw(14) << row.optimal_second
              << std::setw(12) << row.optimal_second - (1 - value) << "\n";
}

// For plots: the least turn total at which the optimal player banks, per
// seat, banked scores and dice for the next throw (no pending face).
void write_policy_csv(const std::string& path, const Scoring& scoring, const WinSolution& solution) {
  std::ostringstream out;  // written whole, through a temporary renamed when complete
  const Rules& rules = scoring.rules();
  const Landings landings(rules);
  out << csv_row({csv_text("seat"), csv_text("mine"), csv_text("theirs"), csv_text("dice"), csv_text("banks_from")});
  for (int seat = 0; seat < 2; ++seat)
    for (int mine = 0; mine < solution.units(); ++mine)
      for (int theirs = 0; theirs < solution.units(); ++theirs)
        for (int dice = 1; dice <= rules.dice; ++dice) {
          const int kind = landings.of(dice, kNoPending, false);
          int t = 1;
          const int top = solution.policy.top(seat, mine, theirs) + 1;
          while (t <= top && !(t * kPoint >= rules.bank_minimum_at(mine * kPoint) &&
                               solution.policy.banks(seat, mine, theirs, t, kind)))
            ++t;
          out << csv_row({std::to_string(seat), std::to_string(mine * kPoint), std::to_string(theirs * kPoint),
                          std::to_string(dice), t <= top ? std::to_string(t * kPoint) : ""});
        }
  try {
    write_file_atomically(path, out.str());
  } catch (const FileError& e) {
    throw FileError("--policy-csv: " + path + ": cannot write it: " + e.what());
  }
}

// "solved in 21.86 s (cached in PATH)", or, read from the cache, when and
// how that solve went.
std::string solve_origin(const WinSolution& solution, const Rules& rules) {
  const WinSolveStats& stats = solution.stats;
  std::ostringstream text;
  text << std::fixed << std::setprecision(2);
  if (stats.cached_at) {
    const std::time_t when = stats.cached_at;
    std::tm utc{};
    gmtime_r(&when, &utc);
    text << "loaded from the cache " << win_cache_path(rules) << ", solved there on "
         << std::put_time(&utc, "%Y-%m-%d %H:%M UTC") << " in " << stats.seconds << " s";
  } else {
    text << "solved in " << stats.seconds << " s (cached in " << win_cache_path(rules) << ")";
  }
  text << ": " << stats.positions << " turn starts, " << stats.turn_states
       << " (turn total, dice) states visited, peak memory " << stats.peak_bytes / (1 << 20) << " MiB, policy "
       << solution.policy.bytes() / 1024 << " KiB";
  return text.str();
}

// Every number of `solve tenk --win` at full precision, for programs.
json win_json(const Rules& rules, const WinSolution& solution, const std::optional<HeadStart>& head,
              const std::vector<AgainstStrategy>& rows) {
  json against = json::array();
  for (const AgainstStrategy& row : rows)
    against.push_back(
        {{"strategy", row.strategy}, {"optimal_first", row.optimal_first}, {"optimal_second", row.optimal_second}});
  json fair = nullptr;
  if (head)
    fair = {{"points", head->closest * kPoint},
            {"to_seat", head->to_first ? "first" : "second"},
            {"first_seat_value", head->closest_value}};
  const WinSolveStats& stats = solution.stats;
  return {{"rules", rules_json(rules)},
          {"first_wins", solution.first_wins()},
          {"second_wins", solution.second_wins()},
          {"tie", solution.tie()},
          {"first_seat_value", solution.at(0, 0, 0).utility()},
          {"fair_head_start", fair},
          {"against_each_strategy", against},
          {"solve",
           {{"cache_file", win_cache_path(rules)},
            {"loaded_from_cache", stats.cached_at != 0},
            {"seconds", stats.seconds},
            {"turn_starts", stats.positions},
            {"turn_states", stats.turn_states},
            {"peak_bytes", stats.peak_bytes}}}};
}

void print_win(const TenkGame& game, const SolveOptions& options) {
  const Scoring& scoring = game.scoring();
  // The CSV's path is checked (and held) before the solve, which takes seconds to minutes.
  std::optional<OutputFiles> csv_file;
  if (!options.policy_csv.empty())
    csv_file.emplace(std::vector<FileUse>{{options.config, "the config"},
                                          {win_cache_path(scoring.rules()), "the solved game's cache"}},
                     std::vector<FileUse>{{options.policy_csv, "--policy-csv", true}});
  Solutions solutions(scoring);
  const std::shared_ptr<const WinSolution> solution = solutions.win_solution();
  const std::optional<HeadStart> head = head_start(*solution);
  const std::vector<AgainstStrategy> rows = against_each_strategy(game, *solution);
  if (options.as_json) {
    std::cout << win_json(scoring.rules(), *solution, head, rows).dump(2) << "\n";
  } else {
    std::cout << "\nWin-optimal play, two players (P(win) + P(tie)/2 maximised; the max_rounds cap ignored)\n"
              << std::setprecision(6) << "first seat wins " << solution->first_wins() << ", second seat wins "
              << solution->second_wins() << ", tie " << solution->tie() << "\n"
              << solve_origin(*solution, scoring.rules()) << "\n";
    std::cout << head_start_line(head, kPoint) << "\n";
    if (const std::string contest = head_start_contest(
            head, kPoint, "optimal_win",
            rules_json(scoring.rules()) == rules_json(preset("game_of_dice")) ? "configs/tenk_optimal_win.json" : "");
        !contest.empty())
      std::cout << contest << "\n";
    print_win_odds(rows, solution->at(0, 0, 0).utility());
  }
  if (!options.policy_csv.empty()) {
    write_policy_csv(options.policy_csv, scoring, *solution);
    if (!options.as_json) std::cout << "wrote " << terminal_text(options.policy_csv) << "\n";
  }
}

// The strategies `solve tenk` shows without a config.
json default_solve_config(const std::string& preset) {
  return {{"game", "tenk"},
          {"games", std::uint64_t{1}},
          {"rules", {{"preset", preset}}},
          {"strategies", json::array({{{"name", "critical_score"}, {"family", "critical_score"}},
                                      {{"name", "ev_heuristic"}, {"family", "ev_heuristic"}},
                                      {{"name", "optimal_expected"}, {"family", "optimal_expected"}}})},
          {"contests", {{"distributions", false}, {"sequential", true}}}};
}

std::vector<int> points_of(const std::vector<int>& units) {
  std::vector<int> points;
  for (int u : units) points.push_back(u * kPoint);
  return points;
}

// How far the solved play is from an equilibrium: each seat's gain from
// switching alone to its best reply, the others keeping `table`'s decisions
// (one more solve per seat).
std::vector<double> deviation_gains(const Scoring& scoring, const TableWin& table) {
  std::vector<double> gains;
  for (int seat = 0; seat < table.seats(); ++seat) {
    std::vector<std::optional<FixedSeat>> others(std::size_t(table.seats()), table.fixed_seat());
    others[std::size_t(seat)].reset();
    const TableWin reply = solve_table_win(scoring, table.seats(), others);
    gains.push_back(reply.start().utility[std::size_t(seat)] - table.start().utility[std::size_t(seat)]);
  }
  return gains;
}

// Win-optimal play at a table of three or more (tenk_table_win.h).
void print_table_win(const Rules& rules, const SolveOptions& options) {
  if (const std::optional<std::string> why = table_win_refusal(rules, options.seats, true))
    throw InputError("--seats: " + *why);
  const Scoring scoring(rules);
  // Where a tuple's rounds cycled, the seats play an equilibrium of its
  // turns (randomising where they must); where none was found, its values
  // are still those of its last round's decisions, exactly: the round
  // closes the cycle of turns for the decisions it chose, and a bank only
  // raises the score sum, so the tuples it reads are final (one pass).
  const TableWin table = solve_table_win(scoring, options.seats, {}, true);
  const std::vector<double> gains = deviation_gains(scoring, table);
  const TableWinOdds start = table.start();
  const TableHeadStarts fair = fair_table_head_starts(
      [&](const std::vector<int>& starts) {
        const TableWinOdds odds = table.value(0, starts.data());
        return std::vector<double>(odds.utility.begin(), odds.utility.begin() + table.seats());
      },
      table.seats(), table.units());
  const TableWinStats& stats = table.stats;
  if (options.as_json) {
    json seats = json::array();
    for (int k = 0; k < table.seats(); ++k) seats.push_back({{"win", start.win[k]}, {"value", start.utility[k]}});
    std::cout << json{{"rules", rules_json(rules)},
                      {"seats", seats},
                      {"tie", table.tie()},
                      {"turn_starts", stats.turn_starts},
                      {"answers", stats.answers},
                      {"horizon_units", stats.horizon},
                      {"seconds", stats.seconds},
                      {"peak_bytes", stats.peak_bytes},
                      {"decision_bytes", stats.decision_bytes},
                      {"unsettled_tuples", stats.unsettled_tuples},
                      {"cycled_tuples", stats.cycled_tuples},
                      {"mixed_tuples", stats.mixed_tuples},
                      {"deviation_gains", gains},
                      {"fair_head_starts", json{{"points", points_of(fair.starts)}, {"values", fair.values}}},
                      {"equilibrium", is_equilibrium(gains)}}
                     .dump(2)
              << "\n";
    return;
  }
  std::cout << "10,000 rules: " << rules_json(rules).dump() << "\n"
            << "\nWin-optimal play, " << table.seats()
            << " players (each seat maximises P(win) + P(tie) / seats tied; the max_rounds cap ignored)\n"
            << std::fixed << std::setprecision(6);
  for (int k = 0; k < table.seats(); ++k)
    std::cout << "seat " << k + 1 << " wins " << start.win[k] << " (value " << start.utility[k] << ")\n";
  std::cout << "tie " << table.tie() << "\n"
            << std::setprecision(2) << stats.turn_starts << " turn starts, " << stats.answers
            << " answer turns (scores followed to " << stats.horizon * kPoint << " points past the target); solved in "
            << stats.seconds << " s, peak memory " << double(stats.peak_bytes) / (1 << 20)
            << " MiB (the decisions kept " << double(stats.decision_bytes) / (1 << 20) << " MiB)\n";
  if (stats.unsettled_tuples == 0)
    std::cout << "settled: every score tuple's decisions (at most " << stats.most_iterations
              << " rounds of best replies" << (stats.cycled_tuples > 0 ? "; where they cycled, below" : "") << ")\n";
  if (stats.cycled_tuples > 0)
    std::cout << "cycled: at " << stats.cycled_tuples << (stats.cycled_tuples == 1 ? " score tuple" : " score tuples")
              << " rounds of best replies cycled; there the seats play an equilibrium of the tuple's turns found on "
                 "their best-plan paths, mixed at "
              << stats.mixed_tuples << " (some seats randomise between two plans at the turn's start; no seat gains "
              << "there by another plan, most " << std::setprecision(2) << std::scientific << stats.most_cycled_gain
              << std::fixed << ")\n";
  if (stats.unsettled_tuples > 0)
    std::cout << "not settled: at " << stats.unsettled_tuples
              << (stats.unsettled_tuples == 1 ? " score tuple" : " score tuples")
              << " rounds of best replies did not settle (cycling within the tuple), and no equilibrium of its turns "
                 "was found on the seats' best-plan paths; the chances above are those of its last round's "
                 "decisions, exactly\n";
  std::cout << deviation_gain_lines(gains, "") << table_head_start_line(fair, kPoint) << "\n"
            << table_head_start_contest(fair, kPoint, options.seats) << "\n";
}

// The config `solve tenk` solves: --config as `run` loads it (so whatever run
// refuses is refused) or the preset with the strategies above, and the rule
// options on top; its errors name the file, or the command line.
json solve_document(const SolveOptions& options) {
  json document = options.config.empty()
                      ? default_solve_config(options.rules)
                      : load_run_config_of_game(parse_json_file(options.config), options.config, "tenk").document;
  document["rules"] = options.rule_options->over(document.value("rules", json::object()));
  return document;
}

void print_solution(const SolveOptions& options) {
  const std::string source = options.config.empty() ? "command line" : options.config;
  if (options.win && options.seats > 2) {
    const json document = solve_document(options);
    return print_table_win(read_rules(JsonNode(document, source).find("rules")), options);
  }
  const RunConfigOf<TenkGame> config = load_run_config_of_game(solve_document(options), source, "tenk", load_game);
  const TenkGame& game = *config.game;
  const Scoring& scoring = game.scoring();
  // The solve's limit, named at the rule in the config before anything is printed.
  if (const std::optional<std::string> why = win_solver_refusal(scoring.rules(), true); why && options.win)
    throw InputError(config.config.file + ": /rules/target: " + *why);
  if (options.win && options.as_json) return print_win(game, options);
  std::cout << "10,000 rules: " << rules_json(scoring.rules()).dump() << "\n";
  std::cout << std::fixed;
  if (options.win) return print_win(game, options);
  std::cout << "\n";
  print_throw_tables(scoring);
  if (scoring.rules().add_to_triple || scoring.rules().three_pairs > 0) print_pattern_tables(scoring);
  Solutions solutions(scoring);
  std::cout << "\noptimal_expected: the most a turn can score on average (value iteration, target ignored): "
            << solutions.optimal_mean() << "\n";
  std::cout << "\nOne turn from a fresh start (exact, a total reaching the target banks): mean score and P(zero turn)\n"
            << std::left << std::setw(24) << "strategy" << std::right << std::setw(12) << "mean" << std::setw(12)
            << "sd" << std::setw(12) << "P(0)"
            << "\n";
  for (std::size_t i = 0; i < game.strategies().size(); ++i) {
    const std::vector<double> p = turn_distribution(scoring, game.policy(static_cast<int>(i)));
    const stats::Moments m = stats::exact_moments(p, 0);
    std::cout << std::left << std::setw(24) << terminal_text(game.strategies()[i].name) << std::right << std::setw(12)
              << m.mean * kPoint << std::setw(12) << m.sd * kPoint << std::setw(12) << std::setprecision(6) << p[0]
              << std::setprecision(2) << "\n";
  }
  print_bank_totals(game);
}

}  // namespace

void add_solve_command(CLI::App& solve) {
  auto options = std::make_shared<SolveOptions>();
  CLI::App* cmd = solve.add_subcommand(
      "tenk",
      "10,000: seed 000's Tables 1 and 2, seed 003's tables, turn odds; --win: win-optimal play (--seats 2 to 4)");
  cmd->footer(help_examples({"dicesim solve tenk --rules game_of_dice", "dicesim solve tenk --rules ai_blog",
                             "dicesim solve tenk --win", "dicesim solve tenk --win --seats 3 --target 600"}));
  std::vector<std::string> names;
  for (const PresetName& p : kPresets) names.insert(names.end(), {std::string(p.name), std::string(p.file_name)});
  cmd->add_option("--rules", options->rules, "a preset: " + preset_names() + "; default game_of_dice")
      ->check(CLI::IsMember(names));
  cmd->add_option("--config", options->config, "take rules and strategies from a config");
  CLI::Option* win =
      cmd->add_flag("--win", options->win,
                    "two players: the win-optimal policy, the game's value for both seats, the fair head start and the "
                    "odds of optimal play against each strategy (solved once per rule set, cached)");
  cmd->add_option("--policy-csv", options->policy_csv, "with --win: write where the optimal player banks, as CSV")
      ->needs(win);
  cmd->add_flag("--json", options->as_json, "with --win: every number as JSON, at full precision, instead of the text")
      ->needs(win);
  cmd->add_option("--seats", options->seats,
                  "with --win: players at the table (2 to " + std::to_string(kMostTableWinSeats) +
                      "); 3 or more solves every seat's win-optimal play (each maximises its own P(win)) and "
                      "prints each seat's value, the state count, time and memory, whether every score tuple's "
                      "decisions settled, each seat's gain from switching alone (one more solve per seat) and the head "
                      "starts that make the table fairest")
      ->check(CLI::Range(2, kMostTableWinSeats))
      ->needs(win);
  options->rule_options =
      std::make_unique<RuleOptions>(*cmd, rules_parameters(), std::vector<std::string_view>{"preset"});
  cmd->callback([options] { print_solution(*options); });
}

}  // namespace dicesim::tenk
