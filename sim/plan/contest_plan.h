// The contests a config asks for, as a list of tables for the engine:
//   distributions      every strategy alone             (one-seat tables)
//   headtohead         every unordered pair, blind
//   sequential         every ordered pair, the second seat sees the first's result
//   nway               listed groups, blind
//   sequential_tables  listed groups in seating order, each sees those before
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config/json_input.h"
#include "config/parameters.h"
#include "engine/table.h"
#include "games/game.h"

namespace dicesim {

struct PlannedTable {
  // sequential["a","b"] or, for a blind table, independent["a","b"]: names the
  // table and seeds its streams ("independent" is the old word for blind, kept
  // because changing a key would change every blind table's numbers).
  std::string key;
  Table table;
};

// A pair of strategies at a two-seat table: `first` in seat 0, `second` in seat 1.
struct PlannedPair {
  int first = 0, second = 0;
  int table = -1;  // index into ContestPlan::tables
  auto operator<=>(const PlannedPair&) const = default;
};

struct ContestPlan {
  std::vector<PlannedTable> tables;  // each table once, however many contests use it
  // Indices into tables (-1 where a contest did not ask for that table).
  std::vector<int> distribution;  // [strategy]
  // The pairs played, each once, sorted by (first, second): a list, so that
  // a plan stays linear in its contests however many strategies it has.
  std::vector<PlannedPair> headtohead;       // first < second (blind: the seats are alike)
  std::vector<PlannedPair> sequential;       // ordered: first plays first
  std::vector<int> nway, sequential_tables;  // [group]
};

// The table of the pair (first, second) in a sorted list of pairs; -1 if it
// was not played.
int pair_table(const std::vector<PlannedPair>& pairs, int first, int second);

// Refuses, with the file and JSON path, any table outside the game's limits
// (entry.tables, blind tables judged under game.rules()).
ContestPlan plan_contests(const JsonNode& config, const GameEntry& entry, const Game& game);
// The keys of "contests" that plan_contests reads.
const std::vector<Parameter>& contest_parameters();

// `dicesim list`: the contests a game plays, from its limits.
std::string describe_tables(const GameEntry& entry);

}  // namespace dicesim
