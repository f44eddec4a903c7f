// The JSON Schema of the summary document (summary.h): declared once, here,
// printed by `dicesim schema --summary` and shipped with the Python package.
#include "results/summary.h"

namespace dicesim {
namespace {

ordered_json of_type(const char* type) { return {{"type", type}}; }
ordered_json count() { return {{"type", "integer"}, {"minimum", 0}}; }
// A number, or null where there is no estimate (a table that played no games).
ordered_json number_or_null() { return {{"type", ordered_json::array({"number", "null"})}}; }
ordered_json text() { return of_type("string"); }

ordered_json object_of(ordered_json properties, ordered_json required, ordered_json patterns = nullptr) {
  ordered_json out = {{"type", "object"},
                      {"properties", std::move(properties)},
                      {"required", std::move(required)},
                      {"additionalProperties", false}};
  if (!patterns.is_null()) out["patternProperties"] = std::move(patterns);
  return out;
}

ordered_json table_of(const char* row) {
  return object_of({{"title", text()},
                    {"columns", {{"type", "array"}, {"items", text()}}},
                    {"rows", {{"type", "array"}, {"items", {{"$ref", std::string("#/$defs/") + row}}}}},
                    {"targets", {{"type", "object"}, {"additionalProperties", of_type("number")}}}},
                   {"title", "columns", "rows"});
}

ordered_json run_facts_schema() {
  return object_of(
      {{"file", text()},
       {"results_format", {{"type", "string"}, {"pattern", "^[0-9]+\\.[0-9]+$"}}},
       {"program_version", text()},
       {"git_revision", text()},
       {"command", {{"enum", {"run", "check", "merge"}}}},
       {"game", text()},
       {"name", text()},
       {"seed", count()},
       {"games_per_table", count()},
       {"tables", count()},
       {"games_played", count()},
       {"blocks_done", count()},
       {"blocks_planned", count()},
       {"blocks_in_run", count()},
       {"complete", of_type("boolean")},
       {"shard", {{"type", ordered_json::array({"string", "null"})}}},
       {"threads", count()},
       {"wall_seconds", of_type("number")},
       {"biased_die", of_type("boolean")},
       {"check_z_limit", of_type("number")},
       // of a check: whether a stop request skipped the comparison (then "checks" is null); else null
       {"exact_skipped", {{"type", ordered_json::array({"boolean", "null"})}}}},
      {"file",           "results_format", "program_version", "git_revision", "command",      "game",
       "name",           "seed",           "games_per_table", "tables",       "games_played", "blocks_done",
       "blocks_planned", "blocks_in_run",  "complete",        "shard",        "threads",      "wall_seconds",
       "biased_die",     "check_z_limit",  "exact_skipped"});
}

ordered_json row_schemas() {
  const ordered_json strategy_row = object_of(
      {{"strategy", text()},
       {"games", count()},
       {"mean", number_or_null()},
       {"mean_half_width", number_or_null()},
       {"sd", number_or_null()},
       {"p_min", number_or_null()},
       {"p_min_half_width", number_or_null()}},
      {"strategy", "games", "mean", "mean_half_width", "sd"},
      {{"^mean_[a-z0-9_]+$", number_or_null()}});  // the other measures' means: mean_turns, mean_turns_half_width
  const ordered_json pair_row =
      object_of({{"strategy", text()},
                 {"opponent", text()},
                 {"games", count()},
                 {"wins", count()},
                 {"ties", count()},
                 {"losses", count()},
                 {"win_rate", number_or_null()},
                 {"win_rate_half_width", number_or_null()}},
                {"strategy", "opponent", "games", "wins", "ties", "losses", "win_rate", "win_rate_half_width"});
  const ordered_json table_row = object_of({{"table", count()},
                                            {"games", count()},
                                            {"seat", count()},
                                            {"strategy", text()},
                                            {"head_start", count()},  // only where some seat has one
                                            {"wins", count()},
                                            {"tied", count()},
                                            {"win_rate", number_or_null()},
                                            {"win_rate_half_width", number_or_null()},
                                            {"tie_games", count()},
                                            {"tie_rate", number_or_null()},
                                            {"tie_rate_half_width", number_or_null()}},
                                           {"table", "games", "seat", "strategy", "wins", "tied", "win_rate",
                                            "win_rate_half_width", "tie_games", "tie_rate", "tie_rate_half_width"});
  const ordered_json precision_row = object_of({{"table", text()}, {"games", count()}, {"met", of_type("boolean")}},
                                               {"table", "games", "met"}, {{"_half_width$", number_or_null()}});
  const ordered_json check = object_of({{"name", text()},
                                        {"kind", {{"enum", {"mean", "chi_square", "win_rate", "tie_rate"}}}},
                                        {"observed", of_type("number")},
                                        {"expected", of_type("number")},
                                        {"z", of_type("number")},
                                        {"p_value", of_type("number")},
                                        {"passed", of_type("boolean")}},
                                       {"name", "kind", "observed", "expected", "z", "p_value", "passed"});
  return {{"strategy_row", strategy_row},
          {"pair_row", pair_row},
          {"table_row", table_row},
          {"precision_row", precision_row},
          {"check", check}};
}

}  // namespace

ordered_json summary_schema() {
  ordered_json schema = {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
                         {"title", std::string("dicesim results summary, format ") + kSummaryFormat +
                                       " (dicesim show --json, dicesim run --json FILE)"}};
  schema.update(object_of(
      {{"summary_format", {{"const", kSummaryFormat}}},
       {"run", run_facts_schema()},
       {"tables", object_of({{"strategies", table_of("strategy_row")},
                             {"headtohead", table_of("pair_row")},
                             {"sequential", table_of("pair_row")},
                             {"nway", table_of("table_row")},
                             {"sequential_tables", table_of("table_row")},
                             {"precision", table_of("precision_row")}},
                            ordered_json::array())},
       {"checks", {{"oneOf", {{{"type", "null"}}, {{"type", "array"}, {"items", {{"$ref", "#/$defs/check"}}}}}}}}},
      {"summary_format", "run", "tables", "checks"}));
  schema["$defs"] = row_schemas();
  return schema;
}

}  // namespace dicesim
