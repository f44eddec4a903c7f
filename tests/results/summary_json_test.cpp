// The machine-readable summaries: show --json and run --json share one
// versioned layout (summary.h), the schema shipped is the one dicesim
// prints, and the CSV files carry the same columns with numbers in their
// shortest round-trip form.
#include <gtest/gtest.h>

#include <charconv>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "config/json_input.h"
#include "results/summary.h"
#include "test_util.h"

namespace dicesim {
namespace {

using testing::dicesim;
using testing::TempDir;

const char* kConfig = R"J({
  "game": "sixers", "seed": 5, "games": 3000,
  "strategies": [{"name": "dv(2,2)", "family": "dice_value_threshold", "per_roll": [2, 2]},
                 {"name": "dv(1,2)", "family": "dice_value_threshold", "per_roll": [1, 2]},
                 {"name": "ts(5,5)", "family": "turn_score_threshold", "per_roll": [5, 5]}],
  "contests": {"distributions": true, "headtohead": true, "sequential": true,
               "nway": [["dv(2,2)", "dv(1,2)", "ts(5,5)"]]}
})J";

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::vector<std::string>> csv_cells(const std::string& path) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(read_text(path));
  for (std::string line; std::getline(lines, line);) {
    std::vector<std::string> cells;
    std::istringstream fields(line);
    for (std::string cell; std::getline(fields, cell, ',');) cells.push_back(cell);
    if (!line.empty() && line.back() == ',') cells.push_back("");
    rows.push_back(cells);
  }
  return rows;
}

// A cell that is a number must be the shortest text of its double.
bool is_shortest_or_not_a_number(const std::string& cell) {
  char* end = nullptr;
  const double value = std::strtod(cell.c_str(), &end);
  if (cell.empty() || *end != '\0') return true;
  char text[64];
  const auto written = std::to_chars(text, text + sizeof text, value);
  return std::string(text, written.ptr) == cell;
}

TEST(SummaryJson, TheShippedSchemaIsWhatDicesimSchemaSummaryPrints) {
  const auto printed = dicesim("schema --summary");
  ASSERT_EQ(printed.exit_code, 0) << printed.out;
  EXPECT_TRUE(printed.out == read_text(testing::source_path("scripts/analysis/dicesim_analysis/summary_schema.json")))
      << "the shipped summary schema differs from `dicesim schema --summary`: run build/dicesim schema --summary > "
         "scripts/analysis/dicesim_analysis/summary_schema.json";
  const json schema = json::parse(printed.out);
  EXPECT_EQ(schema.at("properties").at("summary_format").at("const"), kSummaryFormat);
  EXPECT_EQ(schema.at("$schema"), "https://json-schema.org/draft/2020-12/schema");
}

// run --json writes what show --json prints of the file it wrote: one layout.
TEST(SummaryJson, RunJsonIsWhatShowJsonPrintsOfTheFile) {
  TempDir dir;
  const std::string config = dir.write("sixers.json", kConfig);
  const std::string results = dir.file("sixers.h5"), written = dir.file("sixers.summary.json");
  const auto run = dicesim("check " + config + " -o " + results + " --json " + written + " --quiet");
  ASSERT_EQ(run.exit_code, 0) << run.out;
  const auto shown = dicesim("show --json " + results);
  ASSERT_EQ(shown.exit_code, 0) << shown.out;
  const json from_run = json::parse(read_text(written)), from_show = json::parse(shown.out);
  EXPECT_EQ(from_run, from_show);

  EXPECT_EQ(from_show.at("summary_format"), kSummaryFormat);
  const json& facts = from_show.at("run");
  for (const char* count : {"blocks_done", "blocks_planned", "blocks_in_run", "games_per_table", "games_played"})
    EXPECT_TRUE(facts.at(count).is_number_unsigned()) << count << ": " << facts.at(count);
  EXPECT_EQ(facts.at("blocks_done"), facts.at("blocks_planned"));
  EXPECT_TRUE(facts.at("shard").is_null());
  EXPECT_TRUE(facts.at("wall_seconds").is_number());
  EXPECT_EQ(facts.at("command"), "check");

  // The checks as records, as /checks holds them.
  const json& checks = from_show.at("checks");
  ASSERT_TRUE(checks.is_array());
  ASSERT_FALSE(checks.empty());
  for (const json& check : checks) {
    for (const char* key : {"observed", "expected", "z", "p_value"}) EXPECT_TRUE(check.at(key).is_number()) << check;
    EXPECT_TRUE(check.at("passed").is_boolean()) << check;
    EXPECT_TRUE(check.at("name").is_string()) << check;
  }

  // Pairs carry their counts, which add up to the games; seats are numbers.
  for (const json& pair : from_show.at("tables").at("headtohead").at("rows"))
    EXPECT_EQ(pair.at("wins").get<std::int64_t>() + pair.at("ties").get<std::int64_t>() +
                  pair.at("losses").get<std::int64_t>(),
              pair.at("games").get<std::int64_t>())
        << pair;
  const json& seats = from_show.at("tables").at("nway").at("rows");
  ASSERT_EQ(seats.size(), 3u);
  for (std::size_t s = 0; s < seats.size(); ++s) {
    EXPECT_EQ(seats[s].at("seat"), s) << seats[s];
    EXPECT_TRUE(seats[s].at("tie_rate").is_number()) << seats[s];
  }
  EXPECT_EQ(from_show.at("tables").at("headtohead").at("columns"),
            json({"strategy", "opponent", "games", "wins", "ties", "losses", "win_rate", "win_rate_half_width"}));
}

TEST(SummaryJson, ARunFileHasNoChecksAndAnEmptyShardNoEstimates) {
  TempDir dir;
  // Shard 1 of 1000 of a one-block run plays nothing: its blocks are [0, 1/1000).
  const std::string config = dir.write("one.json", R"J({"game": "pig", "games": 100,
    "strategies": [{"name": "hold20", "family": "hold_at", "at": 20}], "contests": {"distributions": true}})J");
  const std::string written = dir.file("s.json");
  const auto run =
      dicesim("run " + config + " --shard 1/1000 -o " + dir.file("s.h5") + " --json " + written + " --quiet");
  ASSERT_EQ(run.exit_code, 0) << run.out;
  const json summary = json::parse(read_text(written));
  EXPECT_TRUE(summary.at("checks").is_null());
  EXPECT_EQ(summary.at("run").at("shard"), "1/1000");
  EXPECT_EQ(summary.at("run").at("blocks_done"), 0);
  const json& row = summary.at("tables").at("strategies").at("rows").at(0);
  EXPECT_TRUE(row.at("mean").is_null()) << row;
  EXPECT_TRUE(row.at("mean_half_width").is_null()) << row;
}

TEST(SummaryJson, RunJsonIsRefusedBeforeThePlayWhereItCannotBeWritten) {
  TempDir dir;
  const std::string config = dir.write("sixers.json", kConfig);
  const std::string results = dir.file("r.h5");
  for (const std::string& target : {results, config, dir.path().string(), dir.file("no/such/dir/s.json")}) {
    const auto run = dicesim("run " + config + " -o " + results + " --json " + target + " --quiet");
    EXPECT_EQ(run.exit_code, 2) << target << ": " << run.out;
    EXPECT_NE(run.out.find("--json"), std::string::npos) << run.out;
    EXPECT_FALSE(std::filesystem::exists(results)) << target;
  }
}

TEST(SummaryCsv, ShortestNumbersCountsOfPairsAndTheChecks) {
  TempDir dir;
  const std::string config = dir.write("sixers.json", kConfig);
  const std::string results = dir.file("sixers.h5");
  ASSERT_EQ(dicesim("check " + config + " -o " + results + " --quiet").exit_code, 0);
  const auto shown = dicesim("show --csv " + dir.file("csv") + " " + results);
  ASSERT_EQ(shown.exit_code, 0) << shown.out;
  EXPECT_NE(shown.out.find("wrote 6 CSV files"), std::string::npos) << shown.out;  // run, 4 tables, checks

  const auto pairs = csv_cells(dir.file("csv/headtohead.csv"));
  ASSERT_GT(pairs.size(), 1u);
  EXPECT_EQ(pairs[0], (std::vector<std::string>{"strategy", "opponent", "games", "wins", "ties", "losses", "win_rate",
                                                "win_rate_half_width"}));
  const auto checks = csv_cells(dir.file("csv/checks.csv"));
  EXPECT_EQ(checks[0], (std::vector<std::string>{"name", "kind", "observed", "expected", "z", "p_value", "passed"}));
  const json from_json = json::parse(dicesim("show --json " + results).out);
  EXPECT_EQ(checks.size(), from_json.at("checks").size() + 1);

  int numbers = 0;
  for (const char* name : {"strategies", "headtohead", "sequential", "nway", "checks", "run"})
    for (const auto& row : csv_cells(dir.file(std::string("csv/") + name + ".csv"))) {
      // Versions and the git revision (which may be all digits): text, not numbers.
      if (row[0] == "results_format" || row[0] == "program_version" || row[0] == "git_revision") continue;
      for (const std::string& cell : row) {
        EXPECT_TRUE(is_shortest_or_not_a_number(cell)) << name << ": " << cell;
        numbers += cell.find('.') != std::string::npos;
      }
    }
  EXPECT_GT(numbers, 50);
  const auto facts = csv_cells(dir.file("csv/run.csv"));
  EXPECT_EQ(facts[0], (std::vector<std::string>{"fact", "value"}));
  EXPECT_EQ(facts[1][0], "file");
}

TEST(SummaryCsv, TheShortestFormReadsBackToTheSameDouble) {
  // The number of the issue: %.17g printed it 0.57186999999999999.
  SummarySection table{"t", "t"};
  table.add_column("x", "x");
  table.rows.push_back({Figure::of_number(0.57187)});
  table.rows.push_back({Figure::of_number(1.0 / 3.0)});
  EXPECT_EQ(summary_csv(table), "x\n0.57187\n0.3333333333333333\n");
}

}  // namespace
}  // namespace dicesim
