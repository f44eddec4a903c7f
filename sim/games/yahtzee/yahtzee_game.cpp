// Yahtzee on the engine: config -> rules and compiled strategies, a block
// of games at a table, the exact odds and `dicesim list` (`dicesim solve
// yahtzee`: yahtzee_solve.cpp).
#include "games/yahtzee/yahtzee_game.h"

#include <map>
#include <mutex>
#include <ostream>

#include "config/bound_rules.h"
#include "engine/memory_budget.h"
#include "games/game.h"
#include "games/yahtzee/yahtzee_exact.h"
#include "games/yahtzee/yahtzee_strategies.h"

namespace dicesim::yahtzee {
namespace {

// Each rule with the member of Rules it sets (config/bound_rules.h).
const std::vector<BoundRule<Rules>>& bound_rules() {
  static const std::vector<BoundRule<Rules>> all = {
      choice_rule(choice_parameter("card", {"yahtzee", "yatzy"},
                                   "yahtzee: the 13 boxes of Yahtzee; yatzy: the 15 of Scandinavian Yatzy (pairs, "
                                   "kinds scoring their dice, straights 15 and 20, full house its sum, Yatzy 50, "
                                   "upper bonus 50, no Yahtzee bonus or joker)"),
                  &Rules::card),
      integer_rule(integer_parameter("rolls", 1, kMaxRolls, "throws a turn (the first of all five dice)"),
                   &Rules::rolls),
      integer_rule(integer_parameter("bonus_threshold", 1, kMaxBonusThreshold,
                                     "the upper section total that wins the upper bonus"),
                   &Rules::bonus_threshold),
      integer_rule(integer_parameter("upper_bonus", 0, 1000, "the upper bonus (default 35; Yatzy's card: 50)"),
                   &Rules::upper_bonus),
      boolean_rule(boolean_parameter("yahtzee_bonus", "100 for each Yahtzee thrown while the Yahtzee box holds 50"),
                   &Rules::yahtzee_bonus),
      choice_rule(choice_parameter("joker", {"none", "forced", "free"},
                                   "a Yahtzee thrown when its box is filled: none: scored as any throw; forced (the "
                                   "official rule): its face's upper box if open, else any open lower box (full "
                                   "house and straights in full), else an upper box for 0; free (the published "
                                   "solutions'): any open box, full house and straights in full when its face's "
                                   "upper box is filled"),
                  &Rules::joker),
  };
  return all;
}

}  // namespace

const std::vector<Parameter>& rules_parameters() {
  static const std::vector<Parameter> all = parameters_of(bound_rules());
  return all;
}

Rules read_rules(const JsonNode& config) {
  Rules rules = read_bound_rules(config, bound_rules());
  if (rules.card != CardKind::yatzy) return rules;
  // Yatzy's card has its own defaults, and no Yahtzee bonus or joker.
  const std::optional<JsonNode> given = config.find("rules");
  for (const char* key : {"yahtzee_bonus", "joker"})
    if (const std::optional<JsonNode> node = given->find(key))
      node->fail(std::string(key) +
                 " is a rule of Yahtzee's card; Yatzy's (\"card\": \"yatzy\") has no Yahtzee "
                 "bonus or joker");
  if (!given->find("upper_bonus")) rules.upper_bonus = 50;
  rules.yahtzee_bonus = false;
  rules.joker = Joker::none;
  return rules;
}

namespace {

// Games in flight per seat and thread (StrategyTurns::play). Part of the
// results: changing it changes which draws go to which game.
constexpr int kGamesSideBySide = 16;

class YahtzeeGameImpl final : public YahtzeeGame {
 public:
  YahtzeeGameImpl(const Rules& rules, const JsonNode& config, const Die& die)
      : rules_(rules), die_(die), solutions_(rules) {
    const CardSpace space(rules);
    // Strategies of one spec (copies seated at one table) share their tables.
    std::map<std::string, int> first_of_spec;
    strategies_ = read_strategies(config, [&](const JsonNode& spec) {
      json key = spec.value();
      key.erase("name");
      const auto [first, fresh] = first_of_spec.try_emplace(key.dump(), static_cast<int>(compiled_.size()));
      plan_of_strategy_.push_back(first->second);
      if (!fresh) return;
      memory_budget().charge(turn_table_bytes(space), spec.file() + ": " + spec.path() + " (its turn tables)");
      auto compiled = std::make_unique<Compiled>();
      compiled->optimal = spec.at("family").string() == "optimal_mean";
      if (compiled->optimal)
        memory_budget().charge_once("yahtzee optimum " + bound_rules_json(rules, bound_rules()).dump(),
                                    space.size() * sizeof(double), "the solitaire optimum of " + spec.path());
      compiled->plan = plan_of(spec, rules_, solutions_);
      compiled_.push_back(std::move(compiled));
    });
  }

  json rules() const override { return bound_rules_json(rules_, bound_rules()); }
  const Rules& yahtzee_rules() const override { return rules_; }

  std::vector<Measure> measures() const override {
    return {{"score", "final score, bonuses included (the highest wins)", "points", 0, 1, rules_.max_score() + 1}};
  }

  void play(const Table& table, std::uint64_t games, Rng& stream, TableCounts counts) const override {
    const StrategyTurns* seat[kMaxSeats];
    for (std::size_t s = 0; s < table.seats.size(); ++s) seat[s] = &turns(plan_of_strategy_[table.seats[s]]);
    Rng rng = stream;  // a local copy stays in registers
    std::uint64_t g = 0;
    for (; g + kGamesSideBySide <= games; g += kGamesSideBySide) play_games<kGamesSideBySide>(table, seat, rng, counts);
    for (; g < games; ++g) play_games<1>(table, seat, rng, counts);
    stream = rng;
  }

  std::optional<TableOdds> exact(const Table& table) const override {
    std::vector<const std::vector<double>*> seats;
    for (int s : table.seats) seats.push_back(&distribution(s));
    return highest_score_odds(seats);
  }

  const std::vector<double>& distribution(int strategy) const override {
    Compiled& c = *compiled_[plan_of_strategy_[strategy]];
    std::call_once(c.distribution_once, [&] {
      if (c.optimal) solutions_.optimum();  // before the parallel loop that follows its plan
      c.distribution = score_distribution(rules_, c.plan);
    });
    return c.distribution;
  }

 private:
  // What a strategy's turn tables hold at most: a word per card of the space
  // and (the most any family reaches, measured) 12 outcomes per card.
  static std::uint64_t turn_table_bytes(const CardSpace& space) {
    return space.size() * (StrategyTurns::kBytesPerCard + 12 * StrategyTurns::kBytesPerOutcome);
  }

  // A strategy as the engine plays it and as check evaluates it: its plan,
  // its turn tables and its exact distribution, each made when first needed
  // (from any thread; run --dry-run and validate make none).
  struct Compiled {
    bool optimal = false;  // optimal_mean: follows the optimum, solved first
    PlanOf plan;
    std::once_flag turns_once, distribution_once;
    std::unique_ptr<StrategyTurns> turns;
    std::vector<double> distribution;
  };

  const StrategyTurns& turns(int plan) const {
    Compiled& c = *compiled_[plan];
    std::call_once(c.turns_once, [&] {
      if (c.optimal) solutions_.optimum();  // before the parallel loop that follows its plan
      c.turns = std::make_unique<StrategyTurns>(rules_, c.plan, die_, false);
    });
    return *c.turns;
  }

  // N games: each seat plays its N games, then each game is scored.
  template <int N>
  void play_games(const Table& table, const StrategyTurns* const* seat, Rng& rng, TableCounts counts) const {
    const int seats = static_cast<int>(table.seats.size());
    int score[kMaxSeats][N];
    for (int s = 0; s < seats; ++s) {
      seat[s]->play<N>(rng, score[s]);
      for (int i = 0; i < N; ++i) ++counts.score(s, score[s][i]);
    }
    if (seats == 1) {
      counts.wins(0) += N;
      return;
    }
    for (int i = 0; i < N; ++i) {
      int highest = -1, holders = 0, holder = 0;
      for (int s = 0; s < seats; ++s) highest = std::max(highest, score[s][i]);
      for (int s = 0; s < seats; ++s) {
        const bool top = score[s][i] == highest;
        holders += top;
        holder = top ? s : holder;
      }
      const bool tie = holders > 1;
      counts.wins(holder) += !tie;
      counts.tie_games() += tie;
      for (int s = 0; s < seats; ++s) counts.tied(s) += tie && score[s][i] == highest;
    }
  }

  Rules rules_;
  Die die_;  // the samplers' (the exact odds throw the fair die)
  mutable Solutions solutions_;
  std::vector<int> plan_of_strategy_;  // each strategy's: the first of its spec's
  std::vector<std::unique_ptr<Compiled>> compiled_;
};

std::unique_ptr<Game> load(const JsonNode& config, const Die& die) { return load_game(config, die); }

void describe(std::ostream& out) {
  describe_rules_and_families(out, rules_parameters(), families());
  out << "  exact solver cost (check, solve yahtzee): the solitaire optimum 2.7 s (2 threads, 8 MiB); each\n"
      << "    strategy's turn tables 1 to 3 s (the optimum's 86 MiB), its exact score distribution 2 to 4 s\n";
}

}  // namespace

std::unique_ptr<YahtzeeGame> load_game(const JsonNode& config, const Die& die) {
  return std::make_unique<YahtzeeGameImpl>(read_rules(config), config, die);
}

GameEntry yahtzee_entry() {
  return {.name = "yahtzee",
          .title = "Yahtzee",
          .description = "Yahtzee (and Yatzy): five dice, three throws a turn, thirteen boxes; the highest total wins",
          .tables = {},
          .load = load,
          .rules_parameters = rules_parameters,
          .families = families,
          .measures = {"score"},
          .describe = describe,
          .add_solve_command = add_solve_command,
          .bench_cases = {{"yahtzee optimal_mean alone",
                           R"J({"game":"yahtzee","seed":1,"games":1,"strategies":[
                               {"name":"optimal","family":"optimal_mean"}]})J"},
                          {"yahtzee best_box alone",
                           R"J({"game":"yahtzee","seed":1,"games":1,"strategies":[
                               {"name":"best_box","family":"best_box"}]})J"},
                          {"yahtzee upper_first alone",
                           R"J({"game":"yahtzee","seed":1,"games":1,"strategies":[
                               {"name":"upper_first","family":"upper_first"}]})J"},
                          {"yahtzee keep_most alone",
                           R"J({"game":"yahtzee","seed":1,"games":1,"strategies":[
                               {"name":"keep_most","family":"keep_most"}]})J"}}};
}

}  // namespace dicesim::yahtzee
