#include "results/summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <limits>
#include <optional>
#include <ostream>
#include <unordered_map>

#include "math/stats.h"
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
SummaryTable strategies_table(const RunConfig& config, const EngineOutput& output) {
  const std::vector<Strategy>& strategies = config.game->strategies();
  const std::vector<Measure> measures = config.game->measures();
  const bool lowest_wins = config.entry->lowest_score_wins;
  SummaryTable table{"strategies", "each strategy alone (95% intervals):", {"strategy", "games"}, {}};
  table.columns.push_back("mean " + measures[0].name);
  table.columns.push_back("sd");
  if (lowest_wins) table.columns.push_back("P(min)");
  for (std::size_t m = 1; m < measures.size(); ++m) table.columns.push_back("mean " + measures[m].name);
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
SummaryTable pairs_table(const RunConfig& config, const EngineOutput& output, std::string name, std::string title,
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
  SummaryTable table{std::move(name), std::move(title), {"strategy", "opponent", "games", "win rate"}, {}};
  for (const Cell& c : cells) {
    const std::uint64_t games = output.games_done[c.table];
    table.rows.push_back({Figure::of_text(strategies[c.row].name), Figure::of_text(strategies[c.column].name),
                          Figure::of_count(std::int64_t(games)),
                          rate(table_counts(config, output, c.table).wins(c.seat), games)});
  }
  return table;
}

// Tables of several seats in long form: one row per seat, then the ties.
SummaryTable groups_table(const RunConfig& config, const EngineOutput& output, std::string name, std::string title,
                          const std::vector<int>& groups) {
  const std::vector<Strategy>& strategies = config.game->strategies();
  SummaryTable table{std::move(name), std::move(title), {"table", "games", "seat", "strategy", "win rate"}, {}};
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const TableCountsView c = table_counts(config, output, groups[g]);
    const std::uint64_t games = output.games_done[groups[g]];
    const auto row = [&](std::string seat, std::string strategy, std::int64_t wins) {
      table.rows.push_back({Figure::of_count(std::int64_t(g)), Figure::of_count(std::int64_t(games)),
                            Figure::of_text(std::move(seat)), Figure::of_text(std::move(strategy)), rate(wins, games)});
    };
    for (int s = 0; s < c.seats(); ++s)
      row(std::to_string(s), strategies[config.plan.tables[groups[g]].table.seats[s]].name, c.wins(s));
    row("ties", "", c.tie_games());
  }
  return table;
}

// With a precision target: each table's games and the largest 95%
// half-width it reached, of the win rates and of each targeted mean.
SummaryTable precision_table(const RunConfig& config, const EngineOutput& output) {
  const PrecisionTarget& target = *config.precision;
  const std::vector<Measure> measures = config.game->measures();
  SummaryTable table{"precision",
                     "precision target: each table's games and the largest 95% half-width it reached",
                     {"table", "games"},
                     {}};
  const auto limit = [](double value) {  // as many digits as the target has (5e-05, not 0.0000)
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", value);
    return " (target " + std::string(text) + ")";
  };
  if (target.rate) table.columns.push_back("win rate ±" + limit(*target.rate));
  for (const auto& [m, half_width] : target.means)
    table.columns.push_back("mean " + measures[m].name + " ±" + limit(half_width));
  table.columns.push_back("met");
  for (std::size_t t = 0; t < config.plan.tables.size(); ++t) {
    const HalfWidths reached = half_widths(table_counts(config, output, int(t)), measures);
    std::vector<Figure> row{Figure::of_text(config.plan.tables[t].key),
                            Figure::of_count(std::int64_t(output.games_done[t]))};
    const bool played = output.games_done[t] > 0;
    if (target.rate) row.push_back(Figure::of_number(played && reached.rate ? *reached.rate : kNoGames));
    for (const auto& [m, half_width] : target.means)
      row.push_back(Figure::of_number(played ? reached.means[m] : kNoGames));
    row.push_back(Figure::of_text(meets(target, reached) ? "yes" : "no"));
    table.rows.push_back(std::move(row));
  }
  return table;
}

std::string cell_text(const Figure& f, int precision) {
  switch (f.kind) {
    case Figure::Kind::text:
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

void print_table(std::ostream& out, const SummaryTable& table) {
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

// A pairs table as a strategy-by-strategy matrix.
void print_matrix(std::ostream& out, const SummaryTable& table, const std::vector<Strategy>& strategies) {
  std::unordered_map<std::string, std::size_t> index;
  for (std::size_t s = 0; s < strategies.size(); ++s) index[strategies[s].name] = s;
  std::vector<MatrixEntry> entries;
  for (const auto& row : table.rows)
    entries.push_back({index.at(row[0].text), index.at(row[1].text), {row[3].value, row[3].half_width}});
  print_strategy_matrix(out, table.title, strategies, 4, std::move(entries));
}

// Tables of several seats, one line each.
void print_groups(std::ostream& out, const SummaryTable& table, const std::string& what) {
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    const std::vector<Figure>& row = table.rows[r];
    if (r == 0 || table.rows[r - 1][2].text == "ties")
      out << "\n" << what << " " << row[0].count << " (" << row[1].count << " games): wins";
    out << "  " << (row[2].text == "ties" ? "ties" : row[3].text) << " " << cell_text(row[4], 4);
    if (row[2].text == "ties") out << "\n";
  }
}

}  // namespace

std::vector<SummaryTable> summary_tables(const RunConfig& config, const EngineOutput& output) {
  std::vector<SummaryTable> tables{
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
  std::erase_if(tables, [](const SummaryTable& t) { return t.rows.empty(); });
  return tables;
}

void print_summary(std::ostream& out, const RunConfig& config, const EngineOutput& output) {
  bool first = true;
  for (const SummaryTable& table : summary_tables(config, output)) {
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

std::string summary_csv(const SummaryTable& table) {
  const auto quoted = [](const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos) return text;
    std::string q(1, '"');
    for (char c : text) {
      q.push_back(c);
      if (c == '"') q.push_back('"');
    }
    q.push_back('"');
    return q;
  };
  std::string csv;
  const std::vector<Figure>* sample = table.rows.empty() ? nullptr : &table.rows.front();
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    if (c) csv.push_back(',');
    csv.append(quoted(table.columns[c]));
    if (sample && (*sample)[c].kind == Figure::Kind::estimate) {
      csv.push_back(',');
      csv.append(quoted(table.columns[c] + " 95% half-width"));
    }
  }
  csv += "\n";
  char number[64];
  for (const auto& row : table.rows) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (c) csv += ",";
      const Figure& f = row[c];
      if (f.kind == Figure::Kind::text) csv += quoted(f.text);
      if (f.kind == Figure::Kind::count) csv += std::to_string(f.count);
      if (f.kind == Figure::Kind::estimate) {
        if (f.has_value()) std::snprintf(number, sizeof number, "%.17g,%.17g", f.value, f.half_width);
        csv += f.has_value() ? number : ",";  // no estimate: two empty cells
      }
      if (f.kind == Figure::Kind::number && f.has_value()) {
        std::snprintf(number, sizeof number, "%.17g", f.value);
        csv += number;
      }
    }
    csv += "\n";
  }
  return csv;
}

json summary_json(const std::vector<SummaryTable>& tables) {
  json out = json::object();
  for (const SummaryTable& table : tables) {
    json rows = json::array();
    for (const auto& row : table.rows) {
      json object = json::object();
      for (std::size_t c = 0; c < row.size(); ++c) {
        const Figure& f = row[c];
        if (f.kind == Figure::Kind::text)
          object[table.columns[c]] = f.text;
        else if (f.kind == Figure::Kind::count)
          object[table.columns[c]] = f.count;
        else if (!f.has_value())
          object[table.columns[c]] = nullptr;
        else if (f.kind == Figure::Kind::number)
          object[table.columns[c]] = f.value;
        else
          object[table.columns[c]] = {{"value", f.value}, {"half_width", f.half_width}};
      }
      rows.push_back(std::move(object));
    }
    out[table.name] = {{"title", table.title}, {"columns", table.columns}, {"rows", std::move(rows)}};
  }
  return out;
}

void print_checks(std::ostream& out, const std::vector<Check>& checks, const std::vector<std::string>& not_compared,
                  ChecksShown shown) {
  const bool every_number = shown == ChecksShown::every_number;
  std::size_t failures = 0;
  double worst = 0;
  if (every_number)
    out << "\nMonte Carlo against exact (chi_square: statistic against degrees of freedom)\n"
        << std::right << std::setw(9) << "z"
        << "  " << std::left << std::setw(11) << "kind" << std::right << std::setw(14) << "Monte Carlo" << std::setw(14)
        << "exact"
        << "  number\n";
  for (const Check& c : checks) {
    worst = std::max(worst, std::abs(c.z));
    failures += !c.passed();
    if (!every_number && c.passed()) continue;
    out << std::right << std::fixed << std::setprecision(2) << std::setw(9) << c.z << "  " << std::left << std::setw(11)
        << c.kind << std::right << std::setprecision(6) << std::setw(14) << c.observed << std::setw(14) << c.expected
        << "  " << c.name << (c.passed() ? "" : "  <-- DISAGREES") << "\n";
  }
  out << (every_number ? "\n" : "") << "check: " << checks.size() << " numbers compared with the exact solver, "
      << failures << " beyond |z| > " << std::setprecision(0) << kZLimit << "; largest |z| " << std::setprecision(2)
      << worst << "\n";
  if (every_number)
    for (const std::string& line : not_compared) out << "not compared: " << line << "\n";
}

}  // namespace dicesim
