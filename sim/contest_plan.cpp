#include "contest_plan.h"

#include <map>

namespace dicesim {
namespace {

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

class Planner {
 public:
  Planner(const Game& game, const GameEntry& entry) : strategies_(game.strategies()), entry_(entry), game_(game) {}

  int table(std::vector<int> seats, bool sequential) {
    const auto [found, added] = index_.try_emplace({seats, sequential}, static_cast<int>(plan.tables.size()));
    if (!added) return found->second;
    // The names as a JSON array: no two tables can share a key, whatever
    // characters their strategies' names hold.
    json names = json::array();
    for (int s : seats) names.push_back(strategies_[s].name);
    const std::string key = (sequential ? "sequential" : "independent") + names.dump();
    plan.tables.push_back({key, Table{std::move(seats), sequential}});
    return static_cast<int>(plan.tables.size()) - 1;
  }

  std::vector<int> group(const JsonNode& node) const {
    std::vector<int> seats;
    const std::vector<JsonNode> names = node.elements(2);
    if (names.size() < std::size_t(entry_.tables.min_seats) || names.size() > std::size_t(entry_.tables.max_seats))
      node.fail(seats_message(entry_));
    for (const JsonNode& name_node : names) {
      const std::string name = name_node.string();
      int found = -1;
      for (std::size_t s = 0; s < strategies_.size(); ++s)
        if (strategies_[s].name == name) found = static_cast<int>(s);
      if (found < 0) name_node.fail("unknown strategy \"" + name + "\" (not in /strategies)");
      for (int s : seats)
        if (s == found) name_node.fail("\"" + name + "\" is already at this table");
      if (const int most = game_.most_seats(found); int(names.size()) > most)
        name_node.fail("\"" + name + "\" plays only at tables of at most " + std::to_string(most) + " players");
      seats.push_back(found);
    }
    return seats;
  }

  ContestPlan plan;

 private:
  const std::vector<Strategy>& strategies_;
  const GameEntry& entry_;
  const Game& game_;
  std::map<std::pair<std::vector<int>, bool>, int> index_;  // (seats, sequential) -> table: each table once
};

bool flag(const JsonNode& contests, const std::string& key, bool fallback) {
  const std::optional<JsonNode> node = contests.find(key);
  return node ? node->boolean() : fallback;
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

ContestPlan plan_contests(const JsonNode& config, const GameEntry& entry, const Game& game) {
  const std::vector<Strategy>& strategies = game.strategies();
  const TableLimits& limits = entry.tables;
  const bool blind = limits.blind_allowed(game.rules());
  const json empty = json::object();
  const JsonNode contests = config.find("contests").value_or(JsonNode(empty, config.file(), "/contests"));
  contests.only_keys({"distributions", "headtohead", "sequential", "nway", "sequential_tables"});
  const int count = static_cast<int>(strategies.size());
  Planner planner(game, entry);
  ContestPlan& plan = planner.plan;

  // Under `validate` each contest (and each group) reports its own error.
  const std::size_t errors_before = errors_so_far();
  plan.distribution.assign(count, -1);
  independently([&] {
    if (!flag(contests, "distributions", true)) return;
    if (limits.min_seats > 1)
      culprit(contests, "distributions")
          .fail(seats_message(entry) + ": set \"distributions\": false (a distribution plays each strategy alone)");
    for (int s = 0; s < count; ++s) plan.distribution[s] = planner.table({s}, false);
  });
  const bool pairs = seats_pairs(limits);

  // The pair matrices exist only for the contests asked for: without them a
  // plan (and the run) stays linear in the number of strategies.
  independently([&] {
    if (!flag(contests, "headtohead", false)) return;
    if (!blind) refuse_blind(contests, "headtohead", entry, "\"sequential\" (both seatings)");
    if (!pairs) contests.at("headtohead").fail(seats_message(entry));
    plan.headtohead.assign(count, std::vector<int>(count, -1));
    for (int a = 0; a < count; ++a)
      for (int b = a + 1; b < count; ++b) plan.headtohead[a][b] = planner.table({a, b}, false);
  });
  independently([&] {
    if (!flag(contests, "sequential", false)) return;
    if (!pairs) contests.at("sequential").fail(seats_message(entry));
    plan.sequential.assign(count, std::vector<int>(count, -1));
    for (int a = 0; a < count; ++a)
      for (int b = 0; b < count; ++b)
        if (a != b) plan.sequential[a][b] = planner.table({a, b}, true);
  });

  for (const auto& [key, sequential] : {std::pair{"nway", false}, std::pair{"sequential_tables", true}}) {
    independently([&] {
      const std::optional<JsonNode> groups = contests.find(key);
      if (!groups) return;
      if (!sequential && !blind && !groups->elements().empty())
        refuse_blind(contests, key, entry, "\"sequential_tables\"");
      for (const JsonNode& group : groups->elements())
        independently([&] {
          (sequential ? plan.sequential_tables : plan.nway).push_back(planner.table(planner.group(group), sequential));
        });
    });
  }
  if (errors_since(errors_before)) return plan;
  if (plan.tables.empty()) contests.fail("no contest to play (enable distributions, headtohead, ... )");
  return plan;
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
