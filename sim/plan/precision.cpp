#include "plan/precision.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <numeric>

#include "config/suggest.h"
#include "config/terminal_text.h"
#include "engine/cluster.h"
#include "math/stats.h"

namespace dicesim {

Parameter precision_parameter() {
  return shaped_parameter(
      "precision",
      {{"type", "object"},
       {"minProperties", 1},
       {"properties",
        {{"rate",
          {{"type", "number"},
           {"exclusiveMinimum", 0},
           {"exclusiveMaximum", 0.5},
           {"description", "of every win and tie rate"}}}}},
       {"additionalProperties",
        {{"type", "number"}, {"exclusiveMinimum", 0}, {"description", "of a measure's mean (score, turns, ...)"}}}},
      "play each table until its 95% half-widths meet these targets");
}

PrecisionTarget read_precision_target(const JsonNode& node, const std::vector<Measure>& measures) {
  if (!node.value().is_object() || node.value().empty())
    node.fail("expected an object of targets such as {\"rate\": 0.005} (\"rate\" and the game's measures: " + [&] {
      std::string names;
      for (const Measure& m : measures) names += ", \"" + m.name + "\"";
      return names.substr(2);
    }() + ")");
  PrecisionTarget target;
  for (const auto& item : node.value().items()) {
    const std::string key = item.key();  // not a structured binding: a lambda below captures it (clang 14)
    const json& value = item.value();
    const JsonNode entry = node.at(key);
    if (!value.is_number() || !(value.get<double>() > 0) || !std::isfinite(value.get<double>()))
      entry.fail("expected a positive number (a 95% half-width), got " + describe(value));
    const double half_width = value.get<double>();
    if (key == "rate") {
      if (half_width >= 0.5) entry.fail("a rate's half-width must be below 0.5, got " + describe(value));
      target.rate = half_width;
      continue;
    }
    const auto measure =
        std::find_if(measures.begin(), measures.end(), [&](const Measure& m) { return m.name == key; });
    if (measure == measures.end()) {
      std::vector<std::string_view> names{"rate"};
      for (const Measure& m : measures) names.push_back(m.name);
      std::string known;
      for (std::string_view n : names) known += (known.empty() ? "" : ", ") + std::string(n);
      entry.fail("unknown precision target " + quoted_text(key) + " (known: " + known + ")" + did_you_mean(key, names));
    }
    target.means.emplace_back(static_cast<int>(measure - measures.begin()), half_width);
  }
  return target;
}

HalfWidths half_widths(const TableCountsView& counts, const std::vector<Measure>& measures) {
  const std::vector<std::int64_t> scores = counts.histogram_of(0, 0);
  const std::uint64_t games = std::uint64_t(std::accumulate(scores.begin(), scores.end(), std::int64_t(0)));
  HalfWidths out;
  out.means.assign(measures.size(), 0.0);
  for (int seat = 0; seat < counts.seats(); ++seat) {
    if (counts.seats() > 1) {
      const double win = stats::adjusted_rate_half_width(std::uint64_t(counts.wins(seat)), games);
      out.rate = std::max(
          {out.rate.value_or(0.0), win, stats::adjusted_rate_half_width(std::uint64_t(counts.tie_games()), games)});
    }
    for (std::size_t m = 0; m < measures.size(); ++m) {
      const stats::Moments moments =
          stats::histogram_moments(counts.histogram_of(int(m), seat), measures[m].min, measures[m].step);
      out.means[m] = std::max(out.means[m], stats::mean_half_width(moments.sd, games));
    }
  }
  return out;
}

bool meets(const PrecisionTarget& target, const HalfWidths& reached) {
  if (target.rate && reached.rate && *reached.rate > *target.rate) return false;
  return std::all_of(target.means.begin(), target.means.end(),
                     [&](const auto& mean) { return reached.means[mean.first] <= mean.second; });
}

std::uint64_t next_stage_blocks(std::uint64_t blocks, std::uint64_t cap) {
  return std::min(cap, blocks == 0 ? 1 : std::bit_floor(blocks) * 2);
}

bool at_stage_boundary(std::uint64_t blocks, std::uint64_t cap) {
  return blocks > 0 && (blocks == cap || std::has_single_bit(blocks));
}

std::vector<std::uint64_t> blocks_played(const std::vector<TableRun>& contests, const EngineOutput& output,
                                         const std::string& path) {
  const std::vector<std::uint64_t> first = first_blocks(contests);
  std::vector<std::uint64_t> played(contests.size(), 0);
  for (const BlockRange& r : output.done)
    for (std::size_t c = 0; c < contests.size(); ++c) {
      const std::uint64_t begin = std::max(r.begin, first[c]), end = std::min(r.end, first[c + 1]);
      if (begin >= end) continue;
      if (begin != first[c] || played[c] != 0)
        throw InputError(path + ": table " + std::to_string(c) +
                         " has blocks played that are not its first ones; a precision run continues each table "
                         "from its first blocks");
      played[c] = end - begin;
    }
  return played;
}

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// Adds one stage's output into `total` (laid out by the caps): the counters
// of stage contest k to table tables[k], and its blocks, which continue that
// table's blocks from stage[k].first_block.
void add_stage(const std::vector<TableRun>& contests, const std::vector<TableRun>& stage,
               const std::vector<std::size_t>& tables, const EngineOutput& part, EngineOutput& total) {
  const std::vector<std::uint64_t> first = first_blocks(contests), stage_first = first_blocks(stage);
  for (std::size_t k = 0; k < stage.size(); ++k) {
    std::vector<std::int64_t>& sums = total.counters[tables[k]];
    for (std::size_t i = 0; i < sums.size(); ++i) sums[i] += part.counters[k][i];
    for (const BlockRange& r : part.done) {
      const std::uint64_t begin = std::max(r.begin, stage_first[k]), end = std::min(r.end, stage_first[k + 1]);
      if (begin >= end) continue;
      const std::uint64_t shift = first[tables[k]] + stage[k].first_block - stage_first[k];
      total.done.push_back({begin + shift, end + shift});
    }
  }
  join_ranges(total.done);
}

}  // namespace

PrecisionRun run_to_precision(const std::vector<TableRun>& contests, const EngineOptions& options,
                              const Cluster& cluster, BlockRange mine, const EngineOutput* resume,
                              const PreciseEnough& precise) {
  const std::vector<std::uint64_t> first = first_blocks(contests);
  EngineOutput total;
  total.total_blocks = first.back();
  if (resume) {
    total.counters = resume->counters;
    total.done = resume->done;
    total.wall_seconds = resume->wall_seconds;
  } else {
    for (const TableRun& c : contests) total.counters.emplace_back(c.counters, 0);
  }
  bool stopped = false;
  Clock::time_point last_checkpoint = Clock::now();
  for (;;) {
    // The leader decides the stage (it alone holds every rank's counts) and
    // tells the others: [played..., target...] per table.
    std::vector<std::uint64_t> plan(2 * contests.size(), 0);  // all 0 after a stop: no stage
    if (cluster.leader() && !stopped) {
      const std::vector<std::uint64_t> played = blocks_played(contests, total, "this run");
      for (std::size_t c = 0; c < contests.size(); ++c) {
        const std::uint64_t cap = block_count(contests[c].games);
        plan[c] = plan[contests.size() + c] = played[c];
        const bool ours = first[c] >= mine.begin && first[c] < mine.end;
        if (!ours || played[c] >= cap) continue;
        if (at_stage_boundary(played[c], cap) && precise(c, total.counters[c])) continue;
        plan[contests.size() + c] = next_stage_blocks(played[c], cap);
      }
    }
    cluster.broadcast(plan);
    std::vector<TableRun> stage;
    std::vector<std::size_t> tables;
    for (std::size_t c = 0; c < contests.size(); ++c) {
      const std::uint64_t played = plan[c], target = plan[contests.size() + c];
      if (target <= played) continue;
      TableRun part = contests[c];
      part.first_block = played;
      part.games = std::min(contests[c].games, target * kBlockGames) - played * kBlockGames;
      stage.push_back(std::move(part));
      tables.push_back(c);
    }
    if (stage.empty()) break;
    EngineOptions stage_options = options;
    stage_options.resume = nullptr;
    stage_options.checkpoint = nullptr;
    const BlockRange all{0, first_blocks(stage).back()};
    stage_options.range = cluster.size() > 1 ? cluster.part(all) : all;
    EngineOutput part = run_tables(stage, stage_options);
    cluster.gather(part);
    if (!cluster.leader()) continue;
    add_stage(contests, stage, tables, part, total);
    total.wall_seconds += part.wall_seconds;
    stopped = part.done != std::vector<BlockRange>{all};
    if (options.checkpoint && !stopped && seconds_since(last_checkpoint) >= options.checkpoint_seconds) {
      total.games_done = games_in(contests, total.done);
      options.checkpoint(total);
      last_checkpoint = Clock::now();
    }
  }
  total.games_done = games_in(contests, total.done);
  return {std::move(total), !stopped};
}

}  // namespace dicesim
