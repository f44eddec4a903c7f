// Sixers on the engine: config → rules and compiled strategies, a block of
// games at a table, the exact odds and `dicesim list` (`dicesim solve
// sixers`: sixers_solve.cpp).
#include "games/sixers/sixers_game.h"

#include <algorithm>
#include <climits>
#include <map>
#include <memory>
#include <ostream>

#include "config/bound_rules.h"
#include "games/game.h"
#include "games/sixers/sixers.h"
#include "games/sixers/sixers_exact.h"
#include "games/sixers/sixers_play.h"
#include "games/sixers/sixers_strategies.h"

namespace dicesim::sixers {
namespace {

// Each rule with the member of Rules it sets (config/bound_rules.h).
const std::vector<BoundRule<Rules>>& bound_rules() {
  static const std::vector<BoundRule<Rules>> all = {
      integer_rule(integer_parameter("dice", 1, kMaxDice, "dice rolled at the start of a turn"), &Rules::dice),
      integer_rule(
          integer_parameter("rolls", 1, kMaxRolls, "rolls per turn; rolls >= dice: roll until every die is kept"),
          &Rules::rolls),
      integer_rule(integer_parameter("zero_face", 0, kFaces, "the face that scores 0; 0 = none"), &Rules::zero_face),
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

class SixersGameImpl final : public SixersGame {
 public:
  SixersGameImpl(const Rules& rules, const JsonNode& config, const Die& die)
      : rules_(rules), hands_(rules, die), solutions_(hands_) {
    strategies_ = read_strategies(config, [&](const JsonNode& spec) {
      policies_.push_back(compile_strategy(spec, hands_, solutions_));
      samplers_.push_back(PolicySampler(hands_, policies_.back()));
      by_seat_.push_back(plays_by_seat(spec.value()));
    });
  }

  json rules() const override { return bound_rules_json(rules_, bound_rules()); }

  std::vector<Measure> measures() const override {
    return {
        {"score", "total score of the dice kept in one turn (lowest wins)", "points", 0, 1, rules_.max_score() + 1}};
  }

  void play(const Table& table, std::uint64_t games, Rng& stream, TableCounts counts) const override {
    table_player(table, counts, [](const PolicySampler& sampler) {
      return sampler.view();
    }).play(games, stream, counts.data());
  }

  DevicePlay device_play(const std::vector<const Table*>& tables) const override {
#ifdef DICESIM_WITH_CUDA
    auto device = std::make_shared<DeviceArrays>();
    std::map<const PolicySampler*, SamplerView> copied;  // a sampler seated at many tables is copied once
    const auto copy = [&](const PolicySampler& sampler) {
      const auto [at, added] = copied.try_emplace(&sampler);
      if (added) at->second = sampler.view_in(*device);
      return at->second;
    };
    std::vector<TablePlayer> players;
    for (const Table* table : tables)
      players.push_back(
          table_player(*table, TableCounts(nullptr, static_cast<int>(table->seats.size()), measure_bins()), copy));
    const TablePlayer* on_device = device->copy(players);
    return [device, on_device](std::uint64_t seed, const std::vector<TableBatch>& batches, std::int64_t* counters) {
      play_on_gpu(on_device, seed, batches, counters);
    };
#else
    (void)tables;
    return {};
#endif
  }

  std::optional<TableOdds> exact(const Table& table) const override {
    std::vector<const Policy*> seats;
    for (std::size_t s = 0; s < table.seats.size(); ++s) seats.push_back(&seat_policy(table, int(s)));
    return table_odds(hands_, seats, table.sequential);
  }

  const Hands& hands() const override { return hands_; }
  const Policy& policy(int strategy) const override { return policies_[strategy]; }
  Solutions& solutions() const override { return solutions_; }

 private:
  // The table's hot loop (sixers_play.h) over `counts`' layout, each
  // seat's sampler seen through `view`: the host's tables or a GPU's copies.
  template <class View>
  TablePlayer table_player(const Table& table, TableCounts counts, View&& view) const {
    TablePlayer player;
    player.seats = static_cast<int>(table.seats.size());
    player.sequential = table.sequential;
    player.layout = counts;
    for (int s = 0; s < player.seats; ++s) player.seat[s] = view(seat_sampler(table, s));
    return player;
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

void describe(std::ostream& out) {
  describe_rules_and_families(out, rules_parameters(), families());
  out << "  exact solver cost (check, solve sixers): under a second for any rules (solve sixers --headtohead: 0.3 s)\n";
}

}  // namespace

std::unique_ptr<SixersGame> load_game(const JsonNode& config, const Die& die) {
  return std::make_unique<SixersGameImpl>(read_rules(config), config, die);
}

GameEntry sixers_entry() {
  return {
      .name = "sixers",
      .title = "Sixers",
      .description = "Sixers: six dice, three rolls, keep at least one die per roll, a 3 scores 0, lowest wins",
      .tables = {},
      .lowest_score_wins = true,
      .load = [](const JsonNode& config, const Die& die) -> std::unique_ptr<Game> { return load_game(config, die); },
      .rules_parameters = rules_parameters,
      .families = families,
      .measures = {"score"},
      .describe = describe,
      .add_solve_command = add_solve_command,
      .bench_cases = {{"sixers dv(2,2) distribution",
                       R"J({"game":"sixers","seed":1,"games":1,"strategies":[
           {"name":"dv(2,2)","family":"dice_value_threshold","per_roll":[2,2]}]})J"},
                      {"sixers dv(2,2) vs ts(5,5) head to head",
                       R"J({"game":"sixers","seed":1,"games":1,"strategies":[
           {"name":"dv(2,2)","family":"dice_value_threshold","per_roll":[2,2]},
           {"name":"ts(5,5)","family":"turn_score_threshold","per_roll":[5,5]}],
          "contests":{"distributions":false,"headtohead":true}})J"},
                      {"sixers optimal_mean then target_aware, sequential",
                       R"J({"game":"sixers","seed":1,"games":1,"strategies":[
           {"name":"best","family":"optimal_mean"},{"name":"aware","family":"target_aware"}],
          "contests":{"distributions":false,"sequential_tables":[["best","aware"]]}})J"}}};
}

}  // namespace dicesim::sixers
