// The contests a config asks for, as a list of tables for the engine:
//   distributions      every strategy alone             (one-seat tables)
//   headtohead         every unordered pair, blind       (independent tables)
//   sequential         every ordered pair, the second seat sees the first's result
//   nway               listed groups, blind
//   sequential_tables  listed groups in seating order, each sees those before
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "game.h"
#include "json_input.h"
#include "table.h"

namespace dicesim {

struct PlannedTable {
  std::string key;  // independent["a","b"]: names the table and seeds its streams
  Table table;
};

struct ContestPlan {
  std::vector<PlannedTable> tables;  // each table once, however many contests use it
  // Indices into tables (-1 where a contest did not ask for that table).
  std::vector<int> distribution;  // [strategy]
  // [row][column], row < column; empty when headtohead was not asked for
  std::vector<std::vector<int>> headtohead;
  // [first seat][second seat]; empty when sequential was not asked for
  std::vector<std::vector<int>> sequential;
  std::vector<int> nway, sequential_tables;  // [group]
};

// Refuses, with the file and JSON path, any table outside the game's limits
// (entry.tables, blind tables judged under game.rules()).
ContestPlan plan_contests(const JsonNode& config, const GameEntry& entry, const Game& game);

// `dicesim list`: the contests a game plays, from its limits.
std::string describe_tables(const GameEntry& entry);

}  // namespace dicesim
