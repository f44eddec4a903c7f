#include "plan/contest_plan.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <tuple>
#include <unordered_map>

#include "config/suggest.h"
#include "config/terminal_text.h"
#include "engine/memory_budget.h"

namespace dicesim {
namespace {

// The most tables one group of sets, and a whole config, may stand for.
constexpr std::size_t kMaxGroups = 1'000'000;
constexpr std::size_t kMaxTables = kMaxGroups;

// "2 to 8", "1 or 2"
std::string seat_range(const TableLimits& limits) {
  return std::to_string(limits.min_seats) + (limits.max_seats == limits.min_seats + 1 ? " or " : " to ") +
         std::to_string(limits.max_seats);
}

// Whether pairs (headtohead, sequential) fit the game's tables.
bool seats_pairs(const TableLimits& limits) { return limits.min_seats <= 2 && limits.max_seats >= 2; }

std::string seats_message(const GameEntry& entry) {
  return "a " + std::string(entry.title) + " table seats " + seat_range(entry.tables) + " players";
}

// A group's seats, each given a different strategy from its options: the
// seats before chosen() are chosen, the later ones hold a seating that
// choose() may rearrange (augmenting paths, as in bipartite matching).
class SeatFilling {
 public:
  explicit SeatFilling(const std::vector<std::vector<int>>& options)
      : options_(&options), seats_(options.size(), kOpen) {}

  // Seats every later seat; false when no seating gives them all different strategies.
  bool fill_later_seats() {
    for (std::size_t seat = chosen_; seat < seats_.size(); ++seat)
      if (!reseat(seat)) return false;
    return true;
  }
  // The filling with the next seat chosen as `strategy`, if the seats after
  // it can still be filled.
  std::optional<SeatFilling> choose(int strategy) const {
    const std::size_t holder = holder_of(strategy);
    if (holder < chosen_) return std::nullopt;  // an earlier seat has it
    SeatFilling next = *this;
    const std::size_t seat = next.chosen_++;
    next.seats_[seat] = strategy;
    if (holder == seat || holder == kNobody) return next;  // the later seats keep their seating
    next.seats_[holder] = kOpen;
    if (!next.reseat(holder)) return std::nullopt;
    return next;
  }
  const std::vector<int>& seats() const { return seats_; }

 private:
  static constexpr int kOpen = -1;
  static constexpr std::size_t kNobody = SIZE_MAX;

  std::size_t holder_of(int strategy) const {
    const auto found = std::find(seats_.begin(), seats_.end(), strategy);
    return found == seats_.end() ? kNobody : std::size_t(found - seats_.begin());
  }
  // Gives the open later seat `seat` a strategy, moving later seats along a path.
  bool reseat(std::size_t seat) {
    std::vector<bool> visited(seats_.size(), false);
    return find_path(seat, visited);
  }
  bool find_path(std::size_t seat, std::vector<bool>& visited) {
    for (int strategy : (*options_)[seat]) {
      const std::size_t holder = holder_of(strategy);
      if (holder != kNobody) {
        // A chosen seat keeps its strategy; a later one may move to another
        // (still holding this one meanwhile, so that it does not take it back).
        if (holder < chosen_ || holder == seat || visited[holder]) continue;
        visited[holder] = true;
        if (!find_path(holder, visited)) continue;
      }
      seats_[seat] = strategy;
      return true;
    }
    return false;
  }

  const std::vector<std::vector<int>>* options_;
  std::vector<int> seats_;  // kOpen: not seated yet
  std::size_t chosen_ = 0;
};

// A seat of a group given as an object: its strategy (or set) and head start.
const std::vector<Parameter>& seat_parameters() {
  static const std::vector<Parameter> all = {
      shaped_parameter("strategy", {{"type", "string"}}, "a strategy name or set name").as_required(),
      integer_parameter("head_start", 0, std::numeric_limits<int>::max(),
                        "points the seat starts with, in a race to a goal (up to the goal less one)")
          .with_default(0),
  };
  return all;
}

// Why a group's sets cannot seat it.
std::string unfillable_message(const std::vector<std::vector<int>>& options) {
  std::vector<int> all;
  for (const std::vector<int>& seat : options) all.insert(all.end(), seat.begin(), seat.end());
  std::sort(all.begin(), all.end());
  const std::size_t distinct = std::size_t(std::unique(all.begin(), all.end()) - all.begin());
  const std::string seats = std::to_string(options.size()) + (options.size() == 1 ? " set seat" : " set seats");
  if (distinct < options.size())
    return "its sets stand for " + std::to_string(distinct) + " strategies that no other seat holds, too few for its " +
           seats;
  return "no choice from its sets gives its " + seats + " different strategies that no other seat holds";
}

class Planner {
 public:
  Planner(const Game& game, const GameEntry& entry)
      : strategies_(game.strategies()), entry_(entry), game_(game), bins_(game.measure_bins()) {
    for (std::size_t s = 0; s < strategies_.size(); ++s) {
      longest_name_ = std::max(longest_name_, strategies_[s].name.size());
      index_of_name_[strategies_[s].name] = int(s);
      if (!strategies_[s].set.empty()) sets_[strategies_[s].set].push_back(int(s));
    }
  }

  // The strategies a name stands for: a strategy, or a set (a sweep's).
  std::vector<int> members(const JsonNode& name_node) const {
    const std::string name = name_node.string();
    if (const auto found = index_of_name_.find(name); found != index_of_name_.end()) return {found->second};
    if (const auto found = sets_.find(name); found != sets_.end()) return found->second;
    std::vector<std::string_view> known;
    for (const auto& [set, members] : sets_) known.push_back(set);
    for (const Strategy& s : strategies_) known.push_back(s.name);
    name_node.fail("unknown strategy or set " + quoted_text(name) + " (not in /strategies)" +
                   did_you_mean(name, known));
  }

  // The strategies a list of names and sets stands for, each once, in order.
  std::vector<int> members_of_list(const JsonNode& list) const {
    std::vector<int> out;
    std::vector<bool> seen(strategies_.size(), false);
    for (const JsonNode& name : list.elements(1))
      for (int s : members(name))
        if (!seen[std::size_t(s)]) {
          seen[std::size_t(s)] = true;
          out.push_back(s);
        }
    return out;
  }

  int table(std::vector<int> seats, bool sequential, std::vector<int> head_start = {}) {
    Table table{std::move(seats), sequential, std::move(head_start)};
    if (!table.has_head_start()) table.head_start.clear();  // as a table without them: the same table
    const auto [found, added] =
        index_.try_emplace({table.seats, table.sequential, table.head_start}, static_cast<int>(plan.tables.size()));
    if (!added) return found->second;
    if (plan.tables.size() >= kMaxTables)
      contest_->fail("the contests make more than the " + std::to_string(kMaxTables) + " tables a config may play");
    plan.tables.push_back({table_key(table), std::move(table)});
    return static_cast<int>(plan.tables.size()) - 1;
  }

  // The names as a JSON array (a seat with a head start as
  // {"head_start": points, "strategy": name}): no two tables can share a key,
  // whatever characters their strategies' names hold, and a table without
  // head starts keeps the key (and so the random streams) it always had.
  std::string table_key(const Table& table) const {
    json names = json::array();
    for (std::size_t seat = 0; seat < table.seats.size(); ++seat) {
      const std::string& name = strategies_[std::size_t(table.seats[seat])].name;
      const int points = table.start(int(seat));
      names.push_back(points == 0 ? json(name) : json{{"head_start", points}, {"strategy", name}});
    }
    return (table.sequential ? "sequential" : "independent") + names.dump();
  }

  // The seatings a group stands for: one per combination of its sets'
  // members. A seat that names one strategy holds it, whether or not other
  // seats do (seats are positions: ["ai", "bank{total}", "ai"]); a set never
  // gives a seat a strategy another seat holds, so the combinations that
  // would are skipped.
  std::vector<std::vector<int>> groups(const JsonNode& node) const {
    const std::vector<JsonNode> seat_nodes = node.elements(2);
    if (seat_nodes.size() < std::size_t(entry_.tables.min_seats) ||
        seat_nodes.size() > std::size_t(entry_.tables.max_seats))
      node.fail(seats_message(entry_));
    std::vector<std::vector<int>> seat_options;
    for (const JsonNode& seat_node : seat_nodes) {
      const JsonNode name_node = strategy_of_seat(seat_node);
      seat_options.push_back(members(name_node));
      for (int s : seat_options.back()) check_seats(s, seat_nodes.size(), name_node);
    }
    const std::size_t seats = seat_nodes.size();
    std::vector<int> seating(seats, -1);
    std::vector<std::size_t> set_seats;  // the seats a set fills, in order
    for (std::size_t seat = 0; seat < seats; ++seat)
      if (seat_options[seat].size() == 1)
        seating[seat] = seat_options[seat][0];
      else
        set_seats.push_back(seat);
    std::vector<std::vector<int>> set_options;
    for (std::size_t seat : set_seats) {
      std::vector<int> free = seat_options[seat];
      std::erase_if(free, [&](int s) { return std::find(seating.begin(), seating.end(), s) != seating.end(); });
      set_options.push_back(std::move(free));
    }
    // Only choices after which the later seats can still be filled are
    // followed: every branch then ends in a table, so the search is
    // polynomial in the tables it makes (at most kMaxGroups), however many
    // seatings would fail.
    SeatFilling start(set_options);
    if (!start.fill_later_seats()) node.fail(unfillable_message(set_options));
    std::vector<std::vector<int>> out;
    const std::function<void(const SeatFilling&, std::size_t)> seat_from = [&](const SeatFilling& filling,
                                                                               std::size_t k) {
      if (k == set_options.size()) {
        if (out.size() >= kMaxGroups) node.fail("the sets make more than " + std::to_string(kMaxGroups) + " tables");
        for (std::size_t i = 0; i < set_seats.size(); ++i) seating[set_seats[i]] = filling.seats()[i];
        out.push_back(seating);
        return;
      }
      for (int s : set_options[k])
        if (const std::optional<SeatFilling> next = filling.choose(s)) seat_from(*next, k + 1);
    };
    seat_from(start, 0);
    return out;
  }

  // A seat of a group: a name (or set), or {"strategy": name, "head_start": points}.
  static JsonNode strategy_of_seat(const JsonNode& seat) {
    if (!seat.value().is_object()) return seat;
    seat.only_keys(keys_of(seat_parameters()));
    return seat.at("strategy");
  }

  // The points each seat of a group starts with (empty: none), each checked
  // against the game's head starts.
  std::vector<int> head_starts(const JsonNode& node) const {
    std::vector<int> points;
    const std::vector<JsonNode> seat_nodes = node.elements();
    for (const JsonNode& seat : seat_nodes) {
      const std::optional<JsonNode> given = seat.value().is_object() ? seat.find("head_start") : std::nullopt;
      points.push_back(given ? head_start(*given) : 0);
    }
    if (std::all_of(points.begin(), points.end(), [](int p) { return p == 0; })) points.clear();
    return points;
  }

  int head_start(const JsonNode& given) const {
    const int most = game_.most_head_start(), step = game_.head_start_step();
    if (most == 0)
      given.fail("a " + std::string(entry_.title) +
                 " table allows no head start under these rules (head starts are points at the start of a race to "
                 "a goal, up to the goal less one)");
    const int points = static_cast<int>(given.integer(0, most));
    if (points % step != 0)
      given.fail("a head start is a multiple of " + std::to_string(step) + " points, got " + std::to_string(points));
    return points;
  }

  // Before a contest at `node` plans its `tables` tables (counted, not
  // listed; some may be planned already): refuses more than kMaxTables, and
  // charges the plan's entries (each table's key of its seats' names, its
  // seats, its index entry) to the budget. Returns how many tables are
  // planned before it, for charged_new.
  std::size_t expect(const JsonNode& node, std::uint64_t tables, int seats) {
    if (tables > kMaxTables)
      node.fail("makes " + std::to_string(tables) + " tables, past the " + std::to_string(kMaxTables) +
                " a config may play");
    contest_ = node;
    const std::uint64_t key = 16 + std::uint64_t(seats) * (longest_name_ + 3 + kHeadStartKey);
    const std::uint64_t entry = sizeof(PlannedTable) + 2 * key + 2 * seats * sizeof(int) + 64;
    memory_budget().charge(tables * entry, where(node) + " (the plan of " + std::to_string(tables) + " tables)");
    return plan.tables.size();
  }

  // After it: charges the counters of the tables it added (a table that
  // several contests share is one table), as many copies as a run keeps,
  // before any counter is allocated.
  void charge_new(const JsonNode& node, std::size_t before, int seats) const {
    const std::uint64_t tables = plan.tables.size() - before;
    const std::uint64_t counters =
        TableCounts::size(seats, bins_) * sizeof(std::int64_t) * std::uint64_t(memory_budget().counter_copies);
    memory_budget().charge(tables * counters, where(node) + " (" + std::to_string(tables) + " tables)");
  }

  static std::string where(const JsonNode& node) { return node.file() + ": " + node.path(); }

  // Fails at `where` unless strategy s can sit at a table of `seats`
  // (Game::fewest_seats, most_seats); `advice` follows the reason.
  void check_seats(int s, std::size_t seats, const JsonNode& where, const std::string& advice = "") const {
    const int fewest = game_.fewest_seats(s), most = game_.most_seats(s);
    if (int(seats) >= fewest && int(seats) <= most) return;
    const std::string size = fewest == most      ? "exactly " + std::to_string(most)
                             : int(seats) > most ? "at most " + std::to_string(most)
                                                 : "at least " + std::to_string(fewest);
    where.fail("\"" + strategies_[std::size_t(s)].name + "\" plays only at tables of " + size + " players" + advice);
  }

  ContestPlan plan;

 private:
  const std::vector<Strategy>& strategies_;
  const GameEntry& entry_;
  const Game& game_;
  // A seat's {"head_start": points, "strategy": ...} around its name in a table's key.
  static constexpr std::uint64_t kHeadStartKey = 36;
  // (seats, sequential, head starts) -> table: each table once
  std::map<std::tuple<std::vector<int>, bool, std::vector<int>>, int> index_;
  std::unordered_map<std::string, int> index_of_name_;
  std::map<std::string, std::vector<int>> sets_;
  std::optional<JsonNode> contest_;  // the contest being planned, for its errors
  std::vector<int> bins_;            // of the game's measures: a table's counters
  std::size_t longest_name_ = 0;     // of the strategies: a table's key
};

// A list of strategy names and set names.
ordered_json names_schema() {
  return {{"type", "array"},
          {"minItems", 1},
          {"items", {{"type", "string"}}},
          {"description", "strategy names and set names"}};
}

// "headtohead" and "sequential": true (every strategy) or a list.
ordered_json round_robin_schema() { return {{"anyOf", {{{"type", "boolean"}}, names_schema()}}}; }

// "nway" and "sequential_tables": groups of names and sets, one per seat.
ordered_json groups_schema() {
  const ordered_json seat = {{"anyOf", {{{"type", "string"}}, object_schema(seat_parameters())}}};
  return {{"type", "array"},
          {"items",
           {{"type", "array"},
            {"minItems", 2},
            {"maxItems", kMaxSeats},
            {"items", seat},
            {"description",
             "one entry per seat: a strategy name or set name, or {\"strategy\": name, \"head_start\": points}; a "
             "set stands for each of its strategies, a name may hold several seats"}}}};
}

// The keys of one rectangle of "against".
const std::vector<Parameter>& rectangle_parameters() {
  static const std::vector<Parameter> all = {
      shaped_parameter("players", names_schema(), "").as_required(),
      shaped_parameter("opponents", names_schema(), "").as_required(),
      boolean_parameter("sequential", "in sequence in both seatings, or false: blind, each pair once")
          .with_default(true),
  };
  return all;
}

// A key's value, or its declared default.
bool flag(const JsonNode& object, const std::vector<Parameter>& keys, const std::string& key) {
  const std::optional<JsonNode> node = object.find(key);
  return node ? node->boolean() : named(keys, key).default_value->get<bool>();
}

// "headtohead" or "sequential": true (every strategy), false, or a list of
// names and sets (every pair of their strategies).
std::optional<std::vector<int>> round_robin(const JsonNode& contests, const std::string& key, const Planner& planner,
                                            int count) {
  const std::optional<JsonNode> node = contests.find(key);
  if (!node) return std::nullopt;
  if (node->value().is_array()) return planner.members_of_list(*node);
  if (!node->boolean()) return std::nullopt;
  std::vector<int> all(static_cast<std::size_t>(count));
  for (int s = 0; s < count; ++s) all[std::size_t(s)] = s;
  return all;
}

// The node to blame for a contest the game cannot play: its key, or the
// contests themselves when the contest is on by default.
JsonNode culprit(const JsonNode& contests, const std::string& key) { return contests.find(key).value_or(contests); }

void refuse_blind(const JsonNode& contests, const std::string& key, const GameEntry& entry,
                  const std::string& instead) {
  culprit(contests, key)
      .fail(std::string(entry.tables.why_not_blind) + ": no blind tables; use " + instead + " instead");
}

}  // namespace

const std::vector<Parameter>& contest_parameters() {
  static const std::vector<Parameter> all = [] {
    const ordered_json rectangle = object_schema(rectangle_parameters());
    return std::vector<Parameter>{
        boolean_parameter("distributions", "each strategy alone").with_default(true),
        shaped_parameter("headtohead", round_robin_schema(),
                         "every unordered pair, both blind: true (every strategy) or a list of names and sets")
            .with_default(false),
        shaped_parameter("sequential", round_robin_schema(),
                         "every ordered pair, the second seat seeing the first's result: true (every strategy) or a "
                         "list of names and sets")
            .with_default(false),
        shaped_parameter("against",
                         {{"anyOf", {rectangle, {{"type", "array"}, {"minItems", 1}, {"items", rectangle}}}}},
                         "every player against every opponent (a rectangular contest): one such object or a list of "
                         "them"),
        shaped_parameter("nway", groups_schema(), "groups at one table, all blind"),
        shaped_parameter("sequential_tables", groups_schema(), "groups in seating order"),
    };
  }();
  return all;
}

ContestPlan plan_contests(const JsonNode& config, const GameEntry& entry, const Game& game) {
  const std::vector<Strategy>& strategies = game.strategies();
  const TableLimits& limits = entry.tables;
  const bool blind = limits.blind_allowed(game.rules());
  const json empty = json::object();
  const JsonNode contests = config.find("contests").value_or(JsonNode(empty, config.file(), "/contests"));
  contests.only_keys(keys_of(contest_parameters()));
  const int count = static_cast<int>(strategies.size());
  Planner planner(game, entry);
  ContestPlan& plan = planner.plan;

  // Under `validate` each contest (and each group) reports its own error.
  const std::size_t errors_before = errors_so_far();
  plan.distribution.assign(count, -1);
  independently([&] {
    if (!flag(contests, contest_parameters(), "distributions")) return;
    if (limits.min_seats > 1)
      culprit(contests, "distributions")
          .fail(seats_message(entry) + ": set \"distributions\": false (a distribution plays each strategy alone)");
    const JsonNode node = culprit(contests, "distributions");
    const std::size_t before = planner.expect(node, std::uint64_t(count), 1);
    for (int s = 0; s < count; ++s) {
      planner.check_seats(s, 1, node, ": set \"distributions\": false (a distribution plays each strategy alone)");
      plan.distribution[s] = planner.table({s}, false);
    }
    planner.charge_new(node, before, 1);
  });
  const bool pairs = seats_pairs(limits);

  // A pair asked for twice (by a round robin and a rectangle) is one table;
  // the lists are made unique and sorted at the end.
  const auto add_blind_pair = [&](int a, int b) {
    if (a > b) std::swap(a, b);
    plan.headtohead.push_back({a, b, planner.table({a, b}, false)});
  };
  const auto add_ordered_pair = [&](int a, int b) { plan.sequential.push_back({a, b, planner.table({a, b}, true)}); };
  independently([&] {
    const std::optional<std::vector<int>> members = round_robin(contests, "headtohead", planner, count);
    if (!members) return;
    if (!blind) refuse_blind(contests, "headtohead", entry, "\"sequential\" (both seatings)");
    if (!pairs) contests.at("headtohead").fail(seats_message(entry));
    for (int s : *members) planner.check_seats(s, 2, contests.at("headtohead"));
    const std::uint64_t n = members->size();
    const std::size_t before =
        planner.expect(contests.at("headtohead"), n * (n - std::min<std::uint64_t>(n, 1)) / 2, 2);
    for (std::size_t i = 0; i < members->size(); ++i)
      for (std::size_t j = i + 1; j < members->size(); ++j) add_blind_pair((*members)[i], (*members)[j]);
    planner.charge_new(contests.at("headtohead"), before, 2);
  });
  independently([&] {
    const std::optional<std::vector<int>> members = round_robin(contests, "sequential", planner, count);
    if (!members) return;
    if (!pairs) contests.at("sequential").fail(seats_message(entry));
    for (int s : *members) planner.check_seats(s, 2, contests.at("sequential"));
    const std::uint64_t n = members->size();
    const std::size_t before = planner.expect(contests.at("sequential"), n * (n - std::min<std::uint64_t>(n, 1)), 2);
    for (int a : *members)
      for (int b : *members)
        if (a != b) add_ordered_pair(a, b);
    planner.charge_new(contests.at("sequential"), before, 2);
  });
  if (const std::optional<JsonNode> against = contests.find("against")) {
    const std::vector<JsonNode> rectangles =
        against->value().is_array() ? against->elements(1) : std::vector<JsonNode>{*against};
    for (const JsonNode& rectangle : rectangles)
      independently([&] {
        rectangle.only_keys(keys_of(rectangle_parameters()));
        const std::vector<int> players = planner.members_of_list(rectangle.at("players"));
        const std::vector<int> opponents = planner.members_of_list(rectangle.at("opponents"));
        const bool sequential = flag(rectangle, rectangle_parameters(), "sequential");  // both seatings by default
        if (!sequential && !blind) refuse_blind(rectangle, "sequential", entry, "\"sequential\": true (the default)");
        if (!pairs) rectangle.fail(seats_message(entry));
        for (const std::vector<int>* side : {&players, &opponents})
          for (int s : *side) planner.check_seats(s, 2, rectangle);
        const std::size_t before =
            planner.expect(rectangle, std::uint64_t(players.size()) * opponents.size() * (sequential ? 2 : 1), 2);
        for (int p : players)
          for (int o : opponents) {
            if (p == o) continue;
            if (!sequential) {
              add_blind_pair(p, o);
              continue;
            }
            add_ordered_pair(p, o);  // in both seats
            add_ordered_pair(o, p);
          }
        planner.charge_new(rectangle, before, 2);
      });
  }

  for (const auto& section : {std::pair{"nway", false}, std::pair{"sequential_tables", true}}) {
    // Named copies: clang 14 (the fuzzing build) cannot capture structured bindings.
    const std::string key = section.first;
    const bool sequential = section.second;
    independently([&] {
      const std::optional<JsonNode> groups = contests.find(key);
      if (!groups) return;
      if (!sequential && !blind && !groups->elements().empty())
        refuse_blind(contests, key, entry, "\"sequential_tables\"");
      for (const JsonNode& group : groups->elements())
        independently([&] {
          std::vector<std::vector<int>> seatings = planner.groups(group);
          const std::vector<int> head_start = planner.head_starts(group);
          const int seats = int(group.elements().size());
          const std::size_t before = planner.expect(group, seatings.size(), seats);
          for (std::vector<int>& seats_of : seatings)
            (sequential ? plan.sequential_tables : plan.nway)
                .push_back(planner.table(std::move(seats_of), sequential, head_start));
          planner.charge_new(group, before, seats);
        });
    });
  }
  for (std::vector<PlannedPair>* list : {&plan.headtohead, &plan.sequential}) {
    std::sort(list->begin(), list->end());
    list->erase(std::unique(list->begin(), list->end()), list->end());
  }
  if (errors_since(errors_before)) return plan;
  if (plan.tables.empty()) contests.fail("no contest to play (enable distributions, headtohead, ... )");
  return plan;
}

int pair_table(const std::vector<PlannedPair>& pairs, int first, int second) {
  const auto found = std::lower_bound(pairs.begin(), pairs.end(), PlannedPair{first, second, -1});
  return found != pairs.end() && found->first == first && found->second == second ? found->table : -1;
}

std::string describe_tables(const GameEntry& entry) {
  const TableLimits& limits = entry.tables;
  std::string contests;
  const auto add = [&contests](const std::string& name) { contests += (contests.empty() ? "" : ", ") + name; };
  if (limits.min_seats == 1) add("distributions");
  const bool pairs = seats_pairs(limits);
  if (pairs && limits.blind) add("headtohead");
  if (pairs) add("sequential");
  if (limits.blind) add("nway");
  add("sequential_tables");
  std::string text = "  contests: " + contests + "; " + seat_range(limits) + " players at a table";
  if (!limits.blind)
    text += "; no blind tables (" + std::string(limits.why_not_blind) + ")";
  else if (!limits.blind_rule.empty())
    text += "; headtohead and nway only with \"" + std::string(limits.blind_rule) + "\": \"" +
            std::string(limits.blind_rule_value) + "\" (" + std::string(limits.why_not_blind) + ")";
  return text + "\n";
}

}  // namespace dicesim
