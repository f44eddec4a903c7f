// Pig on the engine: config → rules and compiled strategies, a block of games
// at a table, the exact odds and `dicesim list` (`dicesim solve pig`:
// pig_solve.cpp).
#include "games/pig/pig_game.h"

#include <oneapi/tbb/collaborative_call_once.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <numeric>
#include <optional>
#include <ostream>

#include "config/bound_rules.h"
#include "engine/engine.h"
#include "engine/memory_budget.h"
#include "engine/progress.h"
#include "games/game.h"
#include "games/pig/pig.h"
#include "games/pig/pig_exact.h"
#include "games/pig/pig_strategies.h"
#include "games/pig/pig_table_win.h"

namespace dicesim::pig {
namespace {

// Each rule with the member of Rules it sets (config/bound_rules.h).
const std::vector<BoundRule<Rules>>& bound_rules() {
  static const std::vector<BoundRule<Rules>> all = {
      integer_rule(integer_parameter("dice", 1, 2,
                                     "one die: a 1 loses the turn total; two dice: a single 1 loses it, two 1s also "
                                     "reset the banked score to 0"),
                   &Rules::dice),
      integer_rule(integer_parameter("goal", 1, kMaxGoal, "reaching it with the turn total wins at once"),
                   &Rules::goal),
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

// Games in flight per thread (see play_games).
constexpr int kGamesSideBySide = 4;

class PigGameImpl final : public PigGame {
 public:
  PigGameImpl(const Rules& rules, const JsonNode& config, const Die& die) : rules_(rules), die_(die) {
    Solutions solutions(rules_);
    strategies_ = read_strategies(config, [&](const JsonNode& spec) {
      CompiledStrategy compiled = compile_strategy(spec, rules_, solutions);
      policies_.push_back(std::move(compiled.policy));
      table_seats_.push_back(compiled.table_seats);
    });
    for (const Policy& p : policies_) samplers_.emplace_back(rules_, p, die_);
    processes_.resize(policies_.size());
    outcomes_.resize(policies_.size());
  }

  json rules() const override { return bound_rules_json(rules_, bound_rules()); }

  // Games of more turns than this land in the last bin of "turns".
  int turn_bins() const { return 2 * rules_.goal + 1; }

  std::vector<Measure> measures() const override {
    return {{"score", "final score: the winner's is the goal or more, a loser's its banked score", "points", 0, 1,
             rules_.score_bins()},
            {"turns", "turns the seat played (the last bin: that many or more)", "turns", 0, 1, turn_bins()}};
  }

  void play(const Table& table, std::uint64_t games, Rng& rng, TableCounts counts) const override {
    if (const TableWin* solve = solved_table(table.seats)) {
      play_with_dice<true>(table, solve, games, rng, counts);
      return;
    }
    play_with_dice<false>(table, nullptr, games, rng, counts);
  }

  // optimal_win with "seats" sits only at a table of that many.
  int most_seats(int strategy) const override { return table_seats_[strategy] ? table_seats_[strategy] : kMaxSeats; }
  int fewest_seats(int strategy) const override { return table_seats_[strategy] ? table_seats_[strategy] : 1; }
  int most_head_start() const override { return rules_.goal - 1; }

  std::optional<TableOdds> exact(const Table& table) const override {
    if (!follows_alone(table.seats)) return exact_by_table_solve(table.seats, table.head_start);
    const std::optional<Evaluation> e = evaluation(table.seats, table.head_start);
    TableOdds odds;
    odds.probability = {e->score, e->turns};
    odds.win = e->win;  // alone, a seat wins every game it finishes
    return odds;
  }

  // A table of seats that each ignore the others is a race, any number of
  // seats; one that watches a score is followed in the joint state, which
  // fits for two seats only. `start`: the seats' head starts (empty: none).
  std::optional<Evaluation> evaluation(const std::vector<int>& seats, const std::vector<int>& start = {}) const {
    if (std::all_of(seats.begin(), seats.end(), [&](int s) { return samplers_[s].ignores_opponent(); })) {
      std::vector<Race> from_head_start;  // a race from 0 is kept for every table; one from a head start is not
      from_head_start.reserve(seats.size());
      std::vector<const Race*> races;
      for (std::size_t seat = 0; seat < seats.size(); ++seat) {
        const int points = start.empty() ? 0 : start[seat];
        races.push_back(points == 0
                            ? &process(seats[seat])
                            : &from_head_start.emplace_back(race_alone(rules_, policies_[seats[seat]], points)));
      }
      return evaluate_independent(rules_, races, turn_bins());
    }
    std::vector<const TurnOutcomes*> outcomes_of;
    for (int s : seats) outcomes_of.push_back(&outcomes(s));
    return evaluate_outcomes(rules_, outcomes_of, turn_bins(), true, start);
  }

  // Whether the table's exact odds come from its seats' own turns (a race,
  // or a pair of policies followed turn by turn, with every seat's score and
  // turns): not for a table solve's seat, nor for a seat watching the
  // others' scores at three or more seats.
  bool follows_alone(const std::vector<int>& seats) const {
    if (plays_table_solve(seats)) return false;
    return seats.size() <= 2 ||
           std::all_of(seats.begin(), seats.end(), [&](int s) { return samplers_[s].ignores_opponent(); });
  }
  bool plays_table_solve(const std::vector<int>& seats) const {
    return std::any_of(seats.begin(), seats.end(), [&](int s) { return table_seats_[s] > 0; });
  }

  // Every seat's P(win) from the table solve, each seat's decisions fixed
  // (a table of nothing but the solved policy is the solve itself); the
  // score and turns it does not give. A policy that plans its turns is
  // beyond it: its state would need the turns played.
  TableOdds exact_by_table_solve(const std::vector<int>& seats, const std::vector<int>& head_start = {}) const {
    const int n = static_cast<int>(seats.size());
    TableOdds odds;
    if (const std::string why = table_solve_refusal(seats); !why.empty()) {
      odds.not_compared.push_back(joint_state_refused(seats.size()) + ": " + why);
      return odds;
    }
    for (int s : seats)
      if (!table_seats_[s] && policies_[s].phases() != 1) {
        odds.not_compared.push_back("win, score and turns: \"" + strategies_[s].name +
                                    "\" plans its turns, which the table solve's state (every seat's score) "
                                    "does not hold");
        return odds;
      }
    std::vector<Decision> fixed;
    bool all_solved = true;
    for (int s : seats) {
      all_solved = all_solved && table_seats_[s];
      fixed.push_back(table_seats_[s] ? table_win(n).decision() : policy_decision(policies_[s], n));
    }
    int start[kMostTableSeats] = {};
    std::copy(head_start.begin(), head_start.end(), start);
    // Where the solve drops values it keeps those of the tuples summing below the goal.
    if (const int given = std::accumulate(start, start + n, 0); drops_values(rules_, n) && given >= rules_.goal) {
      odds.not_compared.push_back("win, score and turns: head starts summing to " + std::to_string(given) +
                                  ", past the values the table solve keeps at " + std::to_string(n) +
                                  " seats (those of the scores summing below the goal, " + std::to_string(rules_.goal) +
                                  ")");
      return odds;
    }
    // A table of fixed seats is read at its start only: no decisions kept.
    std::optional<TableWin> mixed;
    std::optional<HeldCharge> held;
    if (!all_solved) {
      held.emplace(table_win_bytes(rules_, n, false), "the table solve of a table with fixed seats");
      mixed = solve_table_win(rules_, n, fixed, {.keep_decisions = false, .drop_values = {}});
    }
    const SeatOdds win = (all_solved ? table_win(n) : *mixed).value(0, start);
    odds.win.assign(win.begin(), win.begin() + n);
    odds.not_compared.push_back("score and turns: the table solve gives each seat's chance of winning only");
    return odds;
  }

  // Why the table solve does not value this table: beyond its seats or
  // memory, or two dice past kMostTwoDiceTurnStarts at a table that does not
  // play the solve (its passes converge slowly: a check would wait many
  // minutes for a table nobody asked to be solved).
  std::string table_solve_refusal(const std::vector<int>& seats) const {
    const int n = static_cast<int>(seats.size());
    if (std::string why = table_win_refusal(rules_, n); !why.empty()) return why;
    constexpr double kMostTwoDiceTurnStarts = 3 * 60 * 60 * 60;  // three seats at goal 60: about 27 s
    if (rules_.dice == 2 && !plays_table_solve(seats) && n * std::pow(rules_.goal, n) > kMostTwoDiceTurnStarts)
      return "with two dice the table solve takes passes, which check runs to " +
             readable_count(kMostTwoDiceTurnStarts) +
             " turn starts (three seats at goal 60: about 27 s; at goal 100 more than 15 minutes) unless a seat "
             "plays optimal_win with \"seats\"";
    return {};
  }

  // Why a table of three or more seats, one of them watching the others'
  // scores, has no exact odds: the joint state it would need, beyond the
  // table solve.
  std::string joint_state_refused(std::size_t seats) const {
    double states = double(seats);  // whose turn, times every seat's banked score
    for (std::size_t s = 0; s < seats; ++s) states *= rules_.goal;
    return "win, score and turns: a seat watching the others' scores at a table of " + std::to_string(seats) +
           " needs the joint state of every banked score (" + readable_count(states) + " turn starts)";
  }

  bool both_ignore_opponent(int first, int second) const {
    return samplers_[first].ignores_opponent() && samplers_[second].ignores_opponent();
  }

  double win_probability(int first, int second) const override {
    if (fewest_seats(first) > 2 || fewest_seats(second) > 2) return std::numeric_limits<double>::quiet_NaN();
    if (!follows_alone({first, second})) return exact_by_table_solve({first, second}).win[0];
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
  // The solve of a table of `seats` seats, shared by every optimal_win with
  // that many "seats": solved when first played or evaluated, once,
  // whatever the threads (loading a config never solves).
  const TableWin& table_win(int seats) const {
    // Collaborative: the solve runs in parallel, and a thread waiting here
    // (a game block that reached the table first) joins it, where a plain
    // call_once would leave it idle, or, stealing a block that waits on the
    // same flag inside the solve, deadlock.
    tbb::collaborative_call_once(table_solved_[seats], [&] { table_wins_[seats] = solve_table_win(rules_, seats); });
    return *table_wins_[seats];
  }

  // The table solve the table's solved seats play (null: none does).
  const TableWin* solved_table(const std::vector<int>& seats) const {
    if (!plays_table_solve(seats)) return nullptr;
    const int n = static_cast<int>(seats.size());
    for (int s : seats)
      if (table_seats_[s] && table_seats_[s] != n)
        throw std::logic_error("pig: a table solve of " + std::to_string(table_seats_[s]) + " at a table of " +
                               std::to_string(n));  // plan_contests refuses such tables
    return &table_win(n);
  }

  template <bool WithSolvedSeats>
  void play_with_dice(const Table& table, const TableWin* solve, std::uint64_t games, Rng& rng,
                      TableCounts counts) const {
    const bool fair = die_.sides == kFaces;
    if (rules_.dice == 1)
      fair ? play_block<1, kFaces, WithSolvedSeats>(table, solve, games, rng, counts)
           : play_block<1, kLoadedSides, WithSolvedSeats>(table, solve, games, rng, counts);
    else
      fair ? play_block<2, kFaces, WithSolvedSeats>(table, solve, games, rng, counts)
           : play_block<2, kLoadedSides, WithSolvedSeats>(table, solve, games, rng, counts);
  }

  // WithSolvedSeats: some seat plays the table solve `solve`, throw by throw
  // (the other tables' loop has not even the test for it).
  template <int Dice, int Sides, bool WithSolvedSeats>
  void play_block(const Table& table, const TableWin* solve, std::uint64_t games, Rng& rng, TableCounts counts) const {
    const int seats = static_cast<int>(table.seats.size());
    const Policy* policy[kMaxSeats];
    const TurnSampler* sampler[kMaxSeats];
    const TableWin* solved[kMaxSeats] = {};
    TableCounts::Histogram score_bins[kMaxSeats];
    TableCounts::Histogram turn_bins[kMaxSeats];
    int start[kMaxSeats] = {};
    for (int s = 0; s < seats; ++s) {
      start[s] = table.start(s);
      policy[s] = &policies_[table.seats[s]];
      sampler[s] = &samplers_[table.seats[s]];
      if (table_seats_[table.seats[s]]) solved[s] = solve;
      score_bins[s] = counts.histogram(0, s);
      turn_bins[s] = counts.histogram(1, s);
    }
    const int last_turn_bin = this->turn_bins() - 1;
    Rng local = rng;                             // a copy the compiler keeps in registers
    ThrowStream<Dice, Sides> dice(local, die_);  // for the rare turn still in play after its draw
    play_games<kGamesSideBySide>(
        policy, seats, rules_.goal, games,
        [&](int s, int phase, int i, int j, const int* scores) {
          if constexpr (WithSolvedSeats)
            if (solved[s]) return solved[s]->play_turn(s, scores, dice);
          return sampler[s]->play_turn(phase, i, j, local, dice);
        },
        [&](const int* score, const int* turns, int winner) {
          ++counts.wins(winner);
          for (int s = 0; s < seats; ++s) {
            ++score_bins[s][score[s]];
            ++turn_bins[s][std::min(turns[s], last_turn_bin)];
          }
        },
        start);
    rng = local;
  }

  Rules rules_;
  Die die_;  // the die the game was loaded with
  std::vector<Policy> policies_;
  std::vector<int> table_seats_;       // per strategy: the seats of the table solve it plays, or 0
  std::vector<TurnSampler> samplers_;  // per strategy, pointing into policies_
  mutable tbb::collaborative_once_flag table_solved_[kMostTableSeats + 1];
  mutable std::optional<TableWin> table_wins_[kMostTableSeats + 1];  // by seats, on demand
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
      << "    scripts/bench.sh --exact, 2 threads): solve pig --config 7.2 s (26 s before), check 13.6 s (31 s)\n"
      << "  optimal_win with seats N: the table solve of N seats (N x goal^N turn starts), solved when first played\n"
      << "    or checked, once, on every thread: one die, three seats, goal 100 about 9 s on two cores, goal 50\n"
      << "    about 1 s; four seats to goal 100 about 17 minutes and 11.6 GiB. A table of three or four with a\n"
      << "    seat watching the scores:\n"
      << "    check values it with the same solve, every seat's decisions fixed (each seat's P(win) only)\n";
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
      .describe = describe,
      .add_solve_command = add_solve_command,
      .bench_cases = {{"pig hold_at 20 vs hold_at 20, one die, sequential",
                       R"J({"game":"pig","seed":1,"games":1,"rules":{"dice":1,"goal":100},"strategies":[
           {"name":"a","family":"hold_at","at":20},{"name":"b","family":"hold_at","at":20}],
          "contests":{"distributions":false,"sequential_tables":[["a","b"]]}})J"},
                      {"pig hold_at 20 vs hold_at 20, two dice, sequential",
                       R"J({"game":"pig","seed":1,"games":1,"rules":{"dice":2,"goal":100},"strategies":[
           {"name":"a","family":"hold_at","at":20},{"name":"b","family":"hold_at","at":20}],
          "contests":{"distributions":false,"sequential_tables":[["a","b"]]}})J"},
                      {"pig optimal_win vs optimal_win, one die, sequential",
                       R"J({"game":"pig","seed":1,"games":1,"rules":{"dice":1,"goal":100},"strategies":[
           {"name":"a","family":"optimal_win"},{"name":"b","family":"optimal_win"}],
          "contests":{"distributions":false,"sequential_tables":[["a","b"]]}})J"}}};
}

}  // namespace dicesim::pig
