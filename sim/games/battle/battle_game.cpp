// Dice Battle on the engine: config -> rules and compiled strategies, a
// block of games at a table, the exact odds and `dicesim list` (`dicesim
// solve battle`: battle_solve.cpp).
#include "games/battle/battle_game.h"

#include <ostream>

#include "config/bound_rules.h"
#include "games/battle/battle.h"
#include "games/battle/battle_exact.h"
#include "games/battle/battle_strategies.h"
#include "games/game.h"

namespace dicesim::battle {
namespace {

const char* turns_name(Turns turns) { return turns == Turns::sequential ? "sequential" : "simultaneous"; }

// Each rule with the member of Rules it sets (config/bound_rules.h).
const std::vector<BoundRule<Rules>>& bound_rules() {
  static const std::vector<BoundRule<Rules>> all = {
      integer_rule(integer_parameter("max_dice", 1, kMaxDiceLimit, "D: the most dice a player may throw"),
                   &Rules::max_dice),
      integer_rule(integer_parameter("goal", 1, kMaxGoal, "N: the first to reach it wins"), &Rules::goal),
      choice_rule(choice_parameter("turns", {turns_name(Turns::sequential), turns_name(Turns::simultaneous)},
                                   "sequential: players alternate; simultaneous: both choose, then throw; both at or "
                                   "past the goal: the higher total wins, equal totals tie"),
                  &Rules::turns),
  };
  return all;
}

}  // namespace

const std::vector<Parameter>& rules_parameters() {
  static const std::vector<Parameter> all = parameters_of(bound_rules());
  return all;
}

Rules read_rules(const JsonNode& config) { return read_bound_rules(config, bound_rules()); }

namespace {

// Games in flight per thread (see play_side_by_side).
constexpr int kGamesSideBySide = 4;

class BattleGame final : public Game {
 public:
  BattleGame(const Rules& rules, const JsonNode& config, const Die& die) : rules_(rules), dice_(rules.max_dice, die) {
    Solutions solutions(rules_);
    strategies_ = read_strategies(
        config, [&](const JsonNode& spec) { policies_.push_back(compile_strategy(spec, rules_, solutions)); });
  }

  json rules() const override { return bound_rules_json(rules_, bound_rules()); }
  int most_head_start() const override { return rules_.goal - 1; }

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
    const int start[2] = {table.start(0), seats > 1 ? table.start(1) : 0};
    // Alone, a seat "wins" every game: a race against the goal.
    play_games<kGamesSideBySide>(
        dice_, rules_, policies_[table.seats[0]], second, games, local,
        [&](const GameRecord& r) {
          for (int s = 0; s < seats; ++s) ++score[s][r.score[s]], ++turns[s][r.turns[s]];
          if (r.winner >= 0) {
            ++counts.wins(r.winner);
          } else {
            ++counts.tie_games();
            ++counts.tied(0), ++counts.tied(1);
          }
        },
        start);
    rng = local;
  }

  std::optional<TableOdds> exact(const Table& table) const override {
    const Policy* second = table.seats.size() > 1 ? &policies_[table.seats[1]] : nullptr;
    Evaluation e =
        evaluate(rules_, policies_[table.seats[0]], second, Start{table.start(0), second ? table.start(1) : 0});
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

std::unique_ptr<Game> load(const JsonNode& config, const Die& die) {
  return std::make_unique<BattleGame>(read_rules(config), config, die);
}

void describe(std::ostream& out) {
  describe_rules_and_families(out, rules_parameters(), families());
  out << "  exact solver cost (check, solve battle): a pair of fixed, blind or random takes about 1 s at\n"
      << "    max_dice 20, goal 1000 (each one's race alone, then both together); a pair with optimal follows\n"
      << "    every pair of scores: throw by throw up to goal 300 (about 1 s there, with the turns played), above\n"
      << "    once in increasing score sums (about 1 s at goal 1000; no turns). The optimal policies: sequential\n"
      << "    1-5 s, simultaneous (LPs) about 4 s at the limits; solve battle --max-dice 20 --goal 1000: 9 s\n";
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
          .add_solve_command = add_solve_command,
          .bench_cases = {{"battle optimal vs blind, sequential turns",
                           R"J({"game":"battle","seed":1,"games":1,"strategies":[
           {"name":"optimal","family":"optimal"},{"name":"blind","family":"blind"}],
          "contests":{"distributions":false,"sequential_tables":[["optimal","blind"]]}})J"},
                          {"battle optimal (mixed) vs blind, simultaneous turns",
                           R"J({"game":"battle","seed":1,"games":1,"rules":{"turns":"simultaneous"},"strategies":[
           {"name":"optimal","family":"optimal"},{"name":"blind","family":"blind"}],
          "contests":{"distributions":false,"sequential_tables":[["optimal","blind"]]}})J"}}};
}

}  // namespace dicesim::battle
