// dicesim's command line: run, check, solve, list, bench.
#include <fcntl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <csignal>
#include <filesystem>
#include <iomanip>
#include <iostream>

#include "bench.h"
#include "engine.h"
#include "game.h"
#include "results.h"
#include "run_config.h"

#ifndef DICESIM_VERSION
#define DICESIM_VERSION "unknown"
#endif

namespace dicesim {
namespace {

constexpr int kExitFailedCheck = 1;
constexpr int kExitBadInput = 2;
constexpr int kExitInterrupted = 130;

std::atomic<bool> g_stop{false};

extern "C" void on_interrupt(int) {
  g_stop.store(true);
  std::signal(SIGINT, SIG_DFL);  // a second Ctrl-C ends the process at once
}

struct RunOptions {
  std::string config;
  std::string output;
  std::string games;
  std::string seed;
  int threads = 0;
  bool quiet = false;
};

void add_run_options(CLI::App* cmd, RunOptions& options) {
  cmd->add_option("config", options.config, "JSON config (see configs/README.md)")->required();
  cmd->add_option("-o,--output", options.output, "results file (default results/<name>.h5)");
  cmd->add_option("--games", options.games, "games per table, overriding the config (accepts 1e9)");
  cmd->add_option("--seed", options.seed, "seed, overriding the config");
  cmd->add_option("--threads", options.threads, "worker threads (default: the CPUs this process may use)")
      ->check(CLI::Range(0, 4096));
  cmd->add_flag("--quiet", options.quiet, "no progress line");
}

// Fails early, before any game is played, if the results cannot be written.
void check_writable(const std::string& path) {
  if (std::filesystem::is_directory(path)) throw InputError(path + ": is a directory, not a results file");
  const std::string probe = path + ".tmp." + std::to_string(::getpid());
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0) throw InputError(path + ": cannot write the results file here (" + std::strerror(errno) + ")");
  ::close(fd);
  ::unlink(probe.c_str());
}

std::string output_path(const RunOptions& options, const RunConfig& config) {
  if (!options.output.empty()) return options.output;
  std::filesystem::create_directories("results");
  return "results/" + config.name + ".h5";
}

int run(const RunOptions& options, bool check) {
  RunConfig config = load_run_config(options.config);
  if (!options.games.empty()) {
    const std::optional<std::uint64_t> games = parse_count(options.games);
    if (!games || *games < 1 || *games > kMaxGames)
      throw InputError("--games: expected a whole number from 1 to 1e15, got \"" + options.games + "\"");
    config.games = *games;
  }
  if (!options.seed.empty()) {
    const std::optional<std::uint64_t> seed = parse_count(options.seed);
    if (!seed) throw InputError("--seed: expected a whole number from 0 to 2^64-1, got \"" + options.seed + "\"");
    config.seed = *seed;
  }
  const std::string path = output_path(options, config);
  check_writable(path);

  EngineOptions engine;
  engine.seed = config.seed;
  engine.threads = options.threads > 0 ? options.threads : available_cpus();
  engine.progress = !options.quiet && ::isatty(STDERR_FILENO);
  engine.stop = &g_stop;
  std::signal(SIGINT, on_interrupt);
  const EngineOutput output = run_contests(make_contests(config), engine);
  std::signal(SIGINT, SIG_DFL);

  std::optional<ExactTables> exact;
  std::vector<Check> checks;
  if (check) {
    exact = exact_tables(config);
    checks = compare(config, output, *exact);
  }
  write_results(path, config, output, {check ? "check" : "run", engine.threads}, exact ? &*exact : nullptr,
                check ? &checks : nullptr);

  print_summary(std::cout, config, output);
  if (check) print_checks(std::cout, checks);
  std::cout << "\nwrote " << path << " (" << std::setprecision(2) << output.wall_seconds << " s, " << engine.threads
            << " threads)\n";
  if (!output.complete) {
    std::cerr << "interrupted: the results hold the games played so far and are marked incomplete\n";
    return kExitInterrupted;
  }
  const bool failed = std::any_of(checks.begin(), checks.end(), [](const Check& c) { return !c.passed(); });
  return failed ? kExitFailedCheck : 0;
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

int main_checked(int argc, char** argv) {
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
  if (run_cmd->parsed()) return run(run_options, false);
  if (check_cmd->parsed()) return run(run_options, true);
  if (list_cmd->parsed()) list_games();
  if (bench_cmd->parsed()) return run_bench(bench_options);
  return 0;
}

}  // namespace
}  // namespace dicesim

int main(int argc, char** argv) {
  try {
    return dicesim::main_checked(argc, argv);
  } catch (const dicesim::InputError& e) {
    std::cerr << e.what() << "\n";
    return dicesim::kExitBadInput;
  } catch (const std::exception& e) {
    std::cerr << "dicesim: error: " << e.what() << "\n";
    return 3;
  }
}
