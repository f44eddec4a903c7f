// The results file's layout (results_layout.h), written out as JSON: a
// dataset's shape is a list of the bounds (by name) of its dimensions, or
// of exact sizes; <strategy>, <measure> and <table> in a path stand for a
// strategy's name, a measure's name and a table's index.
#include "results/results_layout.h"

#include "engine/table.h"
#include "results/run_state.h"
#include "strategies/sweep.h"

namespace dicesim {
namespace {

ordered_json bounds() {
  const hsize_t strategies = kMaxStrategies;
  // A pair (headtohead, sequential) or a seated table per ordered pair of
  // strategies at most; a check per seat and measure twice, and per table.
  const hsize_t tables = strategies * strategies;
  return {{"strategies", strategies},
          {"seats", kMaxSeats},
          {"measures", kMaxMeasures},
          {"bins", kMostBins},
          {"pairs", tables},
          {"tables", tables},
          {"checks", tables * (hsize_t(kMaxSeats) * (2 * kMaxMeasures + 1) + 1)},
          {"ranges", kMostRanges},
          {"string_bytes", h5::kMaxStringBytes},
          {"json_depth", kMostJsonDepth},
          {"inflation", kMostInflation}};
}

ordered_json dataset(const std::string& path, const char* type, ordered_json shape, bool required = false) {
  return {{"path", path}, {"type", type}, {"shape", std::move(shape)}, {"required", required}};
}

ordered_json attribute(const std::string& object, const std::string& name, const char* type, bool required = false) {
  return {{"object", object}, {"name", name}, {"type", type}, {"required", required}};
}

// A group of histograms: the score's in the group itself, every other
// measure's in a subgroup named after it, each with its value axis.
void add_histograms(ordered_json& out, const std::string& group, const char* dataset_name, const char* type,
                    ordered_json shape) {
  out.push_back(dataset(group + "/" + dataset_name, type, shape));
  out.push_back(dataset(group + "/score", "integer", {"bins"}));
  out.push_back(dataset(group + "/<measure>/" + dataset_name, type, shape));
  out.push_back(dataset(group + "/<measure>/<measure>", "integer", {"bins"}));
}

ordered_json datasets() {
  ordered_json out = ordered_json::array();
  out.push_back(dataset("/config", "string", {1}));
  for (const char* name : {"names", "specs"})
    out.push_back(dataset(std::string("/strategies/") + name, "string", {"strategies"}, true));
  out.push_back(dataset("/strategies/family", "string", {"strategies"}));
  out.push_back(dataset("/strategies/parameters/strategy", "string", {"strategies"}));
  out.push_back(dataset("/strategies/parameters/<parameter>", "float", {"strategies"}));
  out.push_back(dataset("/measures/name", "string", {"measures"}, true));
  out.push_back(dataset("/measures/bins", "integer", {"measures"}, true));
  add_histograms(out, "/distributions/<strategy>", "counts", "integer", {"bins"});
  add_histograms(out, "/exact/distributions/<strategy>", "probability", "float", {"bins"});
  for (const std::string section : {"headtohead", "sequential"}) {
    for (const char* name : {"wins", "ties", "losses", "games"})
      out.push_back(dataset("/" + section + "/" + name, "integer", {"pairs"}));
    for (const char* name : {"win", "tie", "loss"})
      out.push_back(dataset("/exact/" + section + "/" + name, "float", {"pairs"}));
    for (const std::string& group : {"/" + section, "/exact/" + section})
      for (const char* name : {"strategy", "opponent"}) out.push_back(dataset(group + "/" + name, "string", {"pairs"}));
    out.push_back(dataset("/" + section + "/<measure>/counts", "integer", {"pairs", 2, "bins"}));
    out.push_back(dataset("/" + section + "/<measure>/<measure>", "integer", {"bins"}));
    out.push_back(dataset("/exact/" + section + "/<measure>/probability", "float", {"pairs", 2, "bins"}));
  }
  for (const std::string section : {"nway", "sequential_tables"}) {
    const std::string group = "/" + section + "/<table>", exact = "/exact" + group;
    out.push_back(dataset(group + "/strategy", "string", {"seats"}));
    for (const char* name : {"wins", "tied", "head_start"})
      out.push_back(dataset(group + "/" + name, "integer", {"seats"}));
    add_histograms(out, group, "counts", "integer", {"seats", "bins"});
    out.push_back(dataset(exact + "/win", "float", {"seats"}));
    add_histograms(out, exact, "probability", "float", {"seats", "bins"});
  }
  for (const char* name : {"name", "kind"})
    out.push_back(dataset(std::string("/checks/") + name, "string", {"checks"}));
  for (const char* name : {"observed", "expected", "z", "p_value"})
    out.push_back(dataset(std::string("/checks/") + name, "float", {"checks"}));
  return out;
}

ordered_json attributes() {
  ordered_json out = ordered_json::array();
  out.push_back(attribute("/", "format_version", "integer", true));
  for (const char* name : {"format", h5::kContentChecksum, "name", "game", "seed_text"})
    out.push_back(attribute("/", name, "string", true));
  for (const char* name :
       {"config", "config_file", "program_version", "git_revision", "command", "rules", "shard", "score_description"})
    out.push_back(attribute("/", name, "string"));
  for (const char* name : {"games", "block_games", "complete"}) out.push_back(attribute("/", name, "integer", true));
  for (const char* name : {"seed", "threads", "threads_min", "threads_max", "ranks", "planned_complete",
                           "lowest_score_wins", "exact_skipped", "biased_die"})
    out.push_back(attribute("/", name, "integer"));
  out.push_back(attribute("/", "wall_seconds", "float", true));
  out.push_back(attribute("/distributions/<strategy>", "games", "integer", true));
  for (const char* section : {"/nway/<table>", "/sequential_tables/<table>"})
    for (const char* name : {"games", "tie_games"}) out.push_back(attribute(section, name, "integer", true));
  for (const char* section : {"/exact/nway/<table>", "/exact/sequential_tables/<table>"})
    out.push_back(attribute(section, "tie", "float"));
  out.push_back(attribute("/checks", "z_limit", "float", true));
  return out;
}

}  // namespace

ordered_json results_layout() {
  return {{"title", "the dicesim results file as its readers see it (dicesim schema --results-layout)"},
          {"format", "dicesim-results"},
          {"format_version", {kFormatMajor, kFormatMinor}},
          {"oldest_readable_major", kOldestReadableMajor},
          {"bounds", bounds()},
          {"attributes", attributes()},
          {"datasets", datasets()}};
}

}  // namespace dicesim
