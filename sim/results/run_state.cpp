#include "results/run_state.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <sstream>

#include "results/results_layout.h"

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
// in them is caught. Fed piece by piece, so that a reader can check it
// before it plans the stored config.
class EngineChecksum {
 public:
  EngineChecksum(const json& document, std::uint64_t seed, std::uint64_t games, const std::string& shard) {
    hash_.add_bytes(document.dump() + "|" + std::to_string(seed) + "|" + std::to_string(games) + "|" + shard);
  }
  void add(std::int64_t v) { hash_.add_word(static_cast<std::uint64_t>(v)); }
  void add(const std::vector<std::int64_t>& values) {
    for (std::int64_t v : values) add(v);
  }
  std::string text() const {
    std::ostringstream out;
    out << std::hex << hash_.value();
    return out.str();
  }

 private:
  Fnv1a hash_;
};

std::string checksum(const RunConfig& config, const EngineOutput& output, const std::vector<BlockRange>& planned,
                     const std::string& shard) {
  EngineChecksum sum(config.document, config.seed, config.games, shard);
  for (const auto& counters : output.counters) sum.add(counters);
  sum.add(flatten(output.done));
  sum.add(flatten(planned));
  return sum.text();
}

// Block ranges a file may list: a merge of up to 10^6 shards, or a precision
// run's prefix per table, is far below.
constexpr hsize_t kMostRanges = hsize_t(1) << 24;

std::vector<std::int64_t> read_flat_ranges(const h5::Reader& file, const std::string& path, const std::string& name) {
  h5::Dims dims;
  std::vector<std::int64_t> flat = file.int64s(path, {2, 2 * kMostRanges}, &dims);
  if (dims[1] != 2) throw InputError(name + ": " + path + " is not a list of block ranges");
  return flat;
}

std::vector<BlockRange> to_ranges(const std::vector<std::int64_t>& flat, const std::string& path, std::uint64_t total,
                                  const std::string& name) {
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

// Files before threads_min and threads_max recorded one process's threads
// (rank 0's); files before that, and foreign ones, none at all.
void read_thread_range(const h5::Reader& file, RunState& state) {
  const auto positive_int = [&](const char* name) {
    if (!file.has_attribute("/", name)) return 0;
    const std::int64_t threads = file.int_attribute("/", name);
    return threads > 0 && threads <= (1 << 20) ? static_cast<int>(threads) : 0;
  };
  state.threads_min = positive_int("threads_min");
  state.threads_max = positive_int("threads_max");
  if (state.threads_min == 0 || state.threads_max < state.threads_min)
    state.threads_min = state.threads_max = positive_int("threads");
}
}  // namespace

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

void write_config_text(h5::Writer& file, const std::string& text) {
  if (text.size() <= kMostConfigAttribute) return file.attribute("/", "config", text);
  file.write("/config", std::vector<std::string>{text});
  file.describe("/config", "", "the whole config as JSON, as loaded (too long for the root attribute config)");
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

namespace {

// The most checks a check's file holds: a mean and a distribution per seat
// and measure, a win rate per seat, and a tie rate per table.
hsize_t most_checks(const RunConfig& config) {
  const hsize_t measures = config.game->measures().size();
  hsize_t n = 0;
  for (const PlannedTable& t : config.plan.tables) n += t.table.seats.size() * (2 * measures + 1) + 1;
  return n;
}

// /checks, every column as long as the names.
std::vector<Check> read_checks(const h5::Reader& file, hsize_t most, const std::string& path) {
  const std::vector<std::string> names = file.strings("/checks/name", {1, most});
  const std::vector<std::string> kinds = file.strings("/checks/kind", {1, most});
  const auto column = [&](const char* name) {
    std::vector<double> values = file.doubles(std::string("/checks/") + name, {1, most});
    if (values.size() != names.size()) throw InputError(path + ": /checks/" + name + " is not as long as /checks/name");
    return values;
  };
  const std::vector<double> observed = column("observed"), expected = column("expected"), z = column("z"),
                            p_value = column("p_value");
  if (kinds.size() != names.size()) throw InputError(path + ": /checks/kind is not as long as /checks/name");
  std::vector<Check> checks;
  for (std::size_t i = 0; i < names.size(); ++i)
    checks.push_back({names[i], kinds[i], observed[i], expected[i], z[i], p_value[i]});
  return checks;
}

// Counters the checksum may read before the config is planned: the size of
// the file bounds them (h5::Reader), and they are read a slab at a time.
constexpr hsize_t kMostCountersUnplanned = hsize_t(1) << 40;

// A missing file, a directory or a FIFO (which HDF5 would wait on forever)
// said plainly, before HDF5 is asked.
void require_regular_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw InputError(path + ": cannot read the results file (" + std::strerror(errno) + ")");
  struct stat st;
  const bool ok = ::fstat(fd, &st) == 0;
  const int error = errno;
  ::close(fd);
  if (!ok) throw InputError(path + ": cannot read the results file (" + std::strerror(error) + ")");
  if (S_ISDIR(st.st_mode)) throw InputError(path + ": is a directory, not a results file");
  if (!S_ISREG(st.st_mode)) throw InputError(path + ": is not a regular file (a device, FIFO or socket)");
}

std::uint64_t parse_seed(const std::string& text, const std::string& path) {
  std::uint64_t seed = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seed);
  if (text.empty() || error != std::errc() || end != text.data() + text.size())
    throw InputError(path + ": unreadable results file (bad seed)");
  return seed;
}

// Files before kOldestReadableMajor are refused on their version alone,
// before any string is read from them: their variable-length strings make
// libhdf5 follow ids into the file, and a flipped byte there crashes it.
void require_readable_version(const std::vector<std::int64_t>& version, const std::string& path, ReadFor reader) {
  const std::string text = std::to_string(version[0]) + "." + std::to_string(version[1]);
  if (version[0] < kOldestReadableMajor)
    throw InputError(path + ": written in results format " + text +
                     ", which this dicesim no longer reads; rerun the config with this dicesim");
  if (version[0] > kFormatMajor)
    throw InputError(path + ": format_version " + text + " cannot be read by this dicesim (majors " +
                     std::to_string(kOldestReadableMajor) + " to " + std::to_string(kFormatMajor) + ")");
  if (reader == ReadFor::merge_or_resume && version[0] != kFormatMajor)
    throw InputError(path + ": format_version " + text + ": merge and resume read files of format " +
                     std::to_string(kFormatMajor) + " only");
}

RunState read_state(const std::string& path, ReadFor reader, const RunConfig* same_as, const std::string& what) {
  h5::Reader file(path);
  if (!file.has_attribute("/", "format") || !file.has_attribute("/", "format_version") || !file.exists("/engine"))
    throw InputError(path + ": not a dicesim results file");
  RunState state;
  state.format_version = file.int_array_attribute("/", "format_version", 2);
  require_readable_version(state.format_version, path, reader);
  if (file.string_attribute("/", "format") != "dicesim-results")
    throw InputError(path + ": not a dicesim results file");
  const std::string altered = path + ": checksum mismatch: the file was altered or damaged";
  // Every dataset and attribute, before anything is used.
  if (!file.has_attribute("/", h5::kContentChecksum) ||
      file.string_attribute("/", h5::kContentChecksum) != file.content_sha256())
    throw InputError(altered);
  if (file.int_attribute("/", "block_games") != static_cast<std::int64_t>(kBlockGames))
    throw InputError(path + ": written with another block size");

  // The engine state's checksum, before the stored config is planned (which
  // may take long for a forged config).
  const std::string stored = path + " (stored config)";
  std::vector<std::string> config_text{file.has_attribute("/", "config") ? file.string_attribute("/", "config")
                                                                         : std::string()};
  if (!file.has_attribute("/", "config")) config_text = file.strings("/config", {1, 1});
  if (config_text.size() != 1) throw InputError(path + ": holds no config");
  json document = parse_json_text(config_text[0], stored);
  const std::uint64_t seed = parse_seed(file.string_attribute("/", "seed_text"), path);
  const std::int64_t games = file.int_attribute("/", "games");
  if (games < 1 || static_cast<std::uint64_t>(games) > kMaxGames) throw InputError(path + ": games out of range");
  state.shard = file.string_attribute("/engine", "shard");
  if (same_as &&
      !(document == same_as->document && seed == same_as->seed && static_cast<std::uint64_t>(games) == same_as->games))
    throw InputError(path + ": not from the same run as " + what + " (the config, seed or game count differ)");
  EngineChecksum sum(document, seed, static_cast<std::uint64_t>(games), state.shard);
  file.int64_slabs("/engine/counters", kMostCountersUnplanned,
                   [&](const std::vector<std::int64_t>& slab) { sum.add(slab); });
  const std::vector<std::int64_t> done = read_flat_ranges(file, "/engine/done", path);
  const std::vector<std::int64_t> planned = read_flat_ranges(file, "/engine/planned", path);
  sum.add(done);
  sum.add(planned);
  if (file.string_attribute("/engine", "checksum") != sum.text()) throw InputError(altered);

  // Files older than the attribute were all thrown with a fair die.
  const bool biased_die = file.has_attribute("/", "biased_die") && file.int_attribute("/", "biased_die") != 0;
  state.config = load_run_config(std::move(document), stored, biased_die);
  state.config.file = file.string_attribute("/", "config_file");
  state.config.name = file.string_attribute("/", "name");
  state.config.seed = seed;
  state.config.games = static_cast<std::uint64_t>(games);

  // Every dataset read from here on is bounded by the plan.
  const std::vector<TableRun> contests = make_table_runs(state.config);
  const hsize_t tables = contests.size();
  EngineOutput& out = state.output;
  out.total_blocks = first_blocks(contests).back();
  if (file.int_attribute("/engine", "total_blocks") != static_cast<std::int64_t>(out.total_blocks))
    throw InputError(path + ": block count does not match its config");
  std::vector<std::int64_t> expected_offsets{0};
  for (const TableRun& c : contests)
    expected_offsets.push_back(expected_offsets.back() + static_cast<std::int64_t>(c.counters));
  const std::vector<std::string> keys = file.strings("/engine/keys", {1, tables});
  if (keys.size() != tables) throw InputError(path + ": its tables do not match its config");
  for (std::size_t t = 0; t < contests.size(); ++t)
    if (keys[t] != state.config.plan.tables[t].key) throw InputError(path + ": its tables do not match its config");
  if (file.int64s("/engine/offsets", {1, tables + 1}) != expected_offsets)
    throw InputError(path + ": /engine/offsets do not match its tables");
  const hsize_t counter_count = static_cast<hsize_t>(expected_offsets.back());
  const std::vector<std::int64_t> counters = file.int64s("/engine/counters", {1, counter_count});
  if (counters.size() != counter_count) throw InputError(path + ": /engine/counters do not match its tables");
  if (std::any_of(counters.begin(), counters.end(), [](std::int64_t c) { return c < 0; }))
    throw InputError(path + ": negative counts");
  for (std::size_t t = 0; t < contests.size(); ++t)
    out.counters.emplace_back(counters.begin() + expected_offsets[t], counters.begin() + expected_offsets[t + 1]);

  out.done = to_ranges(done, "/engine/done", out.total_blocks, path);
  state.planned = to_ranges(planned, "/engine/planned", out.total_blocks, path);
  if (!covers(state.planned, out.done)) throw InputError(path + ": blocks done outside the blocks planned");
  out.games_done = games_in(contests, out.done);
  const std::vector<std::int64_t> games_done = file.int64s("/engine/games_done", {1, tables});
  if (!std::equal(games_done.begin(), games_done.end(), out.games_done.begin(), out.games_done.end(),
                  [](std::int64_t a, std::uint64_t b) { return a >= 0 && std::uint64_t(a) == b; }))
    throw InputError(path + ": games played do not match the blocks done");
  out.wall_seconds = file.double_attribute("/", "wall_seconds");
  state.program_version = file.string_attribute("/", "program_version");
  state.git_revision = file.string_attribute("/", "git_revision");
  state.command = file.string_attribute("/", "command");
  state.threads = file.int_attribute("/", "threads");
  if (file.exists("/checks/z")) state.checks = read_checks(file, most_checks(state.config), path);
  if (file.has_attribute("/", "exact_skipped")) state.exact_skipped = file.int_attribute("/", "exact_skipped") != 0;
  read_thread_range(file, state);
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
  return state;
}

}  // namespace

RunState read_run_state(const std::string& path, ReadFor reader, const RunConfig* same_as, const std::string& what) {
  require_regular_file(path);
  try {
    return read_state(path, reader, same_as, what);
  } catch (const h5::HeldForWriting& e) {
    throw InputError(path + ": " + e.what());
  } catch (const h5::Error& e) {
    throw InputError(path + ": unreadable or truncated results file (" + e.what() + ")");
  }
}

}  // namespace dicesim
