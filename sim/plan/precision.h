// Precision targets: instead of a fixed number of games, each table plays in
// stages until the 95% half-width of every win rate and of every targeted
// mean is at most its target, or the config's `games` (then a cap) is
// reached.
//
// Results depend only on (config, seed, precision): a table stops only at
// block counts fixed in advance, 1, 2, 4, 8, ... blocks of kBlockGames (and
// the cap), and the decision there reads only that table's own counts, which
// are the same whatever the threads, ranks, shards or interruptions. A
// table's blocks keep their random streams, so a table that plays 2^k blocks
// has exactly the counts of a fixed-games run of 2^k blocks.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "config/json_input.h"
#include "config/parameters.h"
#include "engine/engine.h"
#include "engine/table.h"
#include "games/game.h"

namespace dicesim {

class Cluster;

struct PrecisionTarget {
  std::optional<double> rate;  // of every seat's win rate and the tie rate, at tables of two or more
  // (measure index, target in the measure's units) for the mean of each seat's measure
  std::vector<std::pair<int, double>> means;
};

// Reads "precision": {"rate": 0.002, "score": 0.5, ...}: "rate" and the
// names of the game's measures, each a positive number.
PrecisionTarget read_precision_target(const JsonNode& node, const std::vector<Measure>& measures);
// The config's "precision" key as read_precision_target reads it; which
// measures a game has, its branch of the schema says (GameEntry::measures).
Parameter precision_parameter();

// The largest 95% half-width at a table, over its seats: of the win rates
// (and tie rate), and of each measure's mean. rate is absent at a table of one.
struct HalfWidths {
  std::optional<double> rate;
  std::vector<double> means;  // per measure
};
// The games are those the score histogram counts (every game lands in it).
HalfWidths half_widths(const TableCountsView& counts, const std::vector<Measure>& measures);
bool meets(const PrecisionTarget& target, const HalfWidths& reached);

// The stage boundary after `blocks` played: 1, 2, 4, ... and at most cap.
std::uint64_t next_stage_blocks(std::uint64_t blocks, std::uint64_t cap);
// Whether a table that has played `blocks` stands at a stage boundary, where
// its counts decide whether it goes on.
bool at_stage_boundary(std::uint64_t blocks, std::uint64_t cap);

// Plays `contests` (each with the cap as its games) in stages, only those
// whose first block lies in `mine` (a shard's blocks; all by default), from
// `resume` (a precision run's output) if given. The output is laid out as a
// fixed-games run of the caps: each table's blocks played are a prefix of
// its blocks. Under MPI the leader decides each stage and every rank plays
// its part of it. `precise(t, counters)` says whether table t's counters
// meet the target.
using PreciseEnough = std::function<bool(std::size_t table, const std::vector<std::int64_t>& counters)>;
struct PrecisionRun {
  EngineOutput output;
  bool finished = false;  // false if a stop request cut it short
};
PrecisionRun run_to_precision(const std::vector<TableRun>& contests, const EngineOptions& options,
                              const Cluster& cluster, BlockRange mine, const EngineOutput* resume,
                              const PreciseEnough& precise);

// The blocks each table has played in `output`, checked to be a prefix of its
// blocks; an InputError naming `path` otherwise.
std::vector<std::uint64_t> blocks_played(const std::vector<TableRun>& contests, const EngineOutput& output,
                                         const std::string& path);

}  // namespace dicesim
