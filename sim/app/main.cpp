// dicesim's command line: parses the options (CLI11) and calls the commands
// (commands.h, bench.h, solve.h).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <regex>

#include "app/bench.h"
#include "app/commands.h"
#include "app/exit_codes.h"
#include "app/help_examples.h"
#include "app/list.h"
#include "app/validate.h"
#include "config/json_input.h"
#include "config/suggest.h"
#include "config/terminal_text.h"
#include "engine/cluster.h"
#include "engine/memory_budget.h"
#include "games/game.h"
#include "games/registry.h"
#include "git_revision.h"  // generated at build time
#include "plan/config_schema.h"
#include "results/results_layout.h"
#include "results/summary.h"

#ifndef DICESIM_VERSION
#define DICESIM_VERSION "unknown"
#endif

namespace dicesim {
namespace {

// Every error dicesim ends with is one line on stderr. Its quoted parts are
// escaped where they are quoted; this escapes the whole line again (which
// changes nothing already escaped), so that no code path, present or
// future, prints a raw control character from data.
void print_error(std::string_view message) { std::cerr << terminal_text(message) << "\n"; }

// The most seconds a time option takes (about 16 weeks): beyond it, an
// interval is a mistake, and a clock's arithmetic could overflow.
constexpr double kMaxSeconds = 1e7;

// A finite number of seconds up to kMaxSeconds, above 0 or (zero_allowed)
// from 0. CLI11's number validators let nan and inf through and print their
// bound as a 300-digit number.
CLI::Validator seconds_validator(bool zero_allowed) {
  const std::string expected = zero_allowed ? "expected a number of seconds from 0 to 10000000"
                                            : "expected a positive number of seconds up to 10000000";
  static_assert(kMaxSeconds == 1e7, "the messages above state it");
  return CLI::Validator(
      [=](const std::string& text) -> std::string {
        try {
          std::size_t used = 0;
          const double seconds = std::stod(text, &used);
          if (used == text.size() && std::isfinite(seconds) && (zero_allowed ? seconds >= 0 : seconds > 0) &&
              seconds <= kMaxSeconds)
            return "";
        } catch (const std::exception&) {
        }
        return expected + ", got " + quoted_text(text);
      },
      "SECONDS");
}

// The most worker threads any command takes: more than a machine's cores,
// few enough that starting them all cannot exhaust the process.
constexpr int kMaxThreads = 1024;

// Every command's --threads, with one checked range (an int, or a list of
// them for bench).
template <class Threads>
void add_threads_option(CLI::App* cmd, Threads& threads, const std::string& description) {
  cmd->add_option("--threads", threads, description)->check(CLI::Range(1, kMaxThreads));
}

// The memory a command may hold (engine/memory_budget.h): "8G", "512M"; by
// default the machine's.
void add_memory_option(CLI::App* cmd, std::string& limit) {
  cmd->add_option("--memory-limit", limit,
                  "refuse, before allocating, a plan estimated to need more memory than this (e.g. 8G, 512M; "
                  "default: the machine's memory)")
      ->type_name("SIZE");
}

// Starts the command's memory budget: the limit given, or the machine's.
void start_memory_budget(const std::string& limit) {
  std::uint64_t bytes = machine_memory_bytes();
  if (!limit.empty()) {
    const std::optional<std::uint64_t> parsed = parse_memory(limit);
    if (!parsed)
      throw InputError("--memory-limit: expected a size such as 8G, 512M or 1e9 (bytes), got " + quoted_text(limit));
    bytes = *parsed;
  }
  memory_budget().start(bytes);
}

void add_run_options(CLI::App* cmd, RunOptions& options) {
  cmd->add_option("config", options.config, "JSON config (see configs/README.md)")->required();
  cmd->add_option("-o,--output", options.output, "results file (default results/<name>.h5)");
  CLI::Option* games =
      cmd->add_option("--games", options.games, "games per table, overriding the config (accepts 1e9)");
  cmd->add_option("--total-games", options.total_games,
                  "games in all, split evenly over the tables (each plays N / tables, rounded down; the rest "
                  "is not played), instead of --games")
      ->type_name("N")
      ->excludes(games);
  cmd->add_option("--seed", options.seed, "seed, overriding the config");
  cmd->add_flag("--dry-run", options.dry_run,
                "print the strategies (sweeps expanded), the tables and the games, and play nothing");
  cmd->add_flag("--print-output", options.print_output,
                "print the results file these options would write (default results/<name>.h5, the config's "
                "\"name\") and play nothing");
  cmd->add_option("--precision", options.precision,
                  "play each table until the 95% half-width of its win rates is at most this (e.g. 0.002), "
                  "--games at most; overrides the config's precision.rate");
  add_threads_option(cmd, options.threads, "worker threads per process (default: the CPUs it may use)");
  cmd->add_option("--device", options.device,
                  "where the games are played: cpu (threads, the default) or gpu (one GPU per process; the same "
                  "results, bit for bit; Sixers only so far)")
      ->check(CLI::IsMember({"cpu", "gpu"}))
      ->type_name("DEVICE");
  add_memory_option(cmd, options.memory_limit);
  cmd->add_option("--shard", options.shard, "play only shard K of N (K/N, 1-based); merge the files afterwards");
  cmd->add_option("--checkpoint-every", options.checkpoint_every,
                  "rewrite the results file (marked incomplete) every SECONDS")
      ->check(seconds_validator(false));
  cmd->add_option("--resume", options.resume, "continue the run saved in this results file");
  cmd->add_option("--json", options.json_summary,
                  "also write the summary as JSON to FILE (the layout of show --json; dicesim schema --summary)")
      ->type_name("FILE");
  cmd->add_flag("--quiet", options.progress.quiet,
                "print only errors (for check, the numbers beyond chance and the verdict) and the final line "
                "naming the file: no progress, no summary");
  cmd->add_option("--progress-every", options.progress.log_every,
                  "when stderr is not a terminal, a progress line every SECONDS (default 60, 0: none)")
      ->check(seconds_validator(true));
  cmd->add_flag("--test-biased-die", options.biased_die, "test only: load the die (check must then fail)")->group("");
  cmd->add_option("--test-pause-at", options.test_pause_at, "test only: wait at setup or exact for a signal")
      ->check(CLI::IsMember({"setup", "exact"}))
      ->group("");
}

// What --version prints: which program exactly, and whether it can join an
// MPI world (a cluster's first question).
std::string version_text() {
#ifdef DICESIM_WITH_MPI
  const char* mpi = "with MPI";
#else
  const char* mpi = "without MPI";
#endif
  return std::string("dicesim ") + DICESIM_VERSION + " (git " + DICESIM_GIT_REVISION + ", " + mpi + ")";
}

// A repeated option of run, check or merge takes its last value, so that a
// job script's defaults come first and a user's options after them override
// them (scripts/slurm/).
void last_value_wins(CLI::App* cmd) {
  for (CLI::Option* option : cmd->get_options())
    if (!option->get_positional() && option->get_type_size() != 0)
      option->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
}

// Rules for every option of every command, present and future: an empty
// value is refused (it would silently mean "not given"), and so is a negative
// number for an unsigned option (the conversion would wrap it around).
void refuse_empty_and_negative_values(CLI::App* command) {
  for (CLI::Option* option : command->get_options()) {
    if (option->get_type_size() == 0) continue;  // a flag
    option->check(CLI::Validator(
        [](const std::string& value) -> std::string { return value.empty() ? "an empty value is not allowed" : ""; },
        ""));
    if (option->get_type_name().find("UINT") != std::string::npos)
      option->check(CLI::Validator(
          [](const std::string& value) -> std::string {
            return value.find_first_not_of(" \t") != std::string::npos && value[value.find_first_not_of(" \t")] == '-'
                       ? "expected a number from 0 up, got " + value
                       : "";
          },
          ""));
  }
  for (CLI::App* sub : command->get_subcommands({})) refuse_empty_and_negative_values(sub);
}

// The word each option's value is shown as in --help, by the option's name
// (the same meaning in every command), instead of CLI11's TEXT, UINT, FLOAT.
const std::map<std::string, std::string>& value_names() {
  static const std::map<std::string, std::string> names{{"config", "FILE"},
                                                        {"configs", "FILE"},
                                                        {"file", "FILE"},
                                                        {"inputs", "FILE"},
                                                        {"output", "FILE"},
                                                        {"resume", "FILE"},
                                                        {"policy-csv", "FILE"},
                                                        {"csv", "DIR"},
                                                        {"games", "N"},
                                                        {"z-games", "N"},
                                                        {"turns", "N"},
                                                        {"goal", "N"},
                                                        {"dice", "N"},
                                                        {"seats", "N"},
                                                        {"rolls", "N"},
                                                        {"max-dice", "N"},
                                                        {"target", "POINTS"},
                                                        {"zero-face", "FACE"},
                                                        {"seed", "SEED"},
                                                        {"shard", "K/N"},
                                                        {"threads", "T"},
                                                        {"precision", "RATE"},
                                                        {"checkpoint-every", "SECONDS"},
                                                        {"progress-every", "SECONDS"},
                                                        {"rules", "PRESET"},
                                                        {"strategies", "STRATEGY"}};
  return names;
}

// A validator's description as --help shows it after the value's name:
// CLI11's ranges ("INT in [1 - 1024]") without the type, and nothing where
// the description only repeats the name ("SECONDS").
std::string bounds_only(const std::string& description, const std::string& value_name) {
  if (description == value_name) return "";
  static const std::regex typed_range(R"(^[A-Z]+ in (\[.*\])$)");
  std::smatch range;
  return std::regex_match(description, range, typed_range) ? range[1].str() : description;
}

// Shows every option's value by its name in value_names(). Run after
// refuse_empty_and_negative_values, which tells unsigned options by CLI11's
// own type names.
void name_option_values(CLI::App* command) {
  for (CLI::Option* option : command->get_options()) {
    if (option->get_type_size() == 0) continue;  // a flag
    const std::vector<std::string>& longs = option->get_lnames();
    const auto found = value_names().find(longs.empty() ? option->get_name(true) : longs.front());
    if (found == value_names().end()) continue;
    option->type_name(found->second);
    for (int i = 0;; ++i) {  // CLI11 has no count of an option's validators
      CLI::Validator* validator = nullptr;
      try {
        validator = option->get_validator(i);
      } catch (const CLI::OptionNotFound&) {
        break;
      }
      validator->description(bounds_only(validator->get_description(), found->second));
    }
  }
  for (CLI::App* sub : command->get_subcommands({})) name_option_values(sub);
}

// For a command line CLI11 refused: a one-line error naming a mistyped
// command or option with the nearest known one, or "" to keep CLI11's.
std::string mistyped_word(CLI::App& app, int argc, char** argv) {
  CLI::App* command = &app;
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word.rfind("--", 0) == 0) {
      const std::string name = word.substr(0, word.find('='));
      if (command->get_option_no_throw(name)) continue;
      std::vector<std::string> longs;
      for (const CLI::Option* option : command->get_options())
        for (const std::string& l : option->get_lnames()) longs.push_back("--" + l);
      longs.push_back("--help");
      const std::string hint = did_you_mean(name, {longs.begin(), longs.end()});
      return command->get_name() + ": unknown option " + excerpt(name) + hint;
    }
    const std::vector<CLI::App*> subcommands = command->get_subcommands({});
    if (subcommands.empty() || word.rfind('-', 0) == 0) continue;  // a value or a positional
    const auto found = std::find_if(subcommands.begin(), subcommands.end(),
                                    [&](const CLI::App* sub) { return sub->get_name() == word; });
    if (found != subcommands.end()) {
      command = *found;
      continue;
    }
    std::vector<std::string_view> names;
    for (const CLI::App* sub : subcommands) names.push_back(sub->get_name());
    std::string known;
    for (std::string_view n : names) known += (known.empty() ? "" : ", ") + std::string(n);
    const std::string where = command == &app ? "" : command->get_name() + ": ";
    return where + "unknown command " + quoted_text(word) + " (known: " + known + ")" + did_you_mean(word, names);
  }
  return "";
}

std::string exit_codes_footer() {
  const std::pair<int, const char*> codes[] = {
      {kExitOk, "success"},
      {kExitFailedCheck, "check found a number beyond chance"},
      {kExitBadInput, "bad usage or input (nothing written)"},
      {kExitInternal, "a failure while writing (a full disk, ...): nothing left under the final name"},
      {kExitInterrupted, "interrupted (Ctrl-C, SIGTERM): what was played is written, marked incomplete"}};
  std::string text = "\nExit codes:\n";
  for (const auto& [code, meaning] : codes) {
    const std::string number = std::to_string(code);
    text += "  " + number + std::string(5 - number.size(), ' ') + meaning + "\n";
  }
  return text;
}

int usage_error(const CLI::App& command) {
  std::cerr << command.help();
  return kExitBadInput;
}

int main_checked(int argc, char** argv, const Cluster& cluster) {
  CLI::App app{"dicesim: Monte Carlo dice games checked against exact solvers"};
  app.set_version_flag("--version", version_text());
  app.footer(exit_codes_footer());

  RunOptions run_options;
  CLI::App* run_cmd = app.add_subcommand("run", "play a config's contests and write results/<name>.h5");
  run_cmd->footer(help_examples({"dicesim run configs/sixers.json",
                                 "dicesim run configs/tenk_seed000.json --games 1e4 --threads 2 -o tenk.h5",
                                 "dicesim run configs/pig_one_die.json --precision 0.01 --games 1e6 -o pig.h5"}));
  add_run_options(run_cmd, run_options);
  last_value_wins(run_cmd);
  CLI::App* check_cmd = app.add_subcommand("check", "run, and compare every number with the exact solver");
  check_cmd->footer(help_examples({"dicesim check configs/sixers.json --games 1e5",
                                   "dicesim check configs/battle_sequential.json --games 1e4 -o battle.h5"}));
  add_run_options(check_cmd, run_options);
  last_value_wins(check_cmd);
  CLI::App* solve_cmd = app.add_subcommand("solve", "exact numbers of a game, no simulation");
  solve_cmd->footer(help_examples({"dicesim solve sixers --headtohead", "dicesim solve pig --dice 2 --turns 4"}));
  for (const GameEntry& game : games()) game.add_solve_command(*solve_cmd);
  CLI::App* list_cmd = app.add_subcommand("list", "games, rules, strategy families and their parameters");
  list_cmd->footer(help_examples({"dicesim list", "dicesim list | grep -A3 '^pig'"}));
  CLI::App* schema_cmd = app.add_subcommand(
      "schema", "the JSON Schema of configs (configs/schema.json), or with --summary of show --json and run --json");
  schema_cmd->footer(help_examples({"dicesim schema", "dicesim schema | diff - configs/schema.json",
                                    "dicesim schema --summary", "dicesim schema --results-layout"}));
  bool summary_schema_wanted = false, results_layout_wanted = false;
  CLI::Option* summary_flag =
      schema_cmd->add_flag("--summary", summary_schema_wanted,
                           "the schema of the summary JSON (scripts/analysis/dicesim_analysis/summary_schema.json)");
  schema_cmd
      ->add_flag("--results-layout", results_layout_wanted,
                 "the results file's layout and bounds as its readers check them "
                 "(scripts/analysis/dicesim_analysis/results_layout.json)")
      ->excludes(summary_flag);
  MergeOptions merge_options;
  CLI::App* merge_cmd = app.add_subcommand("merge", "add up shard files of one run into one results file");
  merge_cmd->footer(help_examples({"dicesim run configs/pig_one_die.json --games 1e4 --shard 1/2 -o pig-1.h5",
                                   "dicesim run configs/pig_one_die.json --games 1e4 --shard 2/2 -o pig-2.h5",
                                   "dicesim merge pig-1.h5 pig-2.h5 -o pig.h5"}));
  merge_cmd->add_option("inputs", merge_options.inputs, "results files of the shards")->required();
  merge_cmd->add_option("-o,--output", merge_options.output, "the merged results file")->required();
  merge_cmd->add_flag("--quiet", merge_options.quiet, "print only errors and the final line naming the file");
  std::string memory_limit;
  add_memory_option(merge_cmd, memory_limit);
  merge_cmd->add_option("--test-pause-at", merge_options.test_pause_at, "test only: wait at read for a signal")
      ->check(CLI::IsMember({"read"}))
      ->group("");
  last_value_wins(merge_cmd);
  ShowOptions show_options;
  CLI::App* show_cmd = app.add_subcommand("show", "the facts and summary of a results file, without playing");
  show_cmd->footer(help_examples(
      {"dicesim show results/sixers.h5", "dicesim show pig.h5 --csv pig-tables", "dicesim show pig.h5 --json"}));
  show_cmd->add_option("file", show_options.file, "results file (complete or not, a shard or a merge)")->required();
  add_memory_option(show_cmd, memory_limit);
  CLI::Option* json_flag =
      show_cmd->add_flag("--json", show_options.json, "print the facts and the summary tables as JSON");
  show_cmd->add_option("--csv", show_options.csv_dir, "write the summary tables as CSV files into this directory")
      ->excludes(json_flag);
  std::vector<std::string> validate_configs;
  CLI::App* validate_cmd =
      app.add_subcommand("validate", "report every error of each config (run stops at the first), without playing");
  validate_cmd->footer(help_examples(
      {"dicesim validate configs/sixers.json configs/pig_one_die.json", "dicesim validate configs/tenk_seed000.json"}));
  validate_cmd->add_option("configs", validate_configs, "config files")->required();
  add_memory_option(validate_cmd, memory_limit);
  BenchOptions bench_options;
  CLI::App* bench_cmd = app.add_subcommand("bench", "games per second of reference configs, and a signature");
  bench_cmd->footer(
      help_examples({"dicesim bench --games 1e6 --skip-naive", "dicesim bench --games 1e6 --threads 1 --skip-naive",
                     "dicesim bench --games 1e6 --case tenk --skip-naive"}));
  add_bench_options(bench_cmd, bench_options);
  add_threads_option(bench_cmd, bench_options.threads, "thread counts to measure (default: 1 and all CPUs)");

  // --version on every command, as --help is.
  const std::function<void(CLI::App*)> add_version = [&](CLI::App* command) {
    for (CLI::App* sub : command->get_subcommands({})) {
      sub->set_version_flag("--version", version_text());
      add_version(sub);
    }
  };
  add_version(&app);
  refuse_empty_and_negative_values(&app);
  name_option_values(&app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    const std::string mistyped = mistyped_word(app, argc, argv);
    print_error(mistyped.empty() ? e.what() : mistyped);  // one line, as for any bad input
    return kExitBadInput;
  }
  // A bare `dicesim` or `dicesim solve` names no command to run: the list of
  // them, as an error (nothing was done).
  if (app.get_subcommands().empty()) return usage_error(app);
  if (solve_cmd->parsed() && solve_cmd->get_subcommands().empty()) return usage_error(*solve_cmd);
  start_memory_budget(run_cmd->parsed() || check_cmd->parsed() ? run_options.memory_limit : memory_limit);
  if (run_cmd->parsed() || check_cmd->parsed()) {
    const StopOnSignals stop_on_signals;  // for the whole command: setup, play, exact solve, writing
    return run_command(run_options, check_cmd->parsed(), cluster, std::cout);
  }
  if (merge_cmd->parsed()) {
    const StopOnSignals stop_on_signals;  // an interrupted merge leaves no temporary file and no lock
    return merge_command(merge_options, std::cout);
  }
  if (show_cmd->parsed()) return show_command(show_options, std::cout);
  if (validate_cmd->parsed()) return validate_command(validate_configs, std::cout, std::cerr);
  if (list_cmd->parsed()) list_games(std::cout);
  if (schema_cmd->parsed()) {
    const ordered_json schema = results_layout_wanted   ? results_layout()
                                : summary_schema_wanted ? summary_schema()
                                                        : config_schema();
    std::cout << schema.dump(2) << "\n";
  }
  if (bench_cmd->parsed()) return run_bench(bench_options);
  return kExitOk;
}

}  // namespace
}  // namespace dicesim

namespace dicesim {
namespace {

// What the command printed must all have reached standard output (a full
// disk, /dev/full, a closed pipe): else one line, and kExitInternal.
int checked_stdout(int code) {
  errno = 0;
  std::cout.flush();
  const bool failed = !std::cout.good() | (std::fflush(stdout) != 0) | (std::ferror(stdout) != 0);
  if (!failed || (code != kExitOk && code != kExitFailedCheck)) return code;
  std::cerr << "dicesim: error: writing standard output failed"
            << (errno != 0 ? std::string(": ") + std::strerror(errno) : std::string()) << "\n";
  return kExitInternal;
}

}  // namespace
}  // namespace dicesim

int main(int argc, char** argv) {
  // Past a file size limit, a write should fail with EFBIG (reported, the
  // temporary file removed) rather than kill the process mid-write.
  std::signal(SIGXFSZ, SIG_IGN);
  const dicesim::Cluster cluster(argc, argv);
  try {
    return dicesim::checked_stdout(dicesim::main_checked(argc, argv, cluster));
  } catch (const dicesim::InputError& e) {
    dicesim::print_error(e.what());
    return cluster.abort(dicesim::kExitBadInput);
  } catch (const dicesim::MemoryRefused& e) {  // a plan past --memory-limit: bad input, refused before allocating
    dicesim::print_error(e.what());
    return cluster.abort(dicesim::kExitBadInput);
  } catch (const std::exception& e) {
    dicesim::print_error(std::string("dicesim: error: ") + e.what());
    return cluster.abort(dicesim::kExitInternal);
  }
}
