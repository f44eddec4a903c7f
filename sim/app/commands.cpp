#include "app/commands.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <optional>
#include <thread>

#include "app/exit_codes.h"
#include "app/validate.h"
#include "config/terminal_text.h"
#include "engine/engine.h"
#include "engine/files.h"
#include "engine/gpu.h"
#include "engine/interrupt.h"
#include "engine/memory_budget.h"
#include "engine/progress.h"
#include "games/game.h"
#include "games/registry.h"
#include "git_revision.h"  // generated at build time
#include "plan/run_config.h"
#include "results/h5.h"
#include "results/output_file.h"
#include "results/results_file.h"
#include "results/run_state.h"
#include "results/summary.h"
#include "results/text_columns.h"
#include "strategies/sweep.h"

#ifndef DICESIM_VERSION
#define DICESIM_VERSION "unknown"
#endif

namespace dicesim {
namespace {

extern "C" void on_stop_signal(int signal) {
  stop_requested().store(true);
  std::signal(signal, SIG_DFL);  // a second one ends the process at once
}

std::uint64_t parse_option_count(const std::string& name, const std::string& text, std::uint64_t lo, std::uint64_t hi,
                                 const std::string& range) {
  const std::optional<std::uint64_t> value = parse_count(text);
  if (!value || *value < lo || *value > hi)
    throw InputError(name + ": expected a whole number from " + range + ", got " + quoted_text(text));
  return *value;
}

// The config's document with --precision in it, so that the results file
// records the target the run played to.
json with_precision_override(json document, const std::string& text) {
  char* end = nullptr;
  const double rate = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(rate > 0 && rate < 0.5))
    throw InputError("--precision: expected a 95% half-width of the win rates, a number above 0 and below 0.5, got " +
                     quoted_text(text));
  if (!document.is_object()) return document;  // the config's own error follows
  json& precision = document["precision"];
  if (precision.is_null()) precision = json::object();
  if (precision.is_object()) precision["rate"] = rate;  // anything else: the config's error, at /precision
  return document;
}

RunConfig load_with_overrides(const RunOptions& options) {
  json document = parse_json_file(options.config);
  if (!options.precision.empty()) document = with_precision_override(std::move(document), options.precision);
  RunConfig config = load_run_config(std::move(document), options.config, options.biased_die);
  if (!options.games.empty()) {
    config.games = parse_option_count("--games", options.games, 1, kMaxGames, "1 to 1e15");
    if (const std::optional<std::string> why = too_many_games(config.plan.tables.size(), config.games))
      throw InputError("--games: " + *why);
  }
  if (!options.total_games.empty()) {
    // For the user who thinks in games in all: every table plays the same share.
    const std::uint64_t total = parse_option_count("--total-games", options.total_games, 1, UINT64_MAX, "1 to 2^64-1");
    const std::uint64_t tables = config.plan.tables.size();
    if (total < tables)
      throw InputError("--total-games: " + std::to_string(total) + " games cannot give each of the " +
                       std::to_string(tables) + " tables one");
    config.games = total / tables;
    if (config.games > kMaxGames)
      throw InputError("--total-games: " + std::to_string(config.games) + " games a table is more than 1e15");
    if (const std::optional<std::string> why = too_many_games(tables, config.games))
      throw InputError("--total-games: " + *why);
  }
  if (!options.seed.empty()) config.seed = parse_option_count("--seed", options.seed, 0, UINT64_MAX, "0 to 2^64-1");
  return config;
}

constexpr const char* kShardForm = "K/N with 1 <= K <= N <= 1000000";

// "K/N" as {K, N}, or nothing when it is not of kShardForm.
std::optional<std::pair<std::uint64_t, std::uint64_t>> shard_numbers(const std::string& shard) {
  const std::size_t slash = shard.find('/');
  const std::optional<std::uint64_t> k = parse_count(shard.substr(0, slash));
  const std::optional<std::uint64_t> n =
      slash == std::string::npos ? std::nullopt : parse_count(shard.substr(slash + 1));
  if (!k || !n || *n < 1 || *k < 1 || *k > *n || *n > 1'000'000) return std::nullopt;
  return std::pair(*k, *n);
}

// --shard "K/N" -> the blocks of shard K; "" -> every block.
BlockRange planned_range(const std::string& shard, std::uint64_t total_blocks) {
  if (shard.empty()) return {0, total_blocks};
  const auto numbers = shard_numbers(shard);
  if (!numbers) throw InputError(std::string("--shard: expected ") + kShardForm + ", got " + quoted_text(shard));
  return shard_range(total_blocks, numbers->first, numbers->second);
}

// A planned range as the joined list every file stores: empty for an empty shard.
std::vector<BlockRange> planned_list(BlockRange planned) {
  std::vector<BlockRange> ranges{planned};
  join_ranges(ranges);
  return ranges;
}

// Files written by another dicesim may count differently: refuse them, and
// warn when only the git revision differs (a rebuild, a local change).
void require_this_version(const RunState& state, const std::string& path) {
  if (state.program_version != DICESIM_VERSION)
    throw InputError(path + ": written by dicesim " + excerpt(state.program_version) + ", this is " + DICESIM_VERSION);
  if (state.git_revision != DICESIM_GIT_REVISION)
    std::cerr << "warning: " << terminal_text(path) << " was written by revision " << excerpt(state.git_revision)
              << ", this is " << DICESIM_GIT_REVISION << "\n";
}

std::string describe_range(BlockRange r) { return "[" + std::to_string(r.begin) + ", " + std::to_string(r.end) + ")"; }

// A saved run that this one may continue: the same run (config, seed, game
// count and precision), die and version, and the shard asked for (taken from the file
// when none is); sets the shard and its planned blocks.
RunState saved_run_of(const std::string& path, const RunConfig& config, std::string& shard, BlockRange& planned) {
  // Its plan is the run's own again: held only while it is read.
  const TemporaryCharges read_only_now;
  RunState state = read_run_state(path, ReadFor::merge_or_resume, &config, "this run");
  require_same_die(state.config, path, config, "this run");
  require_this_version(state, path);
  if (!shard.empty() && shard != state.shard)
    throw InputError(path + ": holds shard " + quoted_text(state.shard) + ", not " + quoted_text(shard));
  // The file's own shard, named as the file's: no --shard may have been given.
  if (!state.shard.empty() && !shard_numbers(state.shard))
    throw InputError(path + ": holds shard " + quoted_text(state.shard) + ", which is not " + kShardForm);
  shard = state.shard;
  planned = planned_range(shard, state.output.total_blocks);
  return state;
}

// The saved run that --resume continues, checked against this one. The
// engine plays blocks in order, so what a file holds must be a prefix of what
// is left to play: a shard file continues its shard; any other file (a run,
// or a merge of neighbouring shards starting with the first) continues the
// whole run.
RunState resumable(const std::string& path, const RunConfig& config, std::string& shard, BlockRange& planned) {
  RunState state = saved_run_of(path, config, shard, planned);
  const std::vector<BlockRange>& done = state.output.done;
  if (done.size() > 1)
    throw InputError(path +
                     ": holds several separate block ranges (a merge of shards that are not neighbours, or an "
                     "interrupted MPI run); merge it with the missing shards instead");
  if (!done.empty() && done.front().begin != planned.begin)
    throw InputError(path + ": holds blocks " + describe_range(done.front()) + ", which do not start at block " +
                     std::to_string(planned.begin) +
                     "; a run resumes from its first blocks: merge it with the missing shards instead");
  if (!shard.empty() && state.planned != planned_list(planned))
    throw InputError(path + ": its planned blocks are not those of shard " + shard);
  return state;
}

// The saved precision run that --resume continues: each table's blocks are a
// prefix of its own, which the stages go on from.
RunState resumable_precision(const std::string& path, const RunConfig& config, const std::vector<TableRun>& contests,
                             std::string& shard, BlockRange& planned) {
  RunState state = saved_run_of(path, config, shard, planned);
  blocks_played(contests, state.output, path);
  return state;
}

// What run and check read: the config, and the file --resume continues
// unless it is the results file itself (resumed in place: read whole, then
// replaced through a temporary).
std::vector<FileUse> files_read(const RunOptions& options, const std::string& results) {
  std::vector<FileUse> reads{{options.config, "the config"}};
  if (!options.resume.empty() && !same_file(options.resume, results))
    reads.push_back({options.resume, "the file --resume reads"});
  return reads;
}

// What they write: the results file (locked) and the summary JSON.
std::vector<FileUse> files_written(const RunOptions& options, const std::string& results) {
  std::vector<FileUse> writes{{results, "the results file", true}};
  if (!options.json_summary.empty()) writes.push_back({options.json_summary, "the summary JSON (--json)"});
  return writes;
}

std::string output_path(const RunOptions& options, const RunConfig& config, const std::string& shard) {
  if (!options.output.empty()) return options.output;
  if (!options.resume.empty()) return options.resume;
  if (const std::optional<std::string> why = file_name_problem(config.name))
    throw InputError(options.config + ": its name \"" + config.name + "\" cannot name the results file (" + *why +
                     "); give the config a \"name\", or the file with -o");
  std::string suffix;
  if (const std::size_t slash = shard.find('/'); slash != std::string::npos)
    suffix = ".shard-" + shard.substr(0, slash) + "-of-" + shard.substr(slash + 1);
  return "results/" + config.name + suffix + ".h5";
}

// oneTBB runs at most its global limit of threads, whatever a task arena
// asks for: the file and the summary record the threads actually used.
int worker_threads(const RunOptions& options) {
  const int wanted = options.threads > 0 ? options.threads : available_cpus();
  const int used = usable_threads(wanted);
  if (used < wanted && !options.progress.quiet)
    std::cerr << "note: --threads " << wanted << ": oneTBB runs at most " << used << " here, using " << used << "\n";
  return used;
}

// Test only (--test-pause-at): waits at a phase until a stop is requested (a
// minute at most), so that a test can signal the process exactly there.
void pause_for_test(const std::string& pause_at, const std::string& phase) {
  if (pause_at != phase) return;
  std::cerr << "paused at " << phase << std::endl;
  for (int i = 0; i < 6000 && !stop_requested().load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

// What a summary says of its run besides the tables (summary.h, RunFacts):
// of a file that show read, or of the run that has just written one.
struct FactsOf {
  const std::string& path;
  std::string results_format;  // "major.minor"
  const std::string& program_version;
  const std::string& git_revision;
  const std::string& command;
  const RunConfig& config;
  const EngineOutput& output;
  const std::vector<BlockRange>& planned;
  const std::string& shard;
  std::int64_t threads;
  std::optional<bool> exact_skipped;  // of a check: whether a stop request skipped the exact comparison
};

std::uint64_t blocks_in(const std::vector<BlockRange>& ranges) {
  std::uint64_t blocks = 0;
  for (const BlockRange& r : ranges) blocks += r.end - r.begin;
  return blocks;
}

RunFacts run_facts(const FactsOf& of) {
  std::uint64_t games_played = 0;
  for (std::uint64_t g : of.output.games_done) games_played += g;
  return {{"file", of.path},
          {"results_format", of.results_format},
          {"program_version", of.program_version},
          {"git_revision", of.git_revision},
          {"command", of.command},
          {"game", std::string(of.config.entry->name)},
          {"name", of.config.name},
          {"seed", of.config.seed},
          {"games_per_table", of.config.games},
          {"tables", of.config.plan.tables.size()},
          {"games_played", games_played},
          {"blocks_done", blocks_in(of.output.done)},
          {"blocks_planned", blocks_in(of.planned)},
          {"blocks_in_run", of.output.total_blocks},
          {"complete", of.output.done == of.planned && run_complete(of.config, of.output)},
          {"shard", of.shard.empty() ? json(nullptr) : json(of.shard)},
          {"threads", of.threads},
          {"wall_seconds", of.output.wall_seconds},
          {"biased_die", of.config.biased_die},
          {"check_z_limit", kZLimit},
          {"exact_skipped", of.exact_skipped ? json(*of.exact_skipped) : json(nullptr)}};
}

// The summary document, as text: JSON holds UTF-8 only.
std::string summary_text(const RunFacts& facts, const std::vector<SummarySection>& tables,
                         const std::vector<Check>* checks, const std::string& what) {
  try {
    return json_terminal_text(summary_document(facts, tables, checks).dump(2)) + "\n";
  } catch (const json::type_error&) {
    throw InputError(what + ": the file's name, or a name in it, is not valid UTF-8");
  }
}

int report(const RunConfig& config, const EngineOutput& output, RunInfo info, const std::string& path,
           const RunOptions& options, bool check, std::ostream& out) {
  std::optional<ExactTables> exact;
  std::vector<Check> checks;
  if (check) {
    try {
      pause_for_test(options.test_pause_at, "exact");
      exact = exact_tables(config, info.threads);
      checks = compare(config, output, *exact);
    } catch (const Interrupted&) {  // a stop request before or during the exact solve: skip it
      exact.reset();
      checks.clear();
      info.exact_skipped = true;
    }
  }
  write_results(path, config, output, info, exact ? &*exact : nullptr, exact ? &checks : nullptr);
  if (!options.json_summary.empty()) {
    const std::string version = std::to_string(kFormatMajor) + "." + std::to_string(kFormatMinor);
    const RunFacts facts =
        run_facts({path, version, DICESIM_VERSION, DICESIM_GIT_REVISION, info.command, config, output, info.planned,
                   info.shard, info.threads, check ? std::optional(info.exact_skipped) : std::nullopt});
    const std::string text =
        summary_text(facts, summary_tables(config, output), exact ? &checks : nullptr, options.json_summary);
    try {
      write_file_atomically(options.json_summary, text);
    } catch (const FileError& e) {
      throw FileError(options.json_summary + ": cannot write the summary JSON: " + e.what());
    }
  }
  // --quiet: only errors (a check's numbers beyond chance) and the lines
  // that say what was found and where it went.
  const bool quiet = options.progress.quiet;
  if (!quiet) print_summary(out, config, output);
  if (exact)
    print_checks(out, checks, not_compared(config, *exact),
                 quiet ? ChecksShown::disagreements : ChecksShown::every_number);
  // Ranks whose CPUs differ run different numbers of threads.
  const std::string threads = info.threads_max > info.threads_min && info.threads_min > 0
                                  ? std::to_string(info.threads_min) + "-" + std::to_string(info.threads_max)
                                  : std::to_string(info.threads);
  out << (quiet ? "" : "\n") << "wrote " << terminal_text(path) << " (" << std::setprecision(2) << output.wall_seconds
      << " s, " << (options.device == "gpu" ? terminal_text(gpu_description()) : threads + " threads")
      << (info.ranks > 1 ? " x " + std::to_string(info.ranks) + " ranks" : "")
      << (info.shard.empty() ? "" : ", shard " + info.shard) << ")\n";
  if (output.done != info.planned) {
    std::cerr << "interrupted: the results hold the games played so far and are marked incomplete\n";
    return kExitInterrupted;
  }
  if (info.exact_skipped) {
    std::cerr << "interrupted: the results hold the whole simulation, without the comparison with the exact "
                 "solver (exact_skipped = 1)\n";
    return kExitInterrupted;
  }
  const bool failed = std::any_of(checks.begin(), checks.end(), [](const Check& c) { return !c.passed(); });
  return failed ? kExitFailedCheck : kExitOk;
}

// Several Slurm tasks that are no MPI world would each play the whole run
// and race for one results file: refused before anything is read or written.
void require_world_of_slurm_tasks(const Cluster& cluster) {
  if (!cluster.slurm_tasks_without_world()) return;
#ifdef DICESIM_WITH_MPI
  const std::string why = "no MPI launcher joined them: use srun --mpi=pmix, or mpirun inside the allocation";
#else
  const std::string why = "this dicesim is built without MPI: run one task, or use --shard runs";
#endif
  throw InputError("started as one of " + std::to_string(cluster.slurm_step_tasks()) +
                   " Slurm tasks (SLURM_STEP_NUM_TASKS) but not launched under MPI; " + why);
}

int run_or_check(RunOptions options, bool check, const Cluster& cluster, std::ostream& out) {
  // Progress lines of the leader only: of the games, and of every solve on
  // the way (strategies solved while loading, the exact odds of check).
  ProgressSettings progress = options.progress;
  progress.quiet = progress.quiet || !cluster.leader();
  const ProgressScope shown(progress);
  require_world_of_slurm_tasks(cluster);
  // A run holds its counters once per thread, summed, as output and in the
  // file's image (and check the exact odds): the plan costs that many.
  const int threads = worker_threads(options);
  memory_budget().counter_copies = threads + 3 + (check ? 1 : 0);
  const bool gpu = options.device == "gpu";
  if (const std::string why = gpu ? gpu_unavailable() : ""; !why.empty()) throw InputError("--device gpu: " + why);
  const RunConfig config = load_with_overrides(options);
  const std::vector<TableRun> contests = make_table_runs(config);
  const DevicePlay on_gpu = gpu && !options.dry_run && !options.print_output ? device_play(config) : DevicePlay{};
  BlockRange planned = planned_range(options.shard, first_blocks(contests).back());
  std::optional<RunState> resumed;
  if (!options.resume.empty())
    resumed = config.precision ? resumable_precision(options.resume, config, contests, options.shard, planned)
                               : resumable(options.resume, config, options.shard, planned);
  if (cluster.size() > 1 && (resumed || options.checkpoint_every > 0))
    throw InputError("--resume and --checkpoint-every need a single process; under MPI use --shard runs instead");
  const std::string path = output_path(options, config, options.shard);
  if (options.print_output) {
    if (cluster.leader()) out << terminal_text(path) << "\n";
    return kExitOk;
  }
  // A dry run checks the options as a run does (the shard, the file to
  // resume, an output it was given), without creating results/.
  std::optional<OutputFiles> files;
  const bool default_output = options.output.empty() && options.resume.empty();
  if (cluster.leader() && !(options.dry_run && default_output)) {
    if (default_output) std::filesystem::create_directories("results");
    files.emplace(files_read(options, path), files_written(options, path));
  } else if (cluster.leader() && !options.json_summary.empty()) {  // a dry run still checks --json
    files.emplace(files_read(options, path), std::vector<FileUse>{{options.json_summary, "the summary JSON (--json)"}});
  }
  if (options.dry_run) {
    print_plan(config, out);
    return kExitOk;
  }

  RunInfo info{check ? "check" : "run", threads, cluster.size(), planned_list(planned), options.shard};
  info.threads_min = cluster.min_over_ranks(info.threads);
  info.threads_max = cluster.max_over_ranks(info.threads);
  pause_for_test(options.test_pause_at, "setup");
  EngineOptions engine;
  engine.seed = config.seed;
  engine.threads = info.threads;
  engine.gpu = gpu;
  engine.device_play = on_gpu;
  engine.progress = progress;
  engine.stop = &stop_requested();
  engine.range = cluster.size() > 1 ? cluster.part(planned) : planned;
  if (resumed) engine.resume = &resumed->output;
  if (options.checkpoint_every > 0) {
    engine.checkpoint_seconds = options.checkpoint_every;
    engine.checkpoint = [&](const EngineOutput& so_far) {
      write_results(path, config, so_far, info, nullptr, nullptr);
    };
  }
  EngineOutput output;
  if (config.precision) {
    PrecisionRun run = run_to_precision(contests, engine, cluster, planned, resumed ? &resumed->output : nullptr,
                                        precise_enough(config));
    output = std::move(run.output);
    // Finished, the run set out to play what the target asked for; else it
    // is incomplete, against the blocks of the caps.
    if (run.finished) info.planned = output.done;
  } else {
    output = run_tables(contests, engine);
    cluster.gather(output);
    output.games_done = games_in(contests, output.done);
  }
  return cluster.agree(cluster.leader() ? report(config, output, info, path, options, check, out) : kExitOk);
}

}  // namespace

StopOnSignals::StopOnSignals() {
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);  // how Slurm preempts or ends a job at its time limit
}

StopOnSignals::~StopOnSignals() {
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
}

int run_command(RunOptions options, bool check, const Cluster& cluster, std::ostream& out) {
  try {
    return run_or_check(std::move(options), check, cluster, out);
  } catch (const Interrupted&) {  // a long setup step (solving a policy) saw the stop request
    std::cerr << "interrupted before any game was played: nothing written\n";
    return kExitInterrupted;
  }
}

namespace {

// Whether `input` (read from `name`) may be added to the first input: the same
// die, finished, and written by this version (the same run read_run_state
// checked before planning it).
void require_mergeable(const RunState& input, const std::string& name, const RunState& first,
                       const std::string& first_name) {
  require_same_die(input.config, name, first.config, first_name);
  if (input.output.done != input.planned) throw InputError(name + ": is an interrupted run; resume it before merging");
  require_this_version(input, name);
}

// Adds an input's counters to the sum, refusing a count that would pass
// 2^63 - 1: each file may be within bounds and their sum not.
void add_counters(EngineOutput& sum, const EngineOutput& input, const std::string& name) {
  for (std::size_t t = 0; t < sum.counters.size(); ++t)
    for (std::size_t c = 0; c < sum.counters[t].size(); ++c)
      if (__builtin_add_overflow(sum.counters[t][c], input.counters[t][c], &sum.counters[t][c]))
        throw InputError(name + ": its counts added to those before it pass 2^63 - 1 (table " + std::to_string(t) +
                         "); these files cannot be merged");
}

int merge_inputs(const MergeOptions& options, std::ostream& out) {
  std::vector<FileUse> reads;
  for (const std::string& input : options.inputs) reads.push_back({input, "an input"});
  const OutputFiles files(reads, {{options.output, "the merged file", true}});
  // The inputs are read one at a time and added to the first, whose config
  // every other must match: memory does not grow with the number of inputs
  // (each holds its config's compiled strategies). Only their planned blocks
  // are kept, to refuse overlaps.
  const std::string& first_name = options.inputs.front();
  RunState merged = read_run_state(first_name, ReadFor::merge_or_resume);
  require_mergeable(merged, first_name, merged, first_name);
  std::vector<std::vector<BlockRange>> planned_of{merged.planned};
  int threads_min = merged.threads_min, threads_max = merged.threads_max;
  for (std::size_t i = 1; i < options.inputs.size(); ++i) {
    throw_if_interrupted();
    pause_for_test(options.test_pause_at, "read");
    const std::string& name = options.inputs[i];
    const TemporaryCharges read_only_now;  // each input's plan is the first's again, and freed before the next
    const RunState input = read_run_state(name, ReadFor::merge_or_resume, &merged.config, first_name);
    require_mergeable(input, name, merged, first_name);
    for (std::size_t j = 0; j < i; ++j) {
      std::vector<BlockRange> both = input.planned;
      both.insert(both.end(), planned_of[j].begin(), planned_of[j].end());
      if (!join_ranges(both))
        throw InputError(name + ": overlaps " + options.inputs[j] + " (the same blocks would count twice)");
    }
    planned_of.push_back(input.planned);
    EngineOutput& sum = merged.output;
    add_counters(sum, input.output, name);
    sum.done.insert(sum.done.end(), input.output.done.begin(), input.output.done.end());
    merged.planned.insert(merged.planned.end(), input.planned.begin(), input.planned.end());
    sum.wall_seconds += input.output.wall_seconds;
    if (input.threads_min > 0 && (threads_min == 0 || input.threads_min < threads_min)) threads_min = input.threads_min;
    threads_max = std::max(threads_max, input.threads_max);
  }
  throw_if_interrupted();
  const RunConfig& config = merged.config;
  EngineOutput& sum = merged.output;
  join_ranges(sum.done);
  join_ranges(merged.planned);
  const std::vector<TableRun> contests = make_table_runs(config);
  sum.games_done = games_in(contests, sum.done);
  RunInfo info{"merge", 0, 1, merged.planned, ""};
  info.threads_min = threads_min;
  info.threads_max = threads_max;
  write_results(options.output, config, sum, info, nullptr, nullptr);
  if (!options.quiet) print_summary(out, config, sum);
  std::uint64_t blocks = 0;
  for (const BlockRange& r : sum.done) blocks += r.end - r.begin;
  out << (options.quiet ? "" : "\n") << "merged " << options.inputs.size() << " files into "
      << terminal_text(options.output) << ": " << blocks << " of " << sum.total_blocks << " blocks"
      << (run_complete(config, sum) ? ", complete" : ", not complete yet") << "\n";
  return kExitOk;
}

}  // namespace

int merge_command(const MergeOptions& options, std::ostream& out) {
  try {
    return merge_inputs(options, out);
  } catch (const Interrupted&) {  // between inputs, or while one was read (solving its policies)
    std::cerr << "interrupted: nothing written\n";
    return kExitInterrupted;
  }
}

namespace {

void write_text_file(const std::filesystem::path& path, const std::string& text) {
  try {
    write_file_atomically(path.string(), text);
  } catch (const FileError& e) {
    throw FileError(path.string() + ": cannot write the CSV file: " + e.what());
  }
}

}  // namespace

int show_command(const ShowOptions& options, std::ostream& out) {
  const RunState state = read_run_state(options.file, ReadFor::show);
  const std::string version = std::to_string(state.format_version[0]) + "." + std::to_string(state.format_version[1]);
  const RunFacts facts =
      run_facts({options.file, version, state.program_version, state.git_revision, state.command, state.config,
                 state.output, state.planned, state.shard, state.threads, state.exact_skipped});
  const std::vector<SummarySection> tables = summary_tables(state.config, state.output);
  const std::vector<Check>* checks = state.checks ? &*state.checks : nullptr;
  if (options.json) {
    out << summary_text(facts, tables, checks, options.file + ": --json");
    return kExitOk;
  }
  if (!options.csv_dir.empty()) {
    const std::filesystem::path dir(options.csv_dir);
    std::error_code error;
    std::filesystem::create_directories(dir, error);
    if (!std::filesystem::is_directory(dir)) {
      if (std::filesystem::exists(dir)) throw InputError(options.csv_dir + ": not a directory (--csv)");
      throw FileError(options.csv_dir + ": cannot create the directory (--csv): " + error.message());
    }
    std::vector<std::pair<std::filesystem::path, std::string>> csv{{dir / "run.csv", facts_csv(facts)}};
    for (const SummarySection& table : tables) csv.emplace_back(dir / (table.name + ".csv"), summary_csv(table));
    if (checks) csv.emplace_back(dir / "checks.csv", checks_csv(*checks));
    std::vector<FileUse> writes;
    for (const auto& [file, text] : csv) writes.push_back({file.string(), "a CSV file (--csv)"});
    const OutputFiles files({{options.file, "the results file shown"}}, writes);
    for (const auto& [file, text] : csv) write_text_file(file, text);
    out << "wrote " << tables.size() + 1 + (checks ? 1 : 0) << " CSV files to " << terminal_text(options.csv_dir)
        << "\n";
    return kExitOk;
  }
  for (const auto& [name, value] : facts) {
    std::string shown = name;
    std::replace(shown.begin(), shown.end(), '_', ' ');
    out << std::left << std::setw(17) << shown << std::right
        << (value.is_string() ? terminal_text(value.get<std::string>())
            : value.is_null() ? "none"
                              : value.dump())
        << "\n";
  }
  if (checks) {
    double worst = 0;
    for (const Check& c : *checks) worst = std::max(worst, std::abs(c.z));
    out << std::left << std::setw(17) << "exact checks" << std::right << checks->size() << " numbers, largest |z| "
        << fixed_text(worst, 2) << "\n";
  } else if (state.exact_skipped.value_or(false)) {
    out << std::left << std::setw(17) << "exact checks" << std::right
        << "none: a stop request skipped the comparison with the exact solver\n";
  }
  out << "\n";
  print_summary(out, state.config, state.output);
  return kExitOk;
}

}  // namespace dicesim
