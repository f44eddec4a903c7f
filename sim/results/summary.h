// What a run prints, and what `show` prints or writes as CSV or JSON: each
// strategy's figures, the win rates of pairs and tables, every estimate with
// the half-width of its 95% interval; and the checks against the exact solver.
#pragma once

#include <cmath>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "plan/run_config.h"
#include "results/exact_checks.h"

namespace dicesim {

// One cell of a summary table.
// A cell of a summary table. A table with no games has no estimate and no
// number: its value is NaN, printed "-" (text), null (JSON), an empty cell (CSV).
struct Figure {
  // number: a plain value without an interval (an sd, a half-width reached).
  enum class Kind { text, count, estimate, number };
  Kind kind = Kind::text;
  std::string text;
  std::int64_t count = 0;
  double value = 0, half_width = 0;  // an estimate: the 95% interval is value ± half_width

  static Figure of_text(std::string t) { return {Kind::text, std::move(t)}; }
  static Figure of_count(std::int64_t c) { return {Kind::count, {}, c}; }
  static Figure of_estimate(double v, double h) { return {Kind::estimate, {}, 0, v, h}; }
  static Figure of_number(double v) { return {Kind::number, {}, 0, v, 0}; }
  bool has_value() const { return !std::isnan(value); }
};

struct SummaryTable {
  std::string
      name;  // "strategies", "headtohead", "sequential", "nway", "sequential_tables", "precision" (CSV file stem)
  std::string title;  // printed above it
  std::vector<std::string> columns;
  std::vector<std::vector<Figure>> rows;
};

// The tables of a run's summary (empty ones left out). Pairs and tables are
// in long form: one row per (strategy, opponent) or (table, seat).
std::vector<SummaryTable> summary_tables(const RunConfig& config, const EngineOutput& output);

void print_summary(std::ostream& out, const RunConfig& config, const EngineOutput& output);
// The tables as CSV text (an estimate is two columns: the value and
// "<column> 95% half-width") and as JSON (an estimate is {"value", "half_width"}).
std::string summary_csv(const SummaryTable& table);
json summary_json(const std::vector<SummaryTable>& tables);

// Which rows print_checks prints: every number, or (under --quiet) only the
// ones beyond chance, which are errors; the one-line verdict always.
enum class ChecksShown { every_number, disagreements };

// not_compared: what the solvers left out and why (exact_checks.h), listed after the checks.
void print_checks(std::ostream& out, const std::vector<Check>& checks,
                  const std::vector<std::string>& not_compared = {}, ChecksShown shown = ChecksShown::every_number);

}  // namespace dicesim
