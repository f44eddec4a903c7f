#include "results/results_file.h"

#include <algorithm>
#include <limits>
#include <map>
#include <type_traits>

#include "engine/progress.h"
#include "git_revision.h"  // generated at build time
#include "results/h5.h"
#include "results/run_state.h"

#ifndef DICESIM_VERSION
#define DICESIM_VERSION "unknown"
#endif

namespace dicesim {
namespace {

using Matrix = std::vector<std::int64_t>;

// A dataset with its units and a sentence saying what it holds, which
// generic tools show beside the numbers.
template <class T>
void write_described(h5::Writer& file, const std::string& path, const std::vector<T>& data, h5::Dims dims,
                     const std::string& units, const std::string& description) {
  file.write(path, data, dims);
  file.describe(path, units, description);
}

// Where a measure's histograms live: a group holding the histogram and its
// value axis, the scale named after the measure (format 1.2; 1.1 named it
// `value` in subgroups). in_table_group: the score in a table's own group,
// as in format 1.0, with `min_score` and `score_step` beside it.
struct MeasurePaths {
  std::string group, scale;
  bool in_table_group = false;
};
MeasurePaths measure_subgroup(const std::string& parent, const Measure& measure) {
  const std::string group = parent + "/" + measure.name;
  return {group, group + "/" + measure.name};
}
// A table's histograms: the score (measure 0) in the table's group itself,
// every other measure in a subgroup named after it.
MeasurePaths measure_paths(const std::string& table_group, const std::vector<Measure>& measures, int m) {
  if (m == 0) return {table_group, table_group + "/score", true};
  return measure_subgroup(table_group, measures[m]);
}

// The value of every bin of a measure, as a dimension scale, with the
// measure's description, units, min and step on its group: `min_score` and
// `score_step` in a table's own group (as in format 1.0), `min` and `step`
// in every measure subgroup (the score's too, in the pair sections).
void write_measure_scale(h5::Writer& file, const MeasurePaths& paths, const Measure& measure) {
  std::vector<std::int64_t> values(measure.bins);
  for (int i = 0; i < measure.bins; ++i) values[i] = measure.value(i);
  write_described(file, paths.scale, values, {}, measure.units, measure.description);
  file.attribute(paths.group, paths.in_table_group ? "min_score" : "min", std::int64_t(measure.min));
  file.attribute(paths.group, paths.in_table_group ? "score_step" : "step", std::int64_t(measure.step));
}

// <group>/seat, the seat axis of a table (0 plays first), and
// <group>/strategy, the strategy in each seat along it (a strategy may hold
// several seats, so the seat is the index).
void write_seat_axis(h5::Writer& file, const std::string& group, const std::vector<std::string>& seat_names) {
  std::vector<std::int64_t> seats(seat_names.size());
  for (std::size_t s = 0; s < seats.size(); ++s) seats[s] = static_cast<std::int64_t>(s);
  write_described(file, group + "/seat", seats, {}, "1", "the seat, in seating order (0 plays first)");
  file.write(group + "/strategy", seat_names);
  file.describe(group + "/strategy", "", "the strategy in each seat");
  file.dimension_scale(group + "/seat", {group + "/strategy"}, 0);
}

// Labels dimension 0 of each dataset with the group's scale `axis`, and
// names `coordinates` (datasets along it: the strategies) in netCDF's
// `coordinates` attribute, so that xarray shows them beside the numbers.
void attach_axis(h5::Writer& file, const std::string& group, const std::string& axis, const std::string& coordinates,
                 const std::vector<std::string>& datasets) {
  std::vector<std::string> paths;
  for (const std::string& d : datasets) {
    paths.push_back(group + "/" + d);
    file.attribute(paths.back(), "coordinates", coordinates);
  }
  file.dimension_scale(group + "/" + axis, paths, 0);
}

// A table's seat axis, each seat's strategy beside it.
void attach_seat_axis(h5::Writer& file, const std::string& group, const std::vector<std::string>& datasets) {
  attach_axis(file, group, "seat", "strategy", datasets);
}

// The units of a histogram: the score's counts are games (each game lands in
// exactly one bin, as in format 1.0); another measure may count several
// values a game (one a turn, say), so its counts are plain counts.
std::string histogram_units(const std::string& dataset, int measure) {
  if (dataset != "counts") return "probability";
  return measure == 0 ? "games" : "count";
}

// What fills the cells nobody played (counts: 0) or the solver does not know
// (probabilities: NaN).
template <class Value>
Value unknown() {
  if constexpr (std::is_floating_point_v<Value>)
    return std::numeric_limits<Value>::quiet_NaN();
  else
    return 0;
}

// Per-seat histograms of every measure of a table ("counts"), or their exact
// probabilities ("probability", for the measures known at some seat; NaN at
// the others):
// [B] for a distribution (no seat names), [P, B] for a table. Each group
// carries its own scales, so generic tools opening one group see its axes.
template <class Value, class Source>
void write_measures(h5::Writer& file, const std::string& table_group, const std::vector<Measure>& measures,
                    const std::vector<std::string>& seat_names, const std::string& dataset, Source&& seat_values) {
  const bool by_seat = !seat_names.empty();
  const int seats = by_seat ? static_cast<int>(seat_names.size()) : 1;
  for (int m = 0; m < static_cast<int>(measures.size()); ++m) {
    std::vector<Value> all(std::size_t(seats) * measures[m].bins, unknown<Value>());
    bool known = false;
    for (int s = 0; s < seats; ++s) {
      if (const auto* values = seat_values(m, s)) {
        known = true;
        std::copy(values->begin(), values->end(), all.begin() + std::size_t(s) * measures[m].bins);
      }
    }
    if (!known) continue;
    const MeasurePaths paths = measure_paths(table_group, measures, m);
    const std::string path = paths.group + "/" + dataset;
    const std::string what = dataset == "counts" ? "number of each " : "exact probability of each ";
    h5::Dims dims;
    if (by_seat) dims = {std::size_t(seats), std::size_t(measures[m].bins)};
    write_described(file, path, all, dims, histogram_units(dataset, m),
                    what + "value of: " + measures[m].description + (by_seat ? ", per seat" : ""));
    write_measure_scale(file, paths, measures[m]);
    file.dimension_scale(paths.scale, {path}, by_seat ? 1 : 0);
    if (!by_seat) continue;
    if (!paths.in_table_group) write_seat_axis(file, paths.group, seat_names);
    attach_seat_axis(file, paths.group, {dataset});
  }
}

// A pair section's axis: `pair`, the index along dimension 0, and
// `strategy` and `opponent`, the strategies in seats 0 and 1 of each pair. A
// list rather than a strategy-by-strategy matrix, so that a section costs
// what its pairs do, however many strategies the run has.
struct PairAxis {
  std::vector<std::int64_t> index;
  std::vector<std::string> first, second;
};
PairAxis pair_axis(const RunConfig& config, const std::vector<PlannedPair>& pairs) {
  const std::vector<Strategy>& strategies = config.game->strategies();
  PairAxis axis;
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    axis.index.push_back(static_cast<std::int64_t>(k));
    axis.first.push_back(strategies[std::size_t(pairs[k].first)].name);
    axis.second.push_back(strategies[std::size_t(pairs[k].second)].name);
  }
  return axis;
}

// Writes the pair axis into `group` (the section, its exact counterpart and
// each measure's subgroup, so that every group opens alone in generic tools)
// and labels the datasets with it.
void write_pair_axis(h5::Writer& file, const std::string& group, const PairAxis& axis,
                     const std::vector<std::string>& datasets) {
  write_described(file, group + "/pair", axis.index, {}, "1", "the pair, in the order of the strategies");
  file.write(group + "/strategy", axis.first);
  file.describe(group + "/strategy", "", "the strategy in seat 0 (in sequential play, the one playing first)");
  file.write(group + "/opponent", axis.second);
  file.describe(group + "/opponent", "", "the strategy in seat 1 (in sequential play, the one playing second)");
  file.dimension_scale(group + "/pair", {group + "/strategy", group + "/opponent"}, 0);
  attach_axis(file, group, "pair", "strategy opponent", datasets);
}

// The wins/ties/losses/games of each pair, seat 0's wins first.
void write_pair_outcomes(h5::Writer& file, const std::string& group, const RunConfig& config,
                         const EngineOutput& output, const std::vector<PlannedPair>& pairs, const PairAxis& axis) {
  Matrix wins, ties, losses, games;
  for (const PlannedPair& p : pairs) {
    const TableCountsView c = table_counts(config, output, p.table);
    wins.push_back(c.wins(0));
    losses.push_back(c.wins(1));
    ties.push_back(c.tie_games());
    games.push_back(static_cast<std::int64_t>(output.games_done[std::size_t(p.table)]));
  }
  write_described(file, group + "/wins", wins, {}, "games", "games the strategy (seat 0) won outright");
  write_described(file, group + "/ties", ties, {}, "games", "games whose win was shared");
  write_described(file, group + "/losses", losses, {}, "games", "games the opponent (seat 1) won outright");
  write_described(file, group + "/games", games, {}, "games", "games the pair played");
  write_pair_axis(file, group, axis, {"wins", "ties", "losses", "games"});
}

// The exact win/tie/loss odds of each pair (NaN where the solver does not
// know them); false when it knows none.
bool write_exact_pair_odds(h5::Writer& file, const std::string& group, const ExactTables& exact,
                           const std::vector<PlannedPair>& pairs) {
  const double nan = unknown<double>();
  std::vector<double> win(pairs.size(), nan), tie(pairs.size(), nan), loss(pairs.size(), nan);
  bool any = false;
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const auto& odds = exact[std::size_t(pairs[k].table)];
    if (!odds || odds->win.empty()) continue;
    any = true;
    win[k] = odds->win[0];
    loss[k] = odds->win[1];
    tie[k] = odds->tie;
  }
  if (!any) return false;
  write_described(file, group + "/win", win, {}, "probability", "exact P(the strategy, seat 0, wins outright)");
  write_described(file, group + "/tie", tie, {}, "probability", "exact P(the win is shared)");
  write_described(file, group + "/loss", loss, {}, "probability", "exact P(the opponent, seat 1, wins outright)");
  attach_axis(file, group, "pair", "strategy opponent", {"win", "tie", "loss"});
  return true;
}

// Every measure's histograms of a pair section: <group>/<measure>/<dataset>
// [pair, seat, bin]. Written for the measures known somewhere; probabilities
// the solver does not know are NaN.
template <class Value, class Source>
void write_pair_histograms(h5::Writer& file, const std::string& group, const RunConfig& config,
                           const std::vector<PlannedPair>& pairs, const PairAxis& axis, const std::string& dataset,
                           Source&& seat_values) {
  const std::vector<Measure> measures = config.game->measures();
  for (int m = 0; m < static_cast<int>(measures.size()); ++m) {
    const std::size_t bins = measures[m].bins;
    std::vector<Value> all(pairs.size() * 2 * bins, unknown<Value>());
    bool known = false;
    for (std::size_t k = 0; k < pairs.size(); ++k)
      for (int seat = 0; seat < 2; ++seat)
        if (const auto* values = seat_values(pairs[k].table, m, seat)) {
          known = true;
          std::copy(values->begin(), values->end(), all.begin() + (k * 2 + std::size_t(seat)) * bins);
        }
    if (!known) continue;
    const MeasurePaths paths = measure_subgroup(group, measures[m]);
    const std::string path = paths.group + "/" + dataset;
    write_described(file, path, all, {pairs.size(), 2, bins}, histogram_units(dataset, m),
                    (dataset == "counts" ? "number of each value of: " : "exact probability of each value of: ") +
                        measures[m].description + ", per pair and seat");
    write_measure_scale(file, paths, measures[m]);
    write_pair_axis(file, paths.group, axis, {dataset});
    write_described(file, paths.group + "/seat", std::vector<std::int64_t>{0, 1}, {}, "1",
                    "the seat: 0 is the strategy's (first to play), 1 the opponent's");
    file.dimension_scale(paths.group + "/seat", {path}, 1);
    file.dimension_scale(paths.scale, {path}, 2);
  }
}

// A pairwise contest (headtohead: blind; sequential: the first seat plays
// first), one entry per pair played.
void write_pair_section(h5::Writer& file, const std::string& section, const RunConfig& config,
                        const EngineOutput& output, const ExactTables* exact, const std::vector<PlannedPair>& pairs) {
  if (pairs.empty()) return;
  const std::string group = "/" + section;
  const PairAxis axis = pair_axis(config, pairs);
  write_pair_outcomes(file, group, config, output, pairs, axis);
  Matrix histogram;  // one at a time: the writer copies it out at once
  write_pair_histograms<std::int64_t>(file, group, config, pairs, axis, "counts", [&](int t, int m, int seat) {
    histogram = table_counts(config, output, t).histogram_of(m, seat);
    return &histogram;
  });
  if (!exact || std::none_of(pairs.begin(), pairs.end(),
                             [&](const PlannedPair& p) { return bool((*exact)[std::size_t(p.table)]); }))
    return;
  const std::string exact_group = "/exact" + group;
  write_pair_axis(file, exact_group, axis, {});
  write_exact_pair_odds(file, exact_group, *exact, pairs);
  write_pair_histograms<double>(file, exact_group, config, pairs, axis, "probability", [&](int t, int m, int seat) {
    return (*exact)[std::size_t(t)]->distribution(m, seat);
  });
}

void write_groups(h5::Writer& file, const std::string& section, const RunConfig& config, const EngineOutput& output,
                  const ExactTables* exact, const std::vector<int>& groups) {
  const std::vector<Measure> measures = config.game->measures();
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const std::string path = "/" + section + "/" + std::to_string(g);
    const TableCountsView c = table_counts(config, output, groups[g]);
    std::vector<std::string> names;
    Matrix wins, tied;
    for (int s = 0; s < c.seats(); ++s) {
      names.push_back(config.game->strategies()[config.plan.tables[groups[g]].table.seats[s]].name);
      wins.push_back(c.wins(s));
      tied.push_back(c.tied(s));
    }
    write_seat_axis(file, path, names);
    write_described(file, path + "/wins", wins, {}, "games", "games the seat won outright");
    write_described(file, path + "/tied", tied, {}, "games", "games the seat shared the win");
    attach_seat_axis(file, path, {"wins", "tied"});
    if (const Table& table = config.plan.tables[groups[g]].table; table.has_head_start()) {
      Matrix head_start;
      for (int s = 0; s < c.seats(); ++s) head_start.push_back(table.start(s));
      write_described(file, path + "/head_start", head_start, {}, "points",
                      "points the seat started with (a head start; absent: every seat started at 0)");
      attach_seat_axis(file, path, {"head_start"});
    }
    std::vector<Matrix> seat_counts(measures.size() * c.seats());
    write_measures<std::int64_t>(file, path, measures, names, "counts", [&](int m, int s) {
      return &(seat_counts[m * c.seats() + s] = c.histogram_of(m, s));
    });
    file.attribute(path, "games", static_cast<std::int64_t>(output.games_done[groups[g]]));
    file.attribute(path, "tie_games", c.tie_games());
    file.attribute(path, "sequential", static_cast<std::int64_t>(config.plan.tables[groups[g]].table.sequential));
    if (exact && (*exact)[groups[g]]) {
      const TableOdds& odds = *(*exact)[groups[g]];
      const std::string exact_path = "/exact" + path;
      // The seat axis even when nothing in the group itself uses it (the
      // solver knowing neither the win odds nor the score, only some other
      // measure): generic tools refuse a group with an unnamed axis.
      write_seat_axis(file, exact_path, names);
      if (!odds.win.empty()) {
        write_described(file, exact_path + "/win", odds.win, {}, "probability", "exact P(the seat wins outright)");
        attach_seat_axis(file, exact_path, {"win"});
        file.attribute(exact_path, "tie", odds.tie);
      }
      write_measures<double>(file, exact_path, measures, names, "probability",
                             [&](int m, int s) { return odds.distribution(m, s); });
    }
  }
}

// /measures: what the game records per seat, one row per measure.
void write_measure_list(h5::Writer& file, const std::vector<Measure>& measures) {
  std::vector<std::string> names, descriptions, units;
  std::vector<std::int64_t> min, step, bins;
  for (const Measure& m : measures) {
    names.push_back(m.name);
    descriptions.push_back(m.description);
    units.push_back(m.units);
    min.push_back(m.min);
    step.push_back(m.step);
    bins.push_back(m.bins);
  }
  file.write("/measures/name", names);
  file.describe("/measures/name", "",
                "the measures recorded per seat; each table group holds one subgroup per measure "
                "(the first, score, in the group itself)");
  file.write("/measures/description", descriptions);
  file.describe("/measures/description", "", "what each measure counts");
  file.write("/measures/units", units);
  file.describe("/measures/units", "", "the units of each measure's values");
  write_described(file, "/measures/min", min, {}, "1", "value of bin 0");
  write_described(file, "/measures/step", step, {}, "1", "value difference between neighbouring bins");
  write_described(file, "/measures/bins", bins, {}, "1", "number of bins");
  file.dimension_scale(
      "/measures/name",
      {"/measures/description", "/measures/units", "/measures/min", "/measures/step", "/measures/bins"}, 0);
}

void write_checks(h5::Writer& file, const std::vector<Check>& checks) {
  std::vector<std::string> names, kinds;
  std::vector<double> observed, expected, z, p;
  std::int64_t failures = 0;
  for (const Check& c : checks) {
    names.push_back(c.name);
    kinds.push_back(c.kind);
    observed.push_back(c.observed);
    expected.push_back(c.expected);
    z.push_back(c.z);
    p.push_back(c.p_value);
    failures += !c.passed();
  }
  file.write("/checks/name", names);
  file.describe("/checks/name", "", "the compared number: <table key>/<seat>/<what>");
  file.write("/checks/kind", kinds);
  file.describe("/checks/kind", "", "mean, chi_square, win_rate or tie_rate");
  write_described(file, "/checks/observed", observed, {}, "mixed: points for means, fractions for rates",
                  "Monte Carlo value (chi_square: the statistic)");
  write_described(file, "/checks/expected", expected, {}, "mixed: points for means, fractions for rates",
                  "exact value (chi_square: degrees of freedom)");
  write_described(file, "/checks/z", z, {}, "1", "z-score (chi_square: normal deviate of its p-value, floored at 0)");
  write_described(file, "/checks/p_value", p, {}, "1", "two-sided for z, upper tail for chi-square");
  file.dimension_scale("/checks/name",
                       {"/checks/kind", "/checks/observed", "/checks/expected", "/checks/z", "/checks/p_value"}, 0);
  file.attribute("/checks", "z_limit", kZLimit);
  file.attribute("/checks", "failures", failures);
  file.attribute("/checks", "passed", static_cast<std::int64_t>(failures == 0));
}

// Each strategy's family and numeric parameters as tidy columns (a per_
// array as one column per element, per_roll_0, per_roll_1, ...; NaN where a
// parameter does not apply), so a sweep's results read as a table.
void write_strategy_parameters(h5::Writer& file, const std::vector<Strategy>& strategies) {
  std::vector<std::string> families;
  std::map<std::string, std::vector<double>> columns;
  for (std::size_t s = 0; s < strategies.size(); ++s) {
    const json& spec = strategies[s].spec;
    families.push_back(spec.value("family", std::string()));
    const auto set = [&](const std::string& column, const json& value) {
      std::vector<double>& values = columns[column];
      values.resize(strategies.size(), std::nan(""));
      values[s] = value.get<double>();
    };
    for (const auto& [key, value] : spec.items()) {
      if (value.is_number()) set(key, value);
      if (value.is_array())
        for (std::size_t e = 0; e < value.size(); ++e)
          if (value[e].is_number()) set(key + "_" + std::to_string(e), value[e]);
    }
  }
  std::vector<std::string> along = {"/strategies/specs", "/strategies/family"}, columns_along;
  file.write("/strategies/family", families);
  file.describe("/strategies/family", "", "each strategy's family");
  for (auto& [column, values] : columns) {
    values.resize(strategies.size(), std::nan(""));
    const std::string path = "/strategies/parameters/" + column;
    write_described(file, path, values, {}, "1",
                    "the parameter " + column + " of each strategy (NaN where it does not apply)");
    columns_along.push_back(path);
  }
  file.dimension_scale("/strategies/names", along, 0);
  if (columns.empty()) return;
  // The group's own axis, so that it opens alone (xarray) with named rows.
  std::vector<std::string> names;
  for (const Strategy& s : strategies) names.push_back(s.name);
  file.write("/strategies/parameters/strategy", names);
  file.describe("/strategies/parameters/strategy", "", "the strategy of each row (as /strategies/names)");
  file.dimension_scale("/strategies/parameters/strategy", columns_along, 0);
}

// A precision run's target and what each table reached (/precision).
void write_precision(h5::Writer& file, const RunConfig& config, const EngineOutput& output) {
  const PrecisionTarget& target = *config.precision;
  const std::vector<Measure> measures = config.game->measures();
  std::vector<std::string> keys;
  std::vector<std::int64_t> games, met;
  std::vector<double> rate;
  std::vector<std::vector<double>> means(target.means.size());
  for (std::size_t t = 0; t < config.plan.tables.size(); ++t) {
    const HalfWidths reached = half_widths(table_counts(config, output, int(t)), measures);
    keys.push_back(config.plan.tables[t].key);
    games.push_back(static_cast<std::int64_t>(output.games_done[t]));
    rate.push_back(reached.rate.value_or(std::nan("")));
    for (std::size_t k = 0; k < target.means.size(); ++k) means[k].push_back(reached.means[target.means[k].first]);
    met.push_back(meets(target, reached));
  }
  file.write("/precision/table", keys);
  file.describe("/precision/table", "", "each table's key, in engine order (as /engine/keys)");
  write_described(file, "/precision/games", games, {}, "games",
                  "games the table played: a power of two of blocks, or the cap");
  write_described(file, "/precision/met", met, {}, "1", "1 where the table met every target");
  std::vector<std::string> along_tables = {"/precision/games", "/precision/met"};
  if (target.rate) {
    along_tables.push_back("/precision/rate_half_width");
    file.attribute("/precision", "rate", *target.rate);
    write_described(file, "/precision/rate_half_width", rate, {}, "1",
                    "largest 95% half-width of the table's win and tie rates (NaN at a table of one)");
  }
  for (std::size_t k = 0; k < target.means.size(); ++k) {
    const Measure& m = measures[target.means[k].first];
    file.attribute("/precision", m.name, target.means[k].second);
    write_described(file, "/precision/" + m.name + "_half_width", means[k], {}, m.units,
                    "largest 95% half-width of a seat's mean " + m.name + " at the table");
    along_tables.push_back("/precision/" + m.name + "_half_width");
  }
  file.dimension_scale("/precision/table", along_tables, 0);
}

void write_file(const std::string& path, const RunConfig& config, const EngineOutput& output, const RunInfo& info,
                const ExactTables* exact, const std::vector<Check>* checks) {
  h5::Writer file(path);
  const std::vector<Strategy>& strategies = config.game->strategies();
  const std::vector<Measure> measures = config.game->measures();

  file.attribute("/", "format", std::string("dicesim-results"));
  file.attribute("/", "format_version", std::vector<std::int64_t>{kFormatMajor, kFormatMinor});
  file.attribute("/", "program_version", std::string(DICESIM_VERSION));
  file.attribute("/", "git_revision", std::string(DICESIM_GIT_REVISION));
  file.attribute("/", "command", info.command);
  write_config_text(file, config.document.dump());
  file.attribute("/", "config_file", config.file);
  file.attribute("/", "name", config.name);
  file.attribute("/", "game", std::string(config.entry->name));
  file.attribute("/", "rules", config.game->rules().dump());
  file.attribute("/", "seed", static_cast<std::int64_t>(config.seed));
  file.attribute("/", "seed_text", std::to_string(config.seed));
  file.attribute("/", "games", static_cast<std::int64_t>(config.games));
  file.attribute("/", "block_games", static_cast<std::int64_t>(kBlockGames));
  file.attribute("/", "complete", static_cast<std::int64_t>(run_complete(config, output)));
  file.attribute("/", "wall_seconds", output.wall_seconds);
  file.attribute("/", "threads", static_cast<std::int64_t>(info.threads));
  file.attribute("/", "threads_min", static_cast<std::int64_t>(info.threads_min > 0 ? info.threads_min : info.threads));
  file.attribute("/", "threads_max", static_cast<std::int64_t>(info.threads_max > 0 ? info.threads_max : info.threads));
  file.attribute("/", "ranks", static_cast<std::int64_t>(info.ranks));
  file.attribute("/", "shard", info.shard);
  file.attribute("/", "planned_complete", static_cast<std::int64_t>(output.done == info.planned));
  file.attribute("/", "lowest_score_wins", static_cast<std::int64_t>(config.entry->lowest_score_wins));
  if (info.command == "check") file.attribute("/", "exact_skipped", static_cast<std::int64_t>(info.exact_skipped));
  file.attribute("/", "biased_die", static_cast<std::int64_t>(config.biased_die));
  write_run_state(file, config, output, info.planned, info.shard);
  file.attribute("/", "score_description", measures[0].description);
  write_measure_list(file, measures);

  if (config.precision) write_precision(file, config, output);

  std::vector<std::string> names, specs;
  for (const Strategy& s : strategies) {
    names.push_back(s.name);
    specs.push_back(s.spec.dump());
  }
  file.write("/strategies/names", names);
  file.describe("/strategies/names", "", "strategy names, in the order of the config (after sweeps expand)");
  file.write("/strategies/specs", specs);
  file.describe("/strategies/specs", "", "each strategy's spec from the config, as JSON");
  write_strategy_parameters(file, strategies);

  for (std::size_t s = 0; s < strategies.size(); ++s) {
    const int t = config.plan.distribution[s];
    if (t < 0) continue;
    const std::string group = "/distributions/" + strategies[s].name;
    const TableCountsView counts = table_counts(config, output, t);
    std::vector<Matrix> histograms(measures.size());
    write_measures<std::int64_t>(file, group, measures, {}, "counts",
                                 [&](int m, int) { return &(histograms[m] = counts.histogram_of(m, 0)); });
    file.attribute(group, "games", static_cast<std::int64_t>(output.games_done[t]));
    if (exact && (*exact)[t])
      write_measures<double>(file, "/exact" + group, measures, {}, "probability",
                             [&](int m, int) { return (*exact)[t]->distribution(m, 0); });
  }
  write_pair_section(file, "headtohead", config, output, exact, config.plan.headtohead);
  write_pair_section(file, "sequential", config, output, exact, config.plan.sequential);
  write_groups(file, "nway", config, output, exact, config.plan.nway);
  write_groups(file, "sequential_tables", config, output, exact, config.plan.sequential_tables);
  if (checks) write_checks(file, *checks);
  file.close();
}

}  // namespace

void write_results(const std::string& path, const RunConfig& config, const EngineOutput& output, const RunInfo& info,
                   const ExactTables* exact, const std::vector<Check>* checks) {
  try {
    write_file(path, config, output, info, exact, checks);  // h5::Writer: a temporary renamed when complete
  } catch (const std::exception& e) {
    throw h5::Error(path + ": cannot write the results file: " + e.what());
  }
}

}  // namespace dicesim
