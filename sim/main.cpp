// dicesim's command line: run, check, solve, list, bench.
#include <fcntl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <csignal>
#include <filesystem>
#include <iomanip>
#include <iostream>

#include "bench.h"
#include "cluster.h"
#include "dice.h"
#include "engine.h"
#include "game.h"
#include "git_revision.h"  // generated at build time
#include "progress.h"
#include "results.h"
#include "run_config.h"
#include "run_state.h"

#ifndef DICESIM_VERSION
#define DICESIM_VERSION "unknown"
#endif

namespace dicesim {
namespace {

constexpr int kExitFailedCheck = 1;
constexpr int kExitBadInput = 2;
constexpr int kExitInterrupted = 130;

std::atomic<bool> g_stop{false};

extern "C" void on_interrupt(int signal) {
  g_stop.store(true);
  std::signal(signal, SIG_DFL);  // a second one ends the process at once
}

struct RunOptions {
  std::string config;
  std::string output;
  std::string games;
  std::string seed;
  std::string shard;
  std::string resume;
  double checkpoint_every = 0;
  int threads = 0;
  bool quiet = false;
  bool biased_die = false;
};

void add_run_options(CLI::App* cmd, RunOptions& options) {
  cmd->add_option("config", options.config, "JSON config (see configs/README.md)")->required();
  cmd->add_option("-o,--output", options.output, "results file (default results/<name>.h5)");
  cmd->add_option("--games", options.games, "games per table, overriding the config (accepts 1e9)");
  cmd->add_option("--seed", options.seed, "seed, overriding the config");
  cmd->add_option("--threads", options.threads, "worker threads per process (default: the CPUs it may use)")
      ->check(CLI::Range(0, 4096));
  cmd->add_option("--shard", options.shard, "play only shard K of N (K/N, 1-based); merge the files afterwards");
  cmd->add_option("--checkpoint-every", options.checkpoint_every,
                  "rewrite the results file (marked incomplete) every SECONDS")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--resume", options.resume, "continue the run saved in this results file");
  cmd->add_flag("--quiet", options.quiet, "no progress line");
  cmd->add_flag("--test-biased-die", options.biased_die, "test only: load the die (check must then fail)")->group("");
}

// Fails early, before any game is played, if the results cannot be written.
void check_writable(const std::string& path) {
  if (std::filesystem::is_directory(path)) throw InputError(path + ": is a directory, not a results file");
  std::string probe = path + ".probe.XXXXXX";  // a fresh name, whatever files a killed run left
  const int fd = ::mkstemp(probe.data());
  if (fd < 0) throw InputError(path + ": cannot write the results file here (" + std::strerror(errno) + ")");
  ::close(fd);
  ::unlink(probe.c_str());
}

std::uint64_t parse_option_count(const std::string& name, const std::string& text, std::uint64_t lo, std::uint64_t hi,
                                 const std::string& range) {
  const std::optional<std::uint64_t> value = parse_count(text);
  if (!value || *value < lo || *value > hi)
    throw InputError(name + ": expected a whole number from " + range + ", got \"" + text + "\"");
  return *value;
}

RunConfig load_with_overrides(const RunOptions& options) {
  RunConfig config = load_run_config(options.config);
  if (!options.games.empty()) config.games = parse_option_count("--games", options.games, 1, kMaxGames, "1 to 1e15");
  if (!options.seed.empty()) config.seed = parse_option_count("--seed", options.seed, 0, UINT64_MAX, "0 to 2^64-1");
  return config;
}

// "K/N" -> the blocks of shard K; "" -> every block.
BlockRange planned_range(const std::string& shard, std::uint64_t total_blocks) {
  if (shard.empty()) return {0, total_blocks};
  const std::size_t slash = shard.find('/');
  const std::optional<std::uint64_t> k = parse_count(shard.substr(0, slash));
  const std::optional<std::uint64_t> n =
      slash == std::string::npos ? std::nullopt : parse_count(shard.substr(slash + 1));
  if (!k || !n || *n < 1 || *k < 1 || *k > *n || *n > 1'000'000)
    throw InputError("--shard: expected K/N with 1 <= K <= N <= 1000000, got \"" + shard + "\"");
  return shard_range(total_blocks, *k, *n);
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
    throw InputError(path + ": written by dicesim " + state.program_version + ", this is " + DICESIM_VERSION);
  if (state.git_revision != DICESIM_GIT_REVISION)
    std::cerr << "warning: " << path << " was written by revision " << state.git_revision << ", this is "
              << DICESIM_GIT_REVISION << "\n";
}

// The saved run that --resume continues, checked against this one.
RunState resumable(const std::string& path, const RunConfig& config, std::string& shard, BlockRange& planned) {
  RunState state = read_run_state(path);
  if (!same_run(state.config, config))
    throw InputError(path + ": was written by another config, seed or game count than this run");
  require_this_version(state, path);
  if (!shard.empty() && shard != state.shard)
    throw InputError(path + ": holds shard \"" + state.shard + "\", not \"" + shard + "\"");
  shard = state.shard;
  planned = planned_range(shard, state.output.total_blocks);
  const bool prefix =
      state.output.done.empty() || (state.output.done.size() == 1 && state.output.done.front().begin == planned.begin);
  if (state.planned != planned_list(planned) || !prefix)
    throw InputError(path +
                     ": holds several separate block ranges (a merge, or an interrupted MPI run); only a "
                     "single-process run or shard can be resumed");
  return state;
}

std::string output_path(const RunOptions& options, const RunConfig& config, const std::string& shard) {
  if (!options.output.empty()) return options.output;
  if (!options.resume.empty()) return options.resume;
  std::filesystem::create_directories("results");
  std::string suffix;
  if (const std::size_t slash = shard.find('/'); slash != std::string::npos)
    suffix = ".shard-" + shard.substr(0, slash) + "-of-" + shard.substr(slash + 1);
  return "results/" + config.name + suffix + ".h5";
}

int report(const RunConfig& config, const EngineOutput& output, const RunInfo& info, const std::string& path,
           bool check) {
  std::optional<ExactTables> exact;
  std::vector<Check> checks;
  if (check) {
    exact = exact_tables(config);
    checks = compare(config, output, *exact);
  }
  write_results(path, config, output, info, exact ? &*exact : nullptr, check ? &checks : nullptr);
  print_summary(std::cout, config, output);
  if (check) print_checks(std::cout, checks);
  std::cout << "\nwrote " << path << " (" << std::setprecision(2) << output.wall_seconds << " s, " << info.threads
            << " threads" << (info.ranks > 1 ? " x " + std::to_string(info.ranks) + " ranks" : "")
            << (info.shard.empty() ? "" : ", shard " + info.shard) << ")\n";
  if (output.done != info.planned) {
    std::cerr << "interrupted: the results hold the games played so far and are marked incomplete\n";
    return kExitInterrupted;
  }
  const bool failed = std::any_of(checks.begin(), checks.end(), [](const Check& c) { return !c.passed(); });
  return failed ? kExitFailedCheck : 0;
}

int run(RunOptions options, bool check, const Cluster& cluster) {
  bias_dice_for_testing(options.biased_die);
  const RunConfig config = load_with_overrides(options);
  const std::vector<Contest> contests = make_contests(config);
  BlockRange planned = planned_range(options.shard, first_blocks(contests).back());
  std::optional<RunState> resumed;
  if (!options.resume.empty()) resumed = resumable(options.resume, config, options.shard, planned);
  if (cluster.size() > 1 && (resumed || options.checkpoint_every > 0))
    throw InputError("--resume and --checkpoint-every need a single process; under MPI use --shard runs instead");
  const std::string path = output_path(options, config, options.shard);
  if (cluster.leader()) check_writable(path);

  RunInfo info{check ? "check" : "run", options.threads > 0 ? options.threads : available_cpus(), cluster.size(),
               planned_list(planned), options.shard};
  EngineOptions engine;
  engine.seed = config.seed;
  engine.threads = info.threads;
  engine.progress = !options.quiet && cluster.leader() && ::isatty(STDERR_FILENO);
  set_progress_quiet(options.quiet || !cluster.leader());  // the exact solves' progress (check)
  engine.stop = &g_stop;
  engine.range = cluster.size() > 1 ? cluster.part(planned) : planned;
  if (resumed) engine.resume = &resumed->output;
  if (options.checkpoint_every > 0) {
    engine.checkpoint_seconds = options.checkpoint_every;
    engine.checkpoint = [&](const EngineOutput& so_far) {
      write_results(path, config, so_far, info, nullptr, nullptr);
    };
  }
  // SIGTERM too: it is how Slurm preempts or ends a job at its time limit.
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
  EngineOutput output = run_contests(contests, engine);
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  cluster.gather(output);
  output.games_done = games_in(contests, output.done);
  return cluster.agree(cluster.leader() ? report(config, output, info, path, check) : 0);
}

struct MergeOptions {
  std::vector<std::string> inputs;
  std::string output;
};

int merge(const MergeOptions& options) {
  std::vector<RunState> states;
  for (const std::string& path : options.inputs) states.push_back(read_run_state(path));
  const RunState& first = states.front();
  EngineOutput merged = first.output;
  std::vector<BlockRange> planned = first.planned;
  for (std::size_t i = 0; i < states.size(); ++i) {
    const RunState& s = states[i];
    const std::string& name = options.inputs[i];
    if (!same_run(s.config, first.config))
      throw InputError(name + ": not from the same run as " + options.inputs[0] +
                       " (the config, seed or game count differ)");
    if (s.output.done != s.planned) throw InputError(name + ": is an interrupted run; resume it before merging");
    require_this_version(s, name);
    for (std::size_t j = 0; j < i; ++j) {
      std::vector<BlockRange> both = s.planned;
      both.insert(both.end(), states[j].planned.begin(), states[j].planned.end());
      if (!join_ranges(both))
        throw InputError(name + ": overlaps " + options.inputs[j] + " (the same blocks would count twice)");
    }
    if (i == 0) continue;
    for (std::size_t t = 0; t < merged.counters.size(); ++t)
      for (std::size_t c = 0; c < merged.counters[t].size(); ++c) merged.counters[t][c] += s.output.counters[t][c];
    merged.done.insert(merged.done.end(), s.output.done.begin(), s.output.done.end());
    planned.insert(planned.end(), s.planned.begin(), s.planned.end());
    merged.wall_seconds += s.output.wall_seconds;
  }
  join_ranges(merged.done);
  join_ranges(planned);
  const std::vector<Contest> contests = make_contests(first.config);
  merged.games_done = games_in(contests, merged.done);
  check_writable(options.output);
  write_results(options.output, first.config, merged, {"merge", 0, 1, planned, ""}, nullptr, nullptr);
  print_summary(std::cout, first.config, merged);
  std::uint64_t blocks = 0;
  for (const BlockRange& r : merged.done) blocks += r.end - r.begin;
  std::cout << "\nmerged " << states.size() << " files into " << options.output << ": " << blocks << " of "
            << merged.total_blocks << " blocks" << (merged.complete() ? ", complete" : ", not complete yet") << "\n";
  return 0;
}

void list_games() {
  for (const GameEntry& g : games()) {
    std::cout << g.name << ": " << g.description << "\n";
    g.describe(std::cout);
    std::cout << "\n";
  }
  std::cout << "contests (all games): distributions (default true), headtohead, sequential,\n"
               "  nway [[names...]], sequential_tables [[names...]]; see configs/README.md\n";
}

int main_checked(int argc, char** argv, const Cluster& cluster) {
  CLI::App app{"dicesim: Monte Carlo dice games checked against exact solvers"};
  app.set_version_flag("--version", std::string("dicesim ") + DICESIM_VERSION);
  app.require_subcommand(1);

  RunOptions run_options;
  CLI::App* run_cmd = app.add_subcommand("run", "play a config's contests and write results/<name>.h5");
  add_run_options(run_cmd, run_options);
  CLI::App* check_cmd = app.add_subcommand("check", "run, and compare every number with the exact solver");
  add_run_options(check_cmd, run_options);
  CLI::App* solve_cmd = app.add_subcommand("solve", "exact numbers of a game, no simulation");
  solve_cmd->require_subcommand(1);
  for (const GameEntry& g : games()) g.add_solve_command(*solve_cmd);
  CLI::App* list_cmd = app.add_subcommand("list", "games, rules, strategy families and their parameters");
  MergeOptions merge_options;
  CLI::App* merge_cmd = app.add_subcommand("merge", "add up shard files of one run into one results file");
  merge_cmd->add_option("inputs", merge_options.inputs, "results files of the shards")->required();
  merge_cmd->add_option("-o,--output", merge_options.output, "the merged results file")->required();
  BenchOptions bench_options;
  CLI::App* bench_cmd = app.add_subcommand("bench", "games per second of reference configs, and a signature");
  add_bench_options(bench_cmd, bench_options);

  // --version on every command, as --help is.
  const std::function<void(CLI::App*)> add_version = [&](CLI::App* command) {
    for (CLI::App* sub : command->get_subcommands({})) {
      sub->set_version_flag("--version", std::string("dicesim ") + DICESIM_VERSION);
      add_version(sub);
    }
  };
  add_version(&app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : kExitBadInput;
  }
  if (run_cmd->parsed()) return run(run_options, false, cluster);
  if (check_cmd->parsed()) return run(run_options, true, cluster);
  if (merge_cmd->parsed()) return merge(merge_options);
  if (list_cmd->parsed()) list_games();
  if (bench_cmd->parsed()) return run_bench(bench_options);
  return 0;
}

}  // namespace
}  // namespace dicesim

int main(int argc, char** argv) {
  // Past a file size limit, a write should fail with EFBIG (reported, the
  // temporary file removed) rather than kill the process mid-write.
  std::signal(SIGXFSZ, SIG_IGN);
  const dicesim::Cluster cluster(argc, argv);
  try {
    return dicesim::main_checked(argc, argv, cluster);
  } catch (const dicesim::InputError& e) {
    std::cerr << e.what() << "\n";
    return cluster.abort(dicesim::kExitBadInput);
  } catch (const std::exception& e) {
    std::cerr << "dicesim: error: " << e.what() << "\n";
    return cluster.abort(3);
  }
}
