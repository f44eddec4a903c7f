// 10,000 on the engine: config -> rules and compiled strategies, a block of
// games at a table, the exact first-turn odds and `dicesim list` (`dicesim
// solve tenk`: tenk_solve.cpp).
#include "games/tenk/tenk_game.h"

#include <oneapi/tbb/collaborative_call_once.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <iomanip>
#include <mutex>
#include <numeric>
#include <ostream>
#include <sstream>

#include "engine/memory_budget.h"
#include "engine/progress.h"
#include "games/game.h"
#include "games/tenk/tenk.h"
#include "games/tenk/tenk_exact.h"
#include "games/tenk/tenk_game_loop.h"
#include "games/tenk/tenk_strategies.h"
#include "games/tenk/tenk_table.h"
#include "games/tenk/tenk_table_win.h"
#include "games/tenk/tenk_win.h"

namespace dicesim::tenk {
namespace {

constexpr int kTurnBins = 20000 / kPoint + 1;  // single-turn scores 0..20000, higher clamped into the last bin

class TenkGameImpl final : public TenkGame {
 public:
  TenkGameImpl(const Rules& rules, const JsonNode& config, const Die& die) : rules_(rules), scoring_(rules, die) {
    Solutions solutions(scoring_);
    strategies_ = read_strategies(
        config, [&](const JsonNode& spec) { policies_.push_back(compile_strategy(spec, scoring_, solutions)); });
    samplers_.resize(policies_.size());
    sampler_built_ = std::make_unique<std::once_flag[]>(policies_.size());
  }

  json rules() const override { return rules_json(rules_); }

  int score_bins() const { return (rules_.target + 10000) / kPoint + 1; }

  // The measures, in this order (see sim/games/tenk/README.md).
  enum : int { kScore, kTurns, kTurnScore, kFirstTurn, kPlace };
  std::vector<Measure> measures() const override {
    const int capped = rules_.max_rounds + 1;
    return {
        {"score", "final score (target + 10000 and above in the last bin)", "points", 0, kPoint, score_bins()},
        {"turns", "turns the seat played; the last bin (" + std::to_string(capped) + ") counts games cut at max_rounds",
         "turns", 0, 1, capped + 1},
        {"turn_score", "the score of every turn (0: a bust; 20000 and above in the last bin)", "points", 0, kPoint,
         kTurnBins},
        {"first_turn", "the score of the seat's first turn (20000 and above in the last bin)", "points", 0, kPoint,
         kTurnBins},
        {"place", "finishing place (1: won; shared places count for each seat)", "place", 1, 1, kMaxPlayers},
    };
  }

  void play(const Table& table, std::uint64_t games, Rng& rng, TableCounts counts) const override {
    attach_wins();
    const int seats = static_cast<int>(table.seats.size());
    const Policy* policy[kMaxPlayers];
    const TurnSampler* sampler[kMaxPlayers];
    TableCounts::Histogram turn_scores[kMaxPlayers];
    int start[kMaxPlayers] = {};  // units
    for (int s = 0; s < seats; ++s) {
      start[s] = table.start(s) / kPoint;
      policy[s] = &policies_[table.seats[s]];
      sampler[s] = turn_sampler(table.seats[s]);
      // optimal_win's tables are per turn start of two seats.
      if (seats != 2 && sampler[s] && sampler[s]->per_turn_start()) sampler[s] = nullptr;
      turn_scores[s] = counts.histogram(kTurnScore, s);
    }
    // Where every turn is drawn whole (but chases), a leaner loop: chosen
    // here, once per block.
    bool whole_turns = true, by_score = true;
    for (int s = 0; s < seats; ++s) {
      whole_turns = whole_turns && sampler[s] && sampler[s]->whole_turns();  // no IV.5
      by_score = by_score && sampler[s] && !sampler[s]->per_turn_start();
    }
    // A local copy keeps the generator's state in registers: the compiler
    // cannot tell that the counters written below never alias it.
    Rng local = rng;
    if (whole_turns && by_score)
      play_games<TurnLoop::whole_by_score>(seats, policy, sampler, start, games, local, turn_scores, counts);
    else if (whole_turns)
      play_games<TurnLoop::whole>(seats, policy, sampler, start, games, local, turn_scores, counts);
    else
      play_games<TurnLoop::general>(seats, policy, sampler, start, games, local, turn_scores, counts);
    rng = local;
  }

  // `games` games at a table, one after another (side by side, the way
  // Pig plays, measured slower here: a game's state no longer fits the
  // registers); kLoop: see play_next_turn.
  template <TurnLoop kLoop>
  void play_games(int seats, const Policy* const* policy, const TurnSampler* const* sampler, const int* start,
                  std::uint64_t games, Rng& rng, TableCounts::Histogram* turn_scores, TableCounts counts) const {
    const int last_score_bin = score_bins() - 1;
    const auto clamp = [](int bin, int last) { return bin < last ? bin : last; };
    const auto on_turn = [turn_scores, clamp](int s, int units) { ++turn_scores[s][clamp(units, kTurnBins - 1)]; };
    GameResult result;
    for (std::uint64_t game = 0; game < games; ++game) {
      play_game<kLoop>(scoring_, policy, seats, rng, result, on_turn, sampler, start);
      int winners = 0, winner = 0;
      for (int s = 0; s < seats; ++s) {
        ++counts.histogram(kScore, s)[clamp(result.score[s] / kPoint, last_score_bin)];
        ++counts.histogram(kTurns, s)[result.capped ? rules_.max_rounds + 1 : result.turns[s]];
        ++counts.histogram(kFirstTurn, s)[clamp(result.first_turn[s] / kPoint, kTurnBins - 1)];
        ++counts.histogram(kPlace, s)[result.place[s] - 1];
        if (result.place[s] == 1) ++winners, winner = s;
      }
      if (winners == 1) {
        ++counts.wins(winner);
      } else {
        ++counts.tie_games();
        for (int s = 0; s < seats; ++s) counts.tied(s) += result.place[s] == 1;
      }
    }
  }

  // The exact odds of the game: who wins, each seat's place, first turn and
  // turns played. Two seats are solved over both scores (evaluate_win, any
  // strategies); more are followed as races (tenk_table.h), where no seat
  // plays optimal_win and no turn takes over another's position (IV.5).
  // Who wins is left out where max_rounds may cut a game: the two-seat
  // solver plays on.
  std::optional<TableOdds> exact(const Table& table) const override {
    attach_wins();
    TableOdds odds;
    odds.probability.resize(kPlace + 1);
    for (auto& measure : odds.probability) measure.resize(table.seats.size());
    if (table.has_head_start() && table.seats.size() != 2 && !plays_table_solve(table)) {
      odds.not_compared.push_back(
          "win, tie, place, turns and first turns: a head start at a table of three or more that no seat plays the "
          "table solve at (the walk over the table's turns starts every seat at 0)");
      return odds;
    }
    if (table.seats.size() != 2) return table_odds(table, std::move(odds));
    if (const std::optional<std::string> refused = win_solver_refusal(rules_, false))
      return first_turn_only(table, std::move(odds), "the second seat's first turn", *refused);
    const std::unique_ptr<SeatRule> first = seat_rule(table.seats[0]), second = seat_rule(table.seats[1]);
    const GameShape shape = game_shape(scoring_, *first, *second);
    if (table.has_head_start())
      odds.not_compared.push_back(
          "turns and first turns: with a head start (the walk over the game's length starts at 0 points; who wins "
          "is read from the solution at the head start)");
    else
      for (int seat = 0; seat < 2; ++seat) {
        odds.probability[kFirstTurn][seat] = in_turn_bins(shape.first_turn[seat]);
        odds.probability[kTurns][seat] = shape.turns[seat];
      }
    if (const std::optional<std::string> why = cut_changes_winners(shape.cut_at_most)) {
      odds.not_compared.push_back("win, tie and place: " + *why);
      return odds;
    }
    const WinSolution game = evaluate_win(scoring_, *first, *second);
    const WinValue start = game.at(0, table.start(0) / kPoint, table.start(1) / kPoint);
    odds.win = {start.win, 1 - start.win - start.tie};
    odds.tie = start.tie;
    for (int seat = 0; seat < 2; ++seat) odds.probability[kPlace][seat] = two_seat_places(odds, seat);
    return odds;
  }

  // Where the game is not followed (`why`): the first seat's first turn
  // alone, which no other seat can change.
  TableOdds first_turn_only(const Table& table, TableOdds odds, const std::string& later_seats,
                            const std::string& why) const {
    const Policy& first = policies_[table.seats[0]];
    // turn_distribution is the first turn from 0 points: not one from a head start.
    const bool from_zero = table.start(0) == 0;
    if (!first.plays_to_win && from_zero)
      odds.probability[kFirstTurn][0] = in_turn_bins(turn_distribution(scoring_, first));
    odds.not_compared.push_back("win, tie, place, turns and " + (from_zero ? later_seats : "every first turn") + ": " +
                                why);
    return odds;
  }

  // A table of three or more seats (tenk_table.h): who wins, the turns and
  // first turns; every place at three seats, only the first past them.
  TableOdds table_odds(const Table& table, TableOdds odds) const {
    if (plays_table_solve(table)) return table_solve_odds(table, std::move(odds));
    std::vector<const Policy*> seats;
    for (int strategy : table.seats) seats.push_back(&policies_[strategy]);
    if (const std::optional<std::string> refused = table_refusal(rules_, seats))
      return first_turn_only(table, std::move(odds), "the later seats' first turns", *refused);
    TableOutcome outcome = evaluate_table(scoring_, seats);
    for (std::size_t seat = 0; seat < seats.size(); ++seat) {
      odds.probability[kFirstTurn][seat] = in_turn_bins(outcome.first_turn[seat]);
      odds.probability[kTurns][seat] = std::move(outcome.turns[seat]);
    }
    if (const std::optional<std::string> why = cut_changes_winners(outcome.cut_at_most)) {
      odds.not_compared.push_back("win, tie and place: " + *why);
      return odds;
    }
    odds.win = std::move(outcome.win);
    odds.tie = outcome.tie;
    if (outcome.place.empty()) odds.not_compared.push_back(places_refused(seats.size()));
    for (std::size_t seat = 0; seat < outcome.place.size(); ++seat)
      odds.probability[kPlace][seat] = std::move(outcome.place[seat]);
    return odds;
  }

  // Why the places after the first are not compared at a table of `seats`
  // (four or more): the state the answers' chain would need.
  std::string places_refused(std::size_t seats) const {
    const int units = rules_.target / kPoint;
    return "places after the first at tables of four or more seats: a seat's place compares its final score with "
           "every other's, and the seats answering the reach after the second depend on two or more earlier final "
           "scores jointly, not just the best: " +
           readable_count(std::pow(double(units), double(seats - 2))) + " states (" + std::to_string(seats - 2) +
           " final scores, " + std::to_string(units) +
           " values each) per reacher, best score and round (one at "
           "three seats, where every place is compared)";
  }

  bool plays_table_solve(const Table& table) const {
    return std::any_of(table.seats.begin(), table.seats.end(), [&](int s) { return policies_[s].table_seats > 0; });
  }

  // A table with a seat playing the table solve (optimal_win with "seats"):
  // every seat's chance of winning from the table solve, each seat's play
  // fixed (a table of nothing but the solved play is the solve itself),
  // and its places.
  TableOdds table_solve_odds(const Table& table, TableOdds odds) const {
    const int n = static_cast<int>(table.seats.size());
    odds.not_compared.push_back(
        "turns and first turns at a table that plays the table solve: the solve follows who wins and the places, "
        "not how long a game lasts");
    if (const std::optional<std::string> why = cut_changes_winners(std::nullopt)) {
      odds.not_compared.push_back("win, tie and place: " + *why);
      return odds;
    }
    std::vector<std::optional<FixedSeat>> fixed;
    bool all_solved = true;
    for (int strategy : table.seats) {
      const Policy& policy = policies_[strategy];
      all_solved = all_solved && policy.table;
      if (policy.table) {
        fixed.push_back(policy.table->fixed_seat());
      } else if (!policy.chase) {
        odds.not_compared.push_back("win, tie and place: \"" + strategies_[strategy].name +
                                    "\" plays its last turn without chase, which the table solve does not follow");
        return odds;
      } else {
        fixed.push_back(policy_seat(rules_, policy));
      }
    }
    std::optional<TableWin> mixed;
    std::optional<HeldCharge> held;
    if (!all_solved) {
      held.emplace(table_win_bytes(rules_, n), "the table solve of a table with fixed seats");
      mixed = solve_table_win(scoring_, n, fixed);
    }
    const TableWin& solve = all_solved ? *policies_[table.seats[0]].table : *mixed;
    // The solve values every score tuple: a head start is read where it starts.
    std::array<int, kMostTableWinSeats> start{};
    for (int s = 0; s < n; ++s) start[std::size_t(s)] = table.start(s) / kPoint;
    const TableWinOdds& at = solve.value(0, start.data());
    odds.win.assign(at.win.begin(), at.win.begin() + n);
    odds.tie = std::max(0.0, 1 - std::accumulate(odds.win.begin(), odds.win.end(), 0.0));  // as TableWin::tie
    if (n == 3)  // table solves seat three or four
      add_solved_places(fixed, start.data(), odds);
    else
      odds.not_compared.push_back(places_refused(table.seats.size()));
    return odds;
  }

  // A seat's places at two seats: first where it wins or ties.
  static std::vector<double> two_seat_places(const TableOdds& odds, int seat) {
    std::vector<double> place = {odds.win[seat] + odds.tie, odds.win[1 - seat]};
    place.resize(kMaxPlayers, 0.0);
    return place;
  }

  // Every place at a table of three that plays the table solve
  // (TablePlaceOdds::of).
  void add_solved_places(const std::vector<std::optional<FixedSeat>>& fixed, const int* start, TableOdds& odds) const {
    std::vector<FixedSeat> seats;
    for (const std::optional<FixedSeat>& seat : fixed) seats.push_back(*seat);
    TablePlaceOdds places;
    try {
      places = solve_table_places(scoring_, seats, start);
    } catch (const MemoryRefused& refused) {  // the rest is compared all the same
      odds.not_compared.push_back("place: " + std::string(refused.what()));
      return;
    }
    for (int s = 0; s < 3; ++s) {
      const std::array<double, 3> place = places.of(s, odds.win[s], rules_.exact_target);
      odds.probability[kPlace][s] = {place.begin(), place.end()};
      odds.probability[kPlace][s].resize(kMaxPlayers, 0.0);
    }
  }

  // Why max_rounds may change who wins beyond what check can see (nullopt
  // where it cannot). A cut below kNegligibleCut shifts a rate by less than
  // 1e-4 of its standard error even at 1e15 games.
  std::optional<std::string> cut_changes_winners(const std::optional<double>& cut_at_most) const {
    constexpr double kNegligibleCut = 1e-12;
    const std::string rounds = "max_rounds " + std::to_string(rules_.max_rounds);
    if (!cut_at_most) {
      // Not followed (IV.5, or both seats read the other's score): the
      // default's cut is negligible under any rules that end games at a
      // usual pace, a lower one is not known to be.
      if (rules_.max_rounds >= Rules{}.max_rounds) return std::nullopt;
      return rounds + " (below the default " + std::to_string(Rules{}.max_rounds) +
             "): the chance that it cuts a game is not followed here, and the exact odds play on";
    }
    if (*cut_at_most <= kNegligibleCut) return std::nullopt;
    std::ostringstream chance;
    chance << std::setprecision(3) << *cut_at_most;
    return rounds + ": a game lasts into its last round with a chance up to " + chance.str() +
           ", and who wins a cut game is not followed";
  }

  // A distribution by units of kPoint, the last turn bin holding the rest.
  static std::vector<double> in_turn_bins(const std::vector<double>& p) {
    if (p.empty()) return {};
    std::vector<double> bins(kTurnBins, 0.0);
    for (std::size_t k = 0; k < p.size(); ++k) bins[std::min<std::size_t>(k, kTurnBins - 1)] += p[k];
    return bins;
  }

  // A strategy's decisions for the exact odds of a two-player game.
  std::unique_ptr<SeatRule> seat_rule(int strategy) const {
    const Policy& policy = policies_[strategy];
    if (policy.win) return std::make_unique<WinRule>(policy.win->policy);
    return std::make_unique<PolicyRule>(rules_, policy);
  }

  // optimal_win sits at two seats, or with "seats" at tables of exactly that many.
  int most_seats(int strategy) const override {
    const Policy& policy = policies_[strategy];
    return policy.table_seats ? policy.table_seats : policy.plays_to_win ? 2 : kMaxPlayers;
  }
  int fewest_seats(int strategy) const override {
    return policies_[strategy].table_seats ? policies_[strategy].table_seats : 1;
  }
  // Points banked at the start, in the game's steps of 50, short of the target.
  int most_head_start() const override { return rules_.target - kPoint; }
  int head_start_step() const override { return kPoint; }

  const Scoring& scoring() const override { return scoring_; }
  const Policy& policy(int strategy) const override { return policies_[strategy]; }

 private:
  // optimal_win strategies get their solution when the game is first played
  // or evaluated, once, whatever the threads: loading a config never solves.
  // The threads that wait for it help with it (the table solve is parallel):
  // with std::call_once they would sit idle.
  void attach_wins() const {
    tbb::collaborative_call_once(wins_attached_, [this] {
      Solutions solutions(scoring_);
      for (Policy& policy : policies_) solutions.attach_win(policy);
    });
  }

  // A strategy's whole-turn sampler (null where none applies), built the
  // first time it plays (a few ms; optimal_win's about 0.3 s): `check` and `solve` never need
  // one, and a sweep builds its strategies' in parallel, table by table.
  const TurnSampler* turn_sampler(int strategy) const {
    std::call_once(sampler_built_[strategy],
                   [&] { samplers_[strategy] = TurnSampler::build(scoring_, policies_[strategy]); });
    return samplers_[strategy].get();
  }

  Rules rules_;
  Scoring scoring_;
  mutable std::vector<Policy> policies_;  // mutable: attach_wins() completes them
  mutable tbb::collaborative_once_flag wins_attached_;
  mutable std::vector<std::unique_ptr<TurnSampler>> samplers_;  // [strategy]
  mutable std::unique_ptr<std::once_flag[]> sampler_built_;
};

void describe(std::ostream& out) {
  out << "  rules (all optional): \"preset\", then any key of the preset's rules. Presets:\n";
  for (const PresetName& p : kPresets)
    out << "    " << std::left << std::setw(14) << p.name << std::right << p.source << "; \"" << p.file_name
        << "\" works too" << (&p == &kPresets[0] ? " (the default)" : "") << "\n";
  out << "  the default rules: " << rules_json(preset("game_of_dice")).dump() << "\n"
      << "  strategy families:\n";
  describe_families(out, families());
  out << "  exact solver cost (check: whole games at two-player tables; at 3-8 seats who wins, first turns and\n"
      << "    turns (about 2 s a table of six at 10000; under IV.5 only the first seat's first turn);\n"
      << "    solve tenk): about 0.2 s per pair of heuristics at target 10000 (check configs/tenk_seed000.json:\n"
      << "    42 pairs in 8 s); optimal_win: solved once in about 5 s at 10000 (growing as the cube of the\n"
      << "    target), cached, then about 3 s per pair it plays in; optimal_win with \"seats\": 3 (target 13,800 or\n"
      << "    less by memory, seed 003 11,900): solved when first played or checked, about 1 s at target 1,500,\n"
      << "    30 s at 5,000 and 7 minutes at 10,000 on two cores, and tables with it compared by who wins\n";
}

}  // namespace

std::unique_ptr<TenkGame> load_game(const JsonNode& config, const Die& die) {
  return std::make_unique<TenkGameImpl>(read_rules(config.find("rules")), config, die);
}

GameEntry tenk_entry() {
  // A game alone has no meaning (no distributions); blind tables are played
  // like sequential ones, in seating order (see sim/games/tenk/README.md).
  TableLimits tables;
  tables.min_seats = 2;
  tables.max_seats = kMaxPlayers;
  return {
      .name = "tenk",
      .title = "10,000",
      .description = "10,000: six dice, set scoring dice aside, bank or throw on, first to 10,000 wins",
      .tables = tables,
      .load = [](const JsonNode& config, const Die& die) -> std::unique_ptr<Game> { return load_game(config, die); },
      .rules_parameters = rules_parameters,
      .families = families,
      .measures = {"score", "turns", "turn_score", "first_turn", "place"},
      .describe = describe,
      .add_solve_command = add_solve_command,
      .bench_cases = {
          {"tenk ev_heuristic vs ev_heuristic, two players to 10,000",
           R"J({"game":"tenk","seed":1,"games":1,"strategies":[
           {"name":"a","family":"ev_heuristic"},{"name":"b","family":"ev_heuristic"}],
          "contests":{"distributions":false,"sequential_tables":[["a","b"]]}})J"},
          {"tenk optimal_win vs ev_heuristic, two players",
           R"J({"game":"tenk","seed":1,"games":1,"strategies":[
           {"name":"win","family":"optimal_win"},{"name":"ev","family":"ev_heuristic"}],
          "contests":{"distributions":false,"sequential_tables":[["win","ev"]]}})J"},
          {"tenk optimal_expected pair, IV.4 partial set aside (1/10)",
           R"J({"game":"tenk","seed":1,"games":1,"rules":{"preset":"seed000","partial_set_aside":true},"strategies":[
           {"name":"a","family":"optimal_expected"},{"name":"b","family":"optimal_expected"}],
          "contests":{"distributions":false,"sequential_tables":[["a","b"]]}})J",
           10}}};
}

}  // namespace dicesim::tenk
