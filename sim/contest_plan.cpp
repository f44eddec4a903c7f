#include "contest_plan.h"

#include <map>

namespace dicesim {
namespace {

class Planner {
 public:
  Planner(const std::vector<Strategy>& strategies) : strategies_(strategies) {}

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
    if (names.size() > kMaxSeats) node.fail("at most " + std::to_string(kMaxSeats) + " strategies at a table");
    for (const JsonNode& name_node : names) {
      const std::string name = name_node.string();
      int found = -1;
      for (std::size_t s = 0; s < strategies_.size(); ++s)
        if (strategies_[s].name == name) found = static_cast<int>(s);
      if (found < 0) name_node.fail("unknown strategy \"" + name + "\" (not in /strategies)");
      for (int s : seats)
        if (s == found) name_node.fail("\"" + name + "\" is already at this table");
      seats.push_back(found);
    }
    return seats;
  }

  ContestPlan plan;

 private:
  const std::vector<Strategy>& strategies_;
  std::map<std::pair<std::vector<int>, bool>, int> index_;  // (seats, sequential) -> table: each table once
};

bool flag(const JsonNode& contests, const std::string& key, bool fallback) {
  const std::optional<JsonNode> node = contests.find(key);
  return node ? node->boolean() : fallback;
}

}  // namespace

ContestPlan plan_contests(const JsonNode& config, const std::vector<Strategy>& strategies) {
  const json empty = json::object();
  const JsonNode contests = config.find("contests").value_or(JsonNode(empty, config.file(), "/contests"));
  contests.only_keys({"distributions", "headtohead", "sequential", "nway", "sequential_tables"});
  const int count = static_cast<int>(strategies.size());
  Planner planner(strategies);
  ContestPlan& plan = planner.plan;

  plan.distribution.assign(count, -1);
  if (flag(contests, "distributions", true))
    for (int s = 0; s < count; ++s) plan.distribution[s] = planner.table({s}, false);

  // The pair matrices exist only for the contests asked for: without them a
  // plan (and the run) stays linear in the number of strategies.
  if (flag(contests, "headtohead", false)) {
    plan.headtohead.assign(count, std::vector<int>(count, -1));
    for (int a = 0; a < count; ++a)
      for (int b = a + 1; b < count; ++b) plan.headtohead[a][b] = planner.table({a, b}, false);
  }
  if (flag(contests, "sequential", false)) {
    plan.sequential.assign(count, std::vector<int>(count, -1));
    for (int a = 0; a < count; ++a)
      for (int b = 0; b < count; ++b)
        if (a != b) plan.sequential[a][b] = planner.table({a, b}, true);
  }

  for (const auto& [key, sequential] : {std::pair{"nway", false}, std::pair{"sequential_tables", true}}) {
    if (const std::optional<JsonNode> groups = contests.find(key)) {
      for (const JsonNode& group : groups->elements())
        (sequential ? plan.sequential_tables : plan.nway).push_back(planner.table(planner.group(group), sequential));
    }
  }
  if (plan.tables.empty()) contests.fail("no contest to play (enable distributions, headtohead, ... )");
  return plan;
}

}  // namespace dicesim
