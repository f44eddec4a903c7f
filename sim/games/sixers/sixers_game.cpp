// Sixers on the engine: config → rules and compiled strategies, a block of
// games at a table, the exact odds, `dicesim list` and `dicesim solve sixers`.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <climits>
#include <cmath>
#include <iomanip>
#include <iostream>

#include "app/help_examples.h"
#include "games/game.h"
#include "games/game_entries.h"
#include "games/sixers/sixers.h"
#include "games/sixers/sixers_exact.h"
#include "games/sixers/sixers_strategies.h"
#include "math/stats.h"
#include "plan/run_config.h"
#include "results/strategy_matrix.h"

namespace dicesim::sixers {
namespace {

const std::vector<Parameter>& rules_parameters() {
  static const std::vector<Parameter> all = {
      integer_parameter("dice", 1, kMaxDice, "dice rolled at the start of a turn").with_default(Rules{}.dice),
      integer_parameter("rolls", 1, kMaxRolls, "rolls per turn; rolls >= dice: roll until every die is kept")
          .with_default(Rules{}.rolls),
      integer_parameter("zero_face", 0, kFaces, "the face that scores 0; 0 = none").with_default(Rules{}.zero_face),
  };
  return all;
}

Rules read_rules(const JsonNode& config) {
  Rules rules;
  const std::optional<JsonNode> node = config.find("rules");
  if (!node) return rules;
  node->only_keys(keys_of(rules_parameters()));
  if (auto v = read_integer_key(*node, rules_parameters(), "dice")) rules.dice = static_cast<int>(*v);
  if (auto v = read_integer_key(*node, rules_parameters(), "rolls")) rules.rolls = static_cast<int>(*v);
  if (auto v = read_integer_key(*node, rules_parameters(), "zero_face")) rules.zero_face = static_cast<int>(*v);
  return rules;
}

json rules_json(const Rules& rules) {
  return {{"dice", rules.dice}, {"rolls", rules.rolls}, {"zero_face", rules.zero_face}};
}

class SixersGame final : public Game {
 public:
  SixersGame(const Rules& rules, const JsonNode& config) : rules_(rules), hands_(rules), solutions_(hands_) {
    strategies_ = read_strategies(config, [&](const JsonNode& spec) {
      policies_.push_back(compile_strategy(spec, hands_, solutions_));
      samplers_.push_back(PolicySampler(hands_, policies_.back()));
      by_seat_.push_back(plays_by_seat(spec.value()));
    });
  }

  json rules() const override { return rules_json(rules_); }

  std::vector<Measure> measures() const override {
    return {
        {"score", "total score of the dice kept in one turn (lowest wins)", "points", 0, 1, rules_.max_score() + 1}};
  }

  void play(const Table& table, std::uint64_t games, Rng& stream, TableCounts counts) const override {
    const PolicySampler* seat[kMaxSeats];
    for (std::size_t s = 0; s < table.seats.size(); ++s) seat[s] = &seat_sampler(table, int(s));
    Rng rng = stream;  // a local copy stays in registers
    std::uint64_t g = 0;
    for (; g + kGamesSideBySide <= games; g += kGamesSideBySide) play_games<kGamesSideBySide>(table, seat, rng, counts);
    for (; g < games; ++g) play_games<1>(table, seat, rng, counts);
    stream = rng;
  }

  std::optional<TableOdds> exact(const Table& table) const override {
    std::vector<const Policy*> seats;
    for (std::size_t s = 0; s < table.seats.size(); ++s) seats.push_back(&seat_policy(table, int(s)));
    return table_odds(hands_, seats, table.sequential);
  }

  const Hands& hands() const { return hands_; }
  const Policy& policy(int strategy) const { return policies_[strategy]; }
  Solutions& solutions() const { return solutions_; }

 private:
  // Games whose turns play side by side (play_turns). Part of the results:
  // changing it changes which draws go to which game.
  static constexpr int kGamesSideBySide = 8;

  // N games: each seat plays its N turns side by side, then each game is
  // scored. A lone seat is a distribution: one turn a game, and it "wins".
  template <int N>
  void play_games(const Table& table, const PolicySampler* const* seat, Rng& rng, TableCounts counts) const {
    const int seats = static_cast<int>(table.seats.size());
    int score[kMaxSeats][N];
    int lowest[N];
    std::fill_n(lowest, N, INT_MAX);
    for (int s = 0; s < seats; ++s) {
      TurnInPlay turns[N];
      for (int i = 0; i < N; ++i) turns[i] = seat[s]->start(table.sequential && s > 0 ? lowest[i] : kNoTarget);
      play_turns(*seat[s], turns, rng);
      for (int i = 0; i < N; ++i) {
        score[s][i] = turns[i].score();
        ++counts.score(s, score[s][i]);
        lowest[i] = std::min(lowest[i], score[s][i]);
      }
    }
    if (seats == 1) {
      counts.wins(0) += N;
      return;
    }
    // Without branches: who wins is a coin flip the processor cannot predict.
    for (int i = 0; i < N; ++i) {
      int holders = 0, holder = 0;
      for (int s = 0; s < seats; ++s) {
        const bool low = score[s][i] == lowest[i];
        holders += low;
        holder = low ? s : holder;
      }
      const bool tie = holders > 1;
      counts.wins(holder) += !tie;
      counts.tie_games() += tie;
      for (int s = 0; s < seats; ++s) counts.tied(s) += tie && score[s][i] == lowest[i];
    }
  }

  const PolicySampler& seat_sampler(const Table& table, int seat) const {
    const int strategy = table.seats[seat];
    if (!by_seat_[strategy]) return samplers_[strategy];
    return solutions_.optimal_win(seats_after(table, seat)).sampler;
  }

  // The policy of the strategy in seat `seat`: optimal_win's depends on the
  // seats after it (blind, on the seats at the table: it plays as the first).
  const Policy& seat_policy(const Table& table, int seat) const {
    const int strategy = table.seats[seat];
    if (!by_seat_[strategy]) return policies_[strategy];
    return solutions_.optimal_win(seats_after(table, seat)).policy;
  }
  // optimal_win's seats after this one (blind, every other seat at the table: it plays as the first).
  static int seats_after(const Table& table, int seat) {
    const int seats = static_cast<int>(table.seats.size());
    return table.sequential ? seats - 1 - seat : seats - 1;
  }

  Rules rules_;
  Hands hands_;
  mutable Solutions solutions_;  // optimal_win's seats are solved on first use
  std::vector<Policy> policies_;
  std::vector<PolicySampler> samplers_;  // the policies compiled for play
  std::vector<bool> by_seat_;
};

std::unique_ptr<Game> load(const JsonNode& config) { return std::make_unique<SixersGame>(read_rules(config), config); }

void describe(std::ostream& out) {
  describe_rules_and_families(out, rules_parameters(), families());
  out << "  exact solver cost (check, solve sixers): under a second for any rules (solve sixers --headtohead: 0.3 s)\n";
}

struct SolveOptions {
  std::optional<int> dice, rolls, zero_face;
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
RunConfig solve_config(const SolveOptions& options) {
  json config = {{"game", "sixers"}, {"games", std::uint64_t{1}}, {"strategies", json::array()}};
  std::string source = "command line";
  if (!options.config.empty()) {
    source = options.config;
    config = load_run_config_of_game(parse_json_file(options.config), source, "sixers").document;
  }
  json& rules = config["rules"];
  if (!rules.is_object()) rules = json::object();
  if (options.dice) rules["dice"] = *options.dice;
  if (options.rolls) rules["rolls"] = *options.rolls;
  if (options.zero_face) rules["zero_face"] = *options.zero_face;
  for (const std::string& text : options.strategies) {
    json spec = strategy_from_text(text);
    spec["name"] = text;
    config["strategies"].push_back(spec);
  }
  if (config["strategies"].empty())
    config["strategies"].push_back({{"name", "optimal_mean"}, {"family", "optimal_mean"}});
  return load_run_config_of_game(std::move(config), source, "sixers");
}

void print_solution(const SolveOptions& options) {
  const RunConfig config = solve_config(options);
  const auto& game = static_cast<const SixersGame&>(*config.game);
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
    std::cout << std::left << std::setw(24) << game.strategies()[i].name << std::right << std::setw(12)
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

void add_solve_command(CLI::App& solve) {
  auto options = std::make_shared<SolveOptions>();
  CLI::App* cmd = solve.add_subcommand("sixers", "exact means, sd and P(0) of Sixers strategies");
  cmd->footer(help_examples({"dicesim solve sixers", "dicesim solve sixers --headtohead --z-games 100000",
                             "dicesim solve sixers --config configs/sixers_paper.json"}));
  cmd->add_option("--dice", options->dice, "number of dice (default 6)");
  cmd->add_option("--rolls", options->rolls, "number of rolls (default 3)");
  cmd->add_option("--zero-face", options->zero_face, "the face that scores 0 (default 3)");
  cmd->add_option("--config", options->config, "take rules and strategies from a config");
  cmd->add_option("--z-games", options->z_games, "also print the expected z of mean differences at N games each");
  cmd->add_flag("--headtohead", options->headtohead, "also print exact head-to-head win probabilities");
  cmd->add_option("strategies", options->strategies, "strategies such as dv(2,2) dn(3,2) ts(5,5) optimal_mean");
  cmd->callback([options] { print_solution(*options); });
}

}  // namespace

GameEntry sixers_entry() {
  return {.name = "sixers",
          .title = "Sixers",
          .description = "Sixers: six dice, three rolls, keep at least one die per roll, a 3 scores 0, lowest wins",
          .tables = {},
          .lowest_score_wins = true,
          .load = load,
          .rules_parameters = rules_parameters,
          .families = families,
          .measures = {"score"},
          .describe = describe,
          .add_solve_command = add_solve_command};
}

}  // namespace dicesim::sixers
