#include "results/summary.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <limits>
#include <optional>
#include <ostream>
#include <unordered_map>

#include "config/terminal_text.h"
#include "math/stats.h"
#include "results/csv.h"
#include "results/strategy_matrix.h"
#include "results/text_columns.h"

namespace dicesim {
namespace {

constexpr double kNoGames = std::numeric_limits<double>::quiet_NaN();  // a table with no games estimates nothing

Figure rate(std::int64_t count, std::uint64_t games) {
  if (games == 0) return Figure::of_estimate(kNoGames, kNoGames);
  return Figure::of_estimate(double(count) / double(games), stats::rate_half_width(std::uint64_t(count), games));
}

Figure mean_of(const std::vector<std::int64_t>& histogram, const Measure& measure) {
  std::uint64_t n = 0;
  for (std::int64_t c : histogram) n += std::uint64_t(c);
  if (n == 0) return Figure::of_estimate(kNoGames, kNoGames);
  const stats::Moments m = stats::histogram_moments(histogram, measure.min, measure.step);
  return Figure::of_estimate(m.mean, stats::mean_half_width(m.sd, n));
}

// Each strategy alone: games, every measure's mean, the score's sd and,
// where the lowest score wins, P(the least score).
SummarySection strategies_table(const RunConfig& config, const EngineOutput& output) {
  const std::vector<Strategy>& strategies = config.game->strategies();
  const std::vector<Measure> measures = config.game->measures();
  const bool lowest_wins = config.entry->lowest_score_wins;
  // A column that is not self-evident says what it is in the title.
  const std::string legend =
      lowest_wins ? "; P(min): the share of games at the least possible score, " + std::to_string(measures[0].value(0))
                  : "";
  SummarySection table{"strategies", "each strategy alone (95% intervals" + legend + "):"};
  table.add_column("strategy", "strategy");
  table.add_column("games", "games");
  table.add_column("mean " + measures[0].name, "mean");  // the score's mean is the Python frame's `mean`
  table.add_column("sd", "sd");
  if (lowest_wins) table.add_column("P(min)", "p_min");
  for (std::size_t m = 1; m < measures.size(); ++m)
    table.add_column("mean " + measures[m].name, "mean_" + measures[m].name);
  for (std::size_t s = 0; s < strategies.size(); ++s) {
    const int t = config.plan.distribution[s];
    if (t < 0) continue;
    const std::uint64_t games = output.games_done[t];
    const TableCountsView counts = table_counts(config, output, t);
    const std::vector<std::int64_t> scores = counts.scores_of(0);
    const double sd = stats::histogram_moments(scores, measures[0].min, measures[0].step).sd;
    std::vector<Figure> row{Figure::of_text(strategies[s].name), Figure::of_count(std::int64_t(games)),
                            mean_of(scores, measures[0]), Figure::of_number(games ? sd : kNoGames)};
    if (lowest_wins) row.push_back(rate(scores[0], games));
    for (std::size_t k = 1; k < measures.size(); ++k)
      row.push_back(mean_of(counts.histogram_of(int(k), 0), measures[k]));
    table.rows.push_back(std::move(row));
  }
  return table;
}

// Pairs in long form: the row strategy's win rate against the opponent, in
// the order of the strategies (a blind pair gives a row to each of its two).
SummarySection pairs_table(const RunConfig& config, const EngineOutput& output, std::string name, std::string title,
                           const std::vector<PlannedPair>& pairs, bool mirror) {
  struct Cell {
    int row, column, table, seat;
  };
  std::vector<Cell> cells;
  for (const PlannedPair& p : pairs) {
    cells.push_back({p.first, p.second, p.table, 0});
    if (mirror) cells.push_back({p.second, p.first, p.table, 1});
  }
  std::sort(cells.begin(), cells.end(),
            [](const Cell& x, const Cell& y) { return std::pair(x.row, x.column) < std::pair(y.row, y.column); });
  const std::vector<Strategy>& strategies = config.game->strategies();
  SummarySection table{std::move(name), std::move(title)};
  for (const char* key : {"strategy", "opponent", "games", "wins", "ties", "losses"}) table.add_column(key, key);
  table.add_column("win rate", "win_rate");
  for (const Cell& c : cells) {
    const std::uint64_t games = output.games_done[c.table];
    const TableCountsView counts = table_counts(config, output, c.table);
    table.rows.push_back({Figure::of_text(strategies[c.row].name), Figure::of_text(strategies[c.column].name),
                          Figure::of_count(std::int64_t(games)), Figure::of_count(counts.wins(c.seat)),
                          Figure::of_count(counts.tie_games()), Figure::of_count(counts.wins(1 - c.seat)),
                          rate(counts.wins(c.seat), games)});
  }
  return table;
}

// Tables of several seats in long form: one row per seat, each with its
// table's shared wins (as the Python frame's rows: seat a number, never "ties").
SummarySection groups_table(const RunConfig& config, const EngineOutput& output, std::string name, std::string title,
                            const std::vector<int>& groups) {
  const std::vector<Strategy>& strategies = config.game->strategies();
  SummarySection table{std::move(name), std::move(title)};
  const bool head_starts =
      std::any_of(groups.begin(), groups.end(), [&](int t) { return config.plan.tables[t].table.has_head_start(); });
  for (const char* key : {"table", "games", "seat", "strategy"}) table.add_column(key, key);
  if (head_starts) table.add_column("head start", "head_start");
  for (const char* key : {"wins", "tied"}) table.add_column(key, key);
  table.add_column("win rate", "win_rate");
  table.add_column("tie_games", "tie_games");
  table.add_column("tie rate", "tie_rate");
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const TableCountsView c = table_counts(config, output, groups[g]);
    const Table& seated = config.plan.tables[groups[g]].table;
    const std::uint64_t games = output.games_done[groups[g]];
    for (int s = 0; s < c.seats(); ++s) {
      std::vector<Figure> row = {Figure::of_count(std::int64_t(g)), Figure::of_count(std::int64_t(games)),
                                 Figure::of_count(s), Figure::of_text(strategies[seated.seats[s]].name)};
      if (head_starts) row.push_back(Figure::of_count(seated.start(s)));
      for (Figure figure : {Figure::of_count(c.wins(s)), Figure::of_count(c.tied(s)), rate(c.wins(s), games),
                            Figure::of_count(c.tie_games()), rate(c.tie_games(), games)})
        row.push_back(figure);
      table.rows.push_back(std::move(row));
    }
  }
  return table;
}

// With a precision target: each table's games and the largest 95%
// half-width it reached, of the win rates and of each targeted mean.
SummarySection precision_table(const RunConfig& config, const EngineOutput& output) {
  const PrecisionTarget& target = *config.precision;
  const std::vector<Measure> measures = config.game->measures();
  SummarySection table{"precision", "precision target: each table's games and the largest 95% half-width it reached"};
  table.add_column("table", "table");
  table.add_column("games", "games");
  const auto limit = [](double value) {  // as many digits as the target has (5e-05, not 0.0000)
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", value);
    return " (target " + std::string(text) + ")";
  };
  if (target.rate) {
    table.add_column("win rate ±" + limit(*target.rate), "win_rate_half_width");
    table.targets["win_rate_half_width"] = *target.rate;
  }
  for (const auto& [m, half_width] : target.means) {
    const std::string key = (m == 0 ? std::string("mean") : "mean_" + measures[m].name) + "_half_width";
    table.add_column("mean " + measures[m].name + " ±" + limit(half_width), key);
    table.targets[key] = half_width;
  }
  table.add_column("met", "met");
  for (std::size_t t = 0; t < config.plan.tables.size(); ++t) {
    const HalfWidths reached = half_widths(table_counts(config, output, int(t)), measures);
    std::vector<Figure> row{Figure::of_text(config.plan.tables[t].key),
                            Figure::of_count(std::int64_t(output.games_done[t]))};
    const bool played = output.games_done[t] > 0;
    if (target.rate) row.push_back(Figure::of_number(played && reached.rate ? *reached.rate : kNoGames));
    for (const auto& [m, half_width] : target.means)
      row.push_back(Figure::of_number(played ? reached.means[m] : kNoGames));
    row.push_back(Figure::of_flag(meets(target, reached)));
    table.rows.push_back(std::move(row));
  }
  return table;
}

std::string cell_text(const Figure& f, int precision) {
  switch (f.kind) {
    case Figure::Kind::text:
    case Figure::Kind::flag:
      return f.text;
    case Figure::Kind::count:
      return std::to_string(f.count);
    case Figure::Kind::estimate:
      if (!f.has_value()) return "-";
      return f.half_width > 0 ? with_interval(f.value, f.half_width, precision) : fixed_text(f.value, precision);
    case Figure::Kind::number:
      return f.has_value() ? fixed_text(f.value, precision) : "-";
  }
  return {};
}

void print_table(std::ostream& out, const SummarySection& table) {
  TextColumns text;
  text.add_row(table.columns);
  for (const auto& row : table.rows) {
    std::vector<std::string> cells;
    for (const Figure& f : row) cells.push_back(cell_text(f, 4));
    text.add_row(std::move(cells));
  }
  out << table.title << "\n";
  text.print(out);
}

// The column of `key` in a section's rows.
std::size_t column_of(const SummarySection& table, std::string_view key) {
  const auto found = std::find(table.keys.begin(), table.keys.end(), key);
  if (found == table.keys.end()) throw std::logic_error("summary: no column " + std::string(key));
  return std::size_t(found - table.keys.begin());
}

// A pairs table as a strategy-by-strategy matrix.
void print_matrix(std::ostream& out, const SummarySection& table, const std::vector<Strategy>& strategies) {
  const std::size_t win_rate = column_of(table, "win_rate");
  std::unordered_map<std::string, std::size_t> index;
  for (std::size_t s = 0; s < strategies.size(); ++s) index[strategies[s].name] = s;
  std::vector<MatrixEntry> entries;
  for (const auto& row : table.rows)
    entries.push_back({index.at(row[0].text), index.at(row[1].text), {row[win_rate].value, row[win_rate].half_width}});
  print_strategy_matrix(out, table.title, strategies, 4, std::move(entries));
}

// Tables of several seats, one line each: every seat's win rate (a seat
// with a head start shown as "name+points"), then the ties.
void print_groups(std::ostream& out, const SummarySection& table, const std::string& what) {
  const std::size_t win_rate = column_of(table, "win_rate"), tie_rate = column_of(table, "tie_rate");
  const auto head_start = std::find(table.keys.begin(), table.keys.end(), "head_start");
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    const std::vector<Figure>& row = table.rows[r];
    if (r == 0 || table.rows[r - 1][0].count != row[0].count)
      out << "\n" << what << " " << row[0].count << " (" << row[1].count << " games): wins";
    out << "  " << terminal_text(row[3].text);
    if (head_start != table.keys.end())
      if (const Figure& points = row[std::size_t(head_start - table.keys.begin())]; points.count != 0)
        out << "+" << points.count;
    out << " " << cell_text(row[win_rate], 4);
    if (r + 1 == table.rows.size() || table.rows[r + 1][0].count != row[0].count)
      out << "  ties " << cell_text(row[tie_rate], 4) << "\n";
  }
}

}  // namespace

std::vector<SummarySection> summary_tables(const RunConfig& config, const EngineOutput& output) {
  std::vector<SummarySection> tables{
      strategies_table(config, output),
      pairs_table(config, output, "headtohead",
                  "head to head: fraction of games the row strategy wins (ties count for neither; 95% intervals)",
                  config.plan.headtohead, true),
      pairs_table(config, output, "sequential",
                  "sequential: fraction of games the row strategy, playing first, wins (95% intervals)",
                  config.plan.sequential, false),
      groups_table(config, output, "nway", "n-way table", config.plan.nway),
      groups_table(config, output, "sequential_tables", "sequential table", config.plan.sequential_tables)};
  if (config.precision) tables.push_back(precision_table(config, output));
  std::erase_if(tables, [](const SummarySection& t) { return t.rows.empty(); });
  return tables;
}

void print_summary(std::ostream& out, const RunConfig& config, const EngineOutput& output) {
  bool first = true;
  for (const SummarySection& table : summary_tables(config, output)) {
    if (table.name == "nway" || table.name == "sequential_tables") {
      print_groups(out, table, table.title);
      continue;
    }
    if (!first) out << "\n";
    first = false;
    if (table.name == "strategies" || table.name == "precision")
      print_table(out, table);
    else
      print_matrix(out, table, config.game->strategies());
  }
}

namespace {

// The shortest text that reads back to the same double (std::to_chars
// without a precision): 0.57187, not 0.57186999999999999.
std::string shortest(double value) {
  char text[64];
  const auto [end, error] = std::to_chars(text, text + sizeof text, value);
  return error == std::errc() ? std::string(text, end) : std::string();
}

// The table's header: each key, an estimate's followed by <key>_half_width.
std::vector<std::string> machine_columns(const SummarySection& table) {
  const std::vector<Figure>* sample = table.rows.empty() ? nullptr : &table.rows.front();
  std::vector<std::string> columns;
  for (std::size_t c = 0; c < table.keys.size(); ++c) {
    columns.push_back(table.keys[c]);
    if (sample && (*sample)[c].kind == Figure::Kind::estimate) columns.push_back(table.keys[c] + "_half_width");
  }
  return columns;
}

ordered_json check_record(const Check& c) {
  return {{"name", c.name}, {"kind", c.kind},       {"observed", c.observed}, {"expected", c.expected},
          {"z", c.z},       {"p_value", c.p_value}, {"passed", c.passed()}};
}

}  // namespace

std::string summary_csv(const SummarySection& table) {
  std::vector<std::string> header;
  for (const std::string& column : machine_columns(table)) header.push_back(csv_text(column));
  std::string csv = csv_row(header);
  for (const auto& row : table.rows) {
    std::vector<std::string> cells;
    for (const Figure& f : row) {
      if (f.kind == Figure::Kind::text) cells.push_back(csv_text(f.text));
      if (f.kind == Figure::Kind::flag) cells.push_back(f.count ? "true" : "false");
      if (f.kind == Figure::Kind::count) cells.push_back(std::to_string(f.count));
      if (f.kind == Figure::Kind::number) cells.push_back(f.has_value() ? shortest(f.value) : "");
      if (f.kind == Figure::Kind::estimate) {  // no estimate: two empty cells
        cells.push_back(f.has_value() ? shortest(f.value) : "");
        cells.push_back(f.has_value() ? shortest(f.half_width) : "");
      }
    }
    csv += csv_row(cells);
  }
  return csv;
}

std::string checks_csv(const std::vector<Check>& checks) {
  std::string csv = csv_row({"name", "kind", "observed", "expected", "z", "p_value", "passed"});
  for (const Check& c : checks)
    csv += csv_row({csv_text(c.name), csv_text(c.kind), shortest(c.observed), shortest(c.expected), shortest(c.z),
                    shortest(c.p_value), c.passed() ? "true" : "false"});
  return csv;
}

std::string facts_csv(const RunFacts& facts) {
  std::string csv = csv_row({"fact", "value"});
  for (const auto& [name, value] : facts) {
    std::string text;
    if (value.is_string())
      text = csv_text(value.get<std::string>());
    else if (value.is_number_float())
      text = shortest(value.get<double>());
    else if (!value.is_null())
      text = value.dump();
    csv += csv_row({csv_text(name), text});
  }
  return csv;
}

ordered_json summary_document(const RunFacts& facts, const std::vector<SummarySection>& tables,
                              const std::vector<Check>* checks) {
  ordered_json run = ordered_json::object();
  for (const auto& [name, value] : facts) run[name] = value;
  ordered_json out_tables = ordered_json::object();
  for (const SummarySection& table : tables) {
    ordered_json rows = ordered_json::array();
    for (const auto& row : table.rows) {
      ordered_json object = ordered_json::object();
      for (std::size_t c = 0; c < row.size(); ++c) {
        const Figure& f = row[c];
        const std::string& key = table.keys[c];
        if (f.kind == Figure::Kind::text)
          object[key] = f.text;
        else if (f.kind == Figure::Kind::flag)
          object[key] = f.count != 0;
        else if (f.kind == Figure::Kind::count)
          object[key] = f.count;
        else
          object[key] = f.has_value() ? ordered_json(f.value) : ordered_json(nullptr);
        if (f.kind == Figure::Kind::estimate)
          object[key + "_half_width"] = f.has_value() ? ordered_json(f.half_width) : ordered_json(nullptr);
      }
      rows.push_back(std::move(object));
    }
    ordered_json entry = {{"title", table.title}, {"columns", machine_columns(table)}, {"rows", std::move(rows)}};
    if (!table.targets.empty()) entry["targets"] = table.targets;
    out_tables[table.name] = std::move(entry);
  }
  ordered_json out_checks = nullptr;
  if (checks) {
    out_checks = ordered_json::array();
    for (const Check& c : *checks) out_checks.push_back(check_record(c));
  }
  return {{"summary_format", kSummaryFormat},
          {"run", std::move(run)},
          {"tables", std::move(out_tables)},
          {"checks", std::move(out_checks)}};
}

void print_checks(std::ostream& out, const std::vector<Check>& checks, const std::vector<std::string>& not_compared,
                  ChecksShown shown) {
  const bool every_number = shown == ChecksShown::every_number;
  std::size_t failures = 0;
  double worst = 0;
  if (every_number)
    out << "\nMonte Carlo against exact. z: the difference in standard errors; a chi_square row compares a\n"
        << "whole histogram (its statistic against its degrees of freedom; its z is that of its upper-tail\n"
        << "probability, 0.00 when the statistic is at most its median, about the degrees of freedom: a close\n"
        << "fit is no failure). .../distribution: a seat's score histogram at that table, whatever the config's\n"
        << "\"distributions\" says (that only adds each strategy's table alone).\n"
        << std::right << std::setw(9) << "z"
        << "  " << std::left << std::setw(11) << "kind" << std::right << std::setw(14) << "Monte Carlo" << std::setw(14)
        << "exact"
        << "  number\n";
  for (const Check& c : checks) {
    worst = std::max(worst, std::abs(c.z));
    failures += !c.passed();
    if (!every_number && c.passed()) continue;
    out << std::right << std::fixed << std::setprecision(2) << std::setw(9) << c.z << "  " << std::left << std::setw(11)
        << terminal_text(c.kind) << std::right << std::setprecision(6) << std::setw(14) << c.observed << std::setw(14)
        << c.expected << "  " << terminal_text(c.name) << (c.passed() ? "" : "  <-- DISAGREES") << "\n";
  }
  out << (every_number ? "\n" : "") << "check: " << checks.size() << " numbers compared with the exact solver, "
      << failures << " beyond |z| > " << std::setprecision(0) << kZLimit << "; largest |z| " << std::setprecision(2)
      << worst << "\n";
  if (every_number)
    for (const std::string& line : not_compared) out << "not compared: " << line << "\n";
}

}  // namespace dicesim
