#include "results/run_state.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <sstream>

namespace dicesim {
namespace {

std::vector<std::int64_t> flatten(const std::vector<BlockRange>& ranges) {
  std::vector<std::int64_t> out;
  for (const BlockRange& r : ranges) {
    out.push_back(static_cast<std::int64_t>(r.begin));
    out.push_back(static_cast<std::int64_t>(r.end));
  }
  return out;
}

// FNV-1a over everything merge and resume rely on: a changed byte anywhere
// in them is caught.
std::string checksum(const RunConfig& config, const EngineOutput& output, const std::vector<BlockRange>& planned,
                     const std::string& shard) {
  Fnv1a h;
  h.add_bytes(config.document.dump() + "|" + std::to_string(config.seed) + "|" + std::to_string(config.games) + "|" +
              shard);
  const auto add = [&h](std::int64_t v) { h.add_word(static_cast<std::uint64_t>(v)); };
  for (const auto& counters : output.counters)
    for (std::int64_t c : counters) add(c);
  for (std::int64_t v : flatten(output.done)) add(v);
  for (std::int64_t v : flatten(planned)) add(v);
  std::ostringstream text;
  text << std::hex << h.value();
  return text.str();
}

std::vector<BlockRange> read_ranges(const h5::Reader& file, const std::string& path, std::uint64_t total,
                                    const std::string& name) {
  h5::Dims dims;
  const std::vector<std::int64_t> flat = file.int64s(path, &dims);
  if (dims.size() != 2 || dims[1] != 2) throw InputError(name + ": " + path + " is not a list of block ranges");
  std::vector<BlockRange> ranges;
  for (std::size_t i = 0; i < flat.size(); i += 2) {
    if (flat[i] < 0 || flat[i] > flat[i + 1] || std::uint64_t(flat[i + 1]) > total)
      throw InputError(name + ": " + path + " has a block range outside 0.." + std::to_string(total));
    ranges.push_back({std::uint64_t(flat[i]), std::uint64_t(flat[i + 1])});
  }
  if (!join_ranges(ranges)) throw InputError(name + ": " + path + " has overlapping block ranges");
  return ranges;
}

bool covers(const std::vector<BlockRange>& outer, const std::vector<BlockRange>& inner) {
  for (const BlockRange& r : inner) {
    bool inside = false;
    for (const BlockRange& o : outer) inside = inside || (o.begin <= r.begin && r.end <= o.end);
    if (!inside) return false;
  }
  return true;
}

}  // namespace

bool same_run(const RunConfig& a, const RunConfig& b) {
  return a.document == b.document && a.seed == b.seed && a.games == b.games;
}

void require_same_die(const RunConfig& run, const std::string& path, const RunConfig& other,
                      const std::string& other_name) {
  if (run.biased_die == other.biased_die) return;
  const auto die = [](const RunConfig& c) {
    return c.biased_die ? "the loaded test die (--test-biased-die)" : "a fair die";
  };
  throw InputError(path + ": was played with " + die(run) + ", " + other_name + " with " + die(other));
}

BlockRange shard_range(std::uint64_t total_blocks, std::uint64_t k, std::uint64_t n) {
  const auto at = [&](std::uint64_t i) {
    return static_cast<std::uint64_t>(static_cast<unsigned __int128>(total_blocks) * i / n);
  };
  return {at(k - 1), at(k)};
}

void write_run_state(h5::Writer& file, const RunConfig& config, const EngineOutput& output,
                     const std::vector<BlockRange>& planned, const std::string& shard) {
  std::vector<std::int64_t> counters, offsets{0};
  std::vector<std::string> keys;
  for (std::size_t t = 0; t < output.counters.size(); ++t) {
    counters.insert(counters.end(), output.counters[t].begin(), output.counters[t].end());
    offsets.push_back(static_cast<std::int64_t>(counters.size()));
    keys.push_back(config.plan.tables[t].key);
  }
  std::vector<std::int64_t> games(output.games_done.begin(), output.games_done.end());
  file.write("/engine/keys", keys);
  file.describe("/engine/keys", "", "the key of each table, in engine order");
  file.write("/engine/offsets", offsets);
  file.describe("/engine/offsets", "1", "table t's counters are counters[offsets[t]:offsets[t+1]]");
  file.write("/engine/counters", counters);
  file.describe("/engine/counters", "games", "raw counters per table (sim/table.h layout)");
  file.write("/engine/games_done", games);
  file.describe("/engine/games_done", "games", "games played per table");
  file.write("/engine/done", flatten(output.done), {output.done.size(), 2});
  file.describe("/engine/done", "blocks", "global block ranges [begin, end) played");
  file.write("/engine/planned", flatten(planned), {planned.size(), 2});
  file.describe("/engine/planned", "blocks", "global block ranges [begin, end) this file set out to play");
  file.attribute("/engine", "total_blocks", static_cast<std::int64_t>(output.total_blocks));
  file.attribute("/engine", "shard", shard);
  file.attribute("/engine", "checksum", checksum(config, output, planned, shard));
  file.attribute("/engine", "description",
                 std::string("raw counters per table (TableCounts layout) and global block ranges [begin, end); "
                             "what merge and resume read"));
}

RunState read_run_state(const std::string& path) {
  // HDF5 would call a missing file "unreadable": say why it cannot be read.
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    throw InputError(path + ": cannot read the results file (" + std::strerror(errno) + ")");
  try {
    const h5::Reader file(path);
    if (!file.exists("/engine") || file.string_attribute("/", "format") != "dicesim-results")
      throw InputError(path + ": not a dicesim results file");
    const std::vector<std::int64_t> version = file.int_array_attribute("/", "format_version");
    if (version.empty() || version[0] < kOldestEngineMajor || version[0] > kFormatMajor)
      throw InputError(path + ": format_version " + std::to_string(version.empty() ? -1 : version[0]) +
                       " cannot be read by this dicesim (majors " + std::to_string(kOldestEngineMajor) + " to " +
                       std::to_string(kFormatMajor) + ")");
    if (file.int_attribute("/", "block_games") != static_cast<std::int64_t>(kBlockGames))
      throw InputError(path + ": written with another block size");

    RunState state;
    // Files older than the attribute were all thrown with a fair die.
    const bool biased_die = file.has_attribute("/", "biased_die") && file.int_attribute("/", "biased_die") != 0;
    state.config = load_run_config(parse_json_text(file.string_attribute("/", "config"), path + " (stored config)"),
                                   path + " (stored config)", biased_die);
    state.config.file = file.string_attribute("/", "config_file");
    state.config.name = file.string_attribute("/", "name");
    state.config.seed = std::stoull(file.string_attribute("/", "seed_text"));
    state.config.games = static_cast<std::uint64_t>(file.int_attribute("/", "games"));
    if (state.config.games < 1 || state.config.games > kMaxGames) throw InputError(path + ": games out of range");

    const std::vector<TableRun> contests = make_table_runs(state.config);
    EngineOutput& out = state.output;
    out.total_blocks = first_blocks(contests).back();
    if (file.int_attribute("/engine", "total_blocks") != static_cast<std::int64_t>(out.total_blocks))
      throw InputError(path + ": block count does not match its config");
    const std::vector<std::string> keys = file.strings("/engine/keys");
    if (keys.size() != contests.size()) throw InputError(path + ": its tables do not match its config");
    const std::vector<std::int64_t> offsets = file.int64s("/engine/offsets");
    const std::vector<std::int64_t> counters = file.int64s("/engine/counters");
    if (offsets.size() != contests.size() + 1 || offsets.front() != 0 ||
        std::uint64_t(offsets.back()) != counters.size())
      throw InputError(path + ": /engine/offsets do not match /engine/counters");
    for (std::size_t t = 0; t < contests.size(); ++t) {
      if (keys[t] != state.config.plan.tables[t].key) throw InputError(path + ": its tables do not match its config");
      if (offsets[t + 1] - offsets[t] != static_cast<std::int64_t>(contests[t].counters))
        throw InputError(path + ": table " + keys[t] + " has the wrong number of counters");
      out.counters.emplace_back(counters.begin() + offsets[t], counters.begin() + offsets[t + 1]);
    }
    if (std::any_of(counters.begin(), counters.end(), [](std::int64_t c) { return c < 0; }))
      throw InputError(path + ": negative counts");

    out.done = read_ranges(file, "/engine/done", out.total_blocks, path);
    state.planned = read_ranges(file, "/engine/planned", out.total_blocks, path);
    if (!covers(state.planned, out.done)) throw InputError(path + ": blocks done outside the blocks planned");
    out.games_done = games_in(contests, out.done);
    const std::vector<std::int64_t> games = file.int64s("/engine/games_done");
    if (!std::equal(games.begin(), games.end(), out.games_done.begin(), out.games_done.end(),
                    [](std::int64_t a, std::uint64_t b) { return a >= 0 && std::uint64_t(a) == b; }))
      throw InputError(path + ": games played do not match the blocks done");
    out.wall_seconds = file.double_attribute("/", "wall_seconds");
    state.shard = file.string_attribute("/engine", "shard");
    state.program_version = file.string_attribute("/", "program_version");
    state.git_revision = file.string_attribute("/", "git_revision");
    // Every game lands in exactly one bin of each seat's score histogram.
    const std::vector<int> bins = state.config.game->measure_bins();
    for (std::size_t t = 0; t < contests.size(); ++t) {
      const int seats = static_cast<int>(state.config.plan.tables[t].table.seats.size());
      const TableCountsView counts(out.counters[t].data(), seats, bins);
      for (int seat = 0; seat < seats; ++seat) {
        const std::vector<std::int64_t> scores = counts.scores_of(seat);
        std::uint64_t total = 0;
        for (std::int64_t c : scores) total += std::uint64_t(c);
        if (total != out.games_done[t]) throw InputError(path + ": counts of " + keys[t] + " do not add up");
      }
    }
    if (file.string_attribute("/engine", "checksum") != checksum(state.config, out, state.planned, state.shard))
      throw InputError(path + ": checksum mismatch: the file was altered or damaged");
    return state;
  } catch (const h5::Error& e) {
    throw InputError(path + ": unreadable or truncated results file (" + e.what() + ")");
  } catch (const std::invalid_argument&) {
    throw InputError(path + ": unreadable results file (bad seed)");
  } catch (const std::out_of_range&) {
    throw InputError(path + ": unreadable results file (bad seed)");
  }
}

}  // namespace dicesim
