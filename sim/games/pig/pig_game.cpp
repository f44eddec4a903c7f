// Pig on the engine: config → rules and compiled strategies, a block of games
// at a table, the exact odds and `dicesim list` (`dicesim solve pig`:
// sim/app/solve_pig.cpp).
#include "games/pig/pig_game.h"

#include <algorithm>
#include <mutex>
#include <ostream>

#include "engine/engine.h"
#include "engine/progress.h"
#include "games/game.h"
#include "games/pig/pig.h"
#include "games/pig/pig_exact.h"
#include "games/pig/pig_strategies.h"

namespace dicesim::pig {
namespace {

const std::vector<Parameter>& rules_parameters() {
  static const std::vector<Parameter> all = {
      integer_parameter("dice", 1, 2,
                        "one die: a 1 loses the turn total; two dice: a single 1 loses it, two 1s also reset the "
                        "banked score to 0")
          .with_default(Rules{}.dice),
      integer_parameter("goal", 1, kMaxGoal, "reaching it with the turn total wins at once").with_default(Rules{}.goal),
  };
  return all;
}

Rules read_rules(const JsonNode& config) {
  Rules rules;
  const std::optional<JsonNode> node = config.find("rules");
  if (!node) return rules;
  node->only_keys(keys_of(rules_parameters()));
  if (auto v = read_integer_key(*node, rules_parameters(), "dice")) rules.dice = static_cast<int>(*v);
  if (auto v = read_integer_key(*node, rules_parameters(), "goal")) rules.goal = static_cast<int>(*v);
  return rules;
}

// Games in flight per thread (see play_games).
constexpr int kGamesSideBySide = 4;

class PigGameImpl final : public PigGame {
 public:
  PigGameImpl(const Rules& rules, const JsonNode& config, const Die& die) : rules_(rules), die_(die) {
    Solutions solutions(rules_);
    strategies_ = read_strategies(
        config, [&](const JsonNode& spec) { policies_.push_back(compile_strategy(spec, rules_, solutions)); });
    for (const Policy& p : policies_) samplers_.emplace_back(rules_, p, die_);
    processes_.resize(policies_.size());
    outcomes_.resize(policies_.size());
  }

  json rules() const override { return {{"dice", rules_.dice}, {"goal", rules_.goal}}; }

  // Games of more turns than this land in the last bin of "turns".
  int turn_bins() const { return 2 * rules_.goal + 1; }

  std::vector<Measure> measures() const override {
    return {{"score", "final score: the winner's is the goal or more, a loser's its banked score", "points", 0, 1,
             rules_.score_bins()},
            {"turns", "turns the seat played (the last bin: that many or more)", "turns", 0, 1, turn_bins()}};
  }

  void play(const Table& table, std::uint64_t games, Rng& rng, TableCounts counts) const override {
    const bool fair = die_.sides == kFaces;
    if (rules_.dice == 1)
      fair ? play_block<1, kFaces>(table, games, rng, counts) : play_block<1, kLoadedSides>(table, games, rng, counts);
    else
      fair ? play_block<2, kFaces>(table, games, rng, counts) : play_block<2, kLoadedSides>(table, games, rng, counts);
  }

  std::optional<TableOdds> exact(const Table& table) const override {
    const std::optional<Evaluation> e = evaluation(table.seats);
    TableOdds odds;
    if (!e) {
      odds.not_compared.push_back(joint_state_refused(table.seats.size()));
      return odds;
    }
    odds.probability = {e->score, e->turns};
    odds.win = e->win;  // alone, a seat wins every game it finishes
    return odds;
  }

  // A table of seats that each ignore the others is a race, any number of
  // seats; one that watches a score is followed in the joint state, which
  // fits for two seats only.
  std::optional<Evaluation> evaluation(const std::vector<int>& seats) const {
    if (std::all_of(seats.begin(), seats.end(), [&](int s) { return samplers_[s].ignores_opponent(); })) {
      std::vector<const Race*> races;
      for (int s : seats) races.push_back(&process(s));
      return evaluate_independent(rules_, races, turn_bins());
    }
    std::vector<const TurnOutcomes*> outcomes_of;
    for (int s : seats) outcomes_of.push_back(&outcomes(s));
    return evaluate_outcomes(rules_, outcomes_of, turn_bins());
  }

  // Why a table of three or more seats, one of them watching the others'
  // scores, has no exact odds: the joint state it would need.
  std::string joint_state_refused(std::size_t seats) const {
    double states = double(seats);  // whose turn, times every seat's banked score
    for (std::size_t s = 0; s < seats; ++s) states *= rules_.goal;
    return "win, tie, score and turns: a seat watching the others' scores at a table of " + std::to_string(seats) +
           " needs the joint state of every banked score (" + readable_count(states) +
           " turn starts); exact odds follow it at two seats only";
  }

  bool both_ignore_opponent(int first, int second) const {
    return samplers_[first].ignores_opponent() && samplers_[second].ignores_opponent();
  }

  double win_probability(int first, int second) const override {
    if (!both_ignore_opponent(first, second))
      if (const std::optional<double> p = pig::win_probability(rules_, outcomes(first), outcomes(second))) return *p;
    return evaluation({first, second})->win[0];
  }

  // A strategy's own turns, when it ignores the opponent: computed once, for
  // every pair it plays in.
  const Race& process(int strategy) const {
    std::lock_guard lock(processes_mutex_);
    std::optional<Race>& p = processes_[strategy];
    if (!p) p = race_alone(rules_, policies_[strategy]);
    return *p;
  }
  const Policy& policy(int strategy) const { return policies_[strategy]; }

  // A strategy's turn outcomes: computed once, for every pair it plays in.
  const TurnOutcomes& outcomes(int strategy) const {
    std::lock_guard lock(outcomes_mutex_);
    std::optional<TurnOutcomes>& o = outcomes_[strategy];
    if (!o) o.emplace(rules_, policies_[strategy]);
    return *o;
  }

 private:
  template <int Dice, int Sides>
  void play_block(const Table& table, std::uint64_t games, Rng& rng, TableCounts counts) const {
    const int seats = static_cast<int>(table.seats.size());
    const Policy* policy[kMaxSeats];
    const TurnSampler* sampler[kMaxSeats];
    TableCounts::Histogram score_bins[kMaxSeats];
    TableCounts::Histogram turn_bins[kMaxSeats];
    for (int s = 0; s < seats; ++s) {
      policy[s] = &policies_[table.seats[s]];
      sampler[s] = &samplers_[table.seats[s]];
      score_bins[s] = counts.histogram(0, s);
      turn_bins[s] = counts.histogram(1, s);
    }
    const int last_turn_bin = this->turn_bins() - 1;
    Rng local = rng;                             // a copy the compiler keeps in registers
    ThrowStream<Dice, Sides> dice(local, die_);  // for the rare turn still in play after its draw
    play_games<kGamesSideBySide>(
        policy, seats, rules_.goal, games,
        [&](int s, int phase, int i, int j) { return sampler[s]->play_turn(phase, i, j, local, dice); },
        [&](const int* score, const int* turns, int winner) {
          ++counts.wins(winner);
          for (int s = 0; s < seats; ++s) {
            ++score_bins[s][score[s]];
            ++turn_bins[s][std::min(turns[s], last_turn_bin)];
          }
        });
    rng = local;
  }

  Rules rules_;
  Die die_;  // the die the game was loaded with
  std::vector<Policy> policies_;
  std::vector<TurnSampler> samplers_;  // per strategy, pointing into policies_
  mutable std::mutex processes_mutex_;
  mutable std::vector<std::optional<Race>> processes_;  // per strategy, on demand
  mutable std::mutex outcomes_mutex_;
  mutable std::vector<std::optional<TurnOutcomes>> outcomes_;  // per strategy, on demand
};

void describe(std::ostream& out) {
  describe_rules_and_families(out, rules_parameters(), families());
  out << "  exact solver cost (check, solve pig): optimal_win is solved once, about goal^3: 2-5 s at two dice,\n"
      << "    goal 200. A pair of strategies that ignore the opponent (hold_at, optimal_turns) takes milliseconds\n"
      << "    (each one's turns are computed once); a pair with optimal_win about 0.25 s at two dice, goal 200:\n"
      << "    check follows every pair of scores turn by turn until the rest is a geometric series, solve pig\n"
      << "    --config needs P(win) only (one pass by score sums). optimal_win and 15 others there (bash\n"
      << "    scripts/bench.sh --exact, 2 threads): solve pig --config 7.2 s (26 s before), check 13.6 s (31 s)\n";
}

}  // namespace

std::unique_ptr<PigGame> load_game(const JsonNode& config, const Die& die) {
  return std::make_unique<PigGameImpl>(read_rules(config), config, die);
}

GameEntry pig_entry() {
  TableLimits tables;
  tables.blind = false;
  tables.why_not_blind = "Pig is played in turns, each player seeing the others' scores";
  return {
      .name = "pig",
      .title = "Pig",
      .description = "Pig: throw one or two dice until you hold or throw a 1; first to bank the goal wins",
      .tables = tables,
      .load = [](const JsonNode& config, const Die& die) -> std::unique_ptr<Game> { return load_game(config, die); },
      .rules_parameters = rules_parameters,
      .families = families,
      .measures = {"score", "turns"},
      .describe = describe};
}

}  // namespace dicesim::pig
