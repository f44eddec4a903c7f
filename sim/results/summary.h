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

// A cell of a summary table. A table with no games has no estimate and no
// number: its value is NaN, printed "-" (text), null (JSON), an empty cell (CSV).
struct Figure {
  // number: a plain value without an interval (an sd, a half-width reached);
  // flag: yes or no (true or false in JSON and CSV).
  enum class Kind { text, count, estimate, number, flag };
  Kind kind = Kind::text;
  std::string text;
  std::int64_t count = 0;
  double value = 0, half_width = 0;  // an estimate: the 95% interval is value ± half_width

  static Figure of_text(std::string t) { return {Kind::text, std::move(t)}; }
  static Figure of_count(std::int64_t c) { return {Kind::count, {}, c}; }
  static Figure of_estimate(double v, double h) { return {Kind::estimate, {}, 0, v, h}; }
  static Figure of_number(double v) { return {Kind::number, {}, 0, v, 0}; }
  static Figure of_flag(bool yes) { return {Kind::flag, yes ? "yes" : "no", yes}; }
  bool has_value() const { return !std::isnan(value); }
};

// One part of a run's summary (not a table in dicesim's sense, a seating):
// printed as aligned columns, a JSON array of rows, a CSV file.
struct SummarySection {
  std::string
      name;  // "strategies", "headtohead", "sequential", "nway", "sequential_tables", "precision" (CSV file stem)
  std::string title;                 // printed above it
  std::vector<std::string> columns;  // printed headers
  std::vector<std::string> keys;     // per column its JSON key and CSV header: snake_case, as the Python frames
  std::vector<std::vector<Figure>> rows;
  json targets = json::object();  // precision: per key the half-width the run aimed at
  SummarySection(std::string section_name, std::string section_title)
      : name(std::move(section_name)), title(std::move(section_title)) {}
  void add_column(std::string shown, std::string key) {
    columns.push_back(std::move(shown));
    keys.push_back(std::move(key));
  }
};

// The version of the summary JSON layout (`show --json`, `run --json`) and
// of the CSV files of `show --csv`: the first number changes when a reader
// of the old layout would misread the new one, the second when adding.
// The JSON Schema is summary_schema(), printed by `dicesim schema --summary`.
inline constexpr const char* kSummaryFormat = "1.1";  // 1.1: run.exact_skipped

// What a summary says of its run besides the tables, in order: snake_case
// names, numbers as numbers, null where there is nothing (no shard).
using RunFacts = std::vector<std::pair<std::string, json>>;

// The tables of a run's summary (empty ones left out). Pairs and tables are
// in long form: one row per (strategy, opponent) or (table, seat).
std::vector<SummarySection> summary_tables(const RunConfig& config, const EngineOutput& output);

void print_summary(std::ostream& out, const RunConfig& config, const EngineOutput& output);
// A table as CSV text, a header of its keys (an estimate is two columns:
// <key> and <key>_half_width, the half-width of its 95% interval), numbers
// in their shortest form that reads back to the same double.
std::string summary_csv(const SummarySection& table);
// The checks (one row each: name, kind, observed, expected, z, p_value,
// passed) and the facts (fact,value) as CSV.
std::string checks_csv(const std::vector<Check>& checks);
std::string facts_csv(const RunFacts& facts);
// The whole summary: {"summary_format", "run": facts, "tables": {name:
// {"title", "columns", "rows", "targets"?}}, "checks": [records] or null},
// every row an object of the CSV's columns, keys in the columns' order. Throws json::type_error on text
// that is not UTF-8.
ordered_json summary_document(const RunFacts& facts, const std::vector<SummarySection>& tables,
                              const std::vector<Check>* checks);
// The JSON Schema (draft 2020-12) of summary_document.
ordered_json summary_schema();

// Which rows print_checks prints: every number, or (under --quiet) only the
// ones beyond chance, which are errors; the one-line verdict always.
enum class ChecksShown { every_number, disagreements };

// not_compared: what the solvers left out and why (exact_checks.h), listed after the checks.
void print_checks(std::ostream& out, const std::vector<Check>& checks,
                  const std::vector<std::string>& not_compared = {}, ChecksShown shown = ChecksShown::every_number);

}  // namespace dicesim
