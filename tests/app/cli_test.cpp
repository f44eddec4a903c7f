// The command line end to end, as a user runs it.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <map>
#include <numeric>
#include <sstream>
#include <thread>

#include "app/exit_codes.h"
#include "config/json_input.h"
#include "games/registry.h"
#include "games/sixers/sixers.h"
#include "games/sixers/sixers_exact.h"
#include "plan/contest_plan.h"
#include "results/h5.h"
#include "results/results_file.h"
#include "test_util.h"

namespace dicesim {
namespace {

using testing::dicesim;
using testing::TempDir;

const char* kConfig = R"J({
  "game": "sixers",
  "seed": 7,
  "games": 30000,
  "strategies": [
    {"name": "dv(2,2)", "family": "dice_value_threshold", "per_roll": [2, 2]},
    {"name": "ts(5,5)", "family": "turn_score_threshold", "per_roll": [5, 5]},
    {"name": "aware", "family": "target_aware"}
  ],
  "contests": {"headtohead": true, "sequential": true, "nway": [["dv(2,2)", "ts(5,5)", "aware"]],
               "sequential_tables": [["ts(5,5)", "dv(2,2)", "aware"]]}
})J";

// Every dataset of a results file, by path, as int64 or double values.
std::map<std::string, std::vector<double>> datasets(const std::string& file) {
  h5::Reader r(file);
  std::map<std::string, std::vector<double>> out;
  for (const char* path : {"/distributions/dv(2,2)/counts", "/distributions/aware/counts", "/headtohead/wins",
                           "/headtohead/ties", "/headtohead/losses", "/sequential/wins", "/nway/0/wins",
                           "/nway/0/counts", "/sequential_tables/0/wins", "/sequential_tables/0/tied"}) {
    const std::vector<std::int64_t> v = r.int64s(path, h5::kAnyShape);
    out[path] = std::vector<double>(v.begin(), v.end());
  }
  return out;
}

TEST(Cli, RunWritesADocumentedResultsFile) {
  TempDir dir;
  const std::string config = dir.write("small.json", kConfig);
  const auto result = dicesim("run " + config + " -o " + dir.file("out.h5"));
  ASSERT_EQ(result.exit_code, 0) << result.out;
  EXPECT_NE(result.out.find("head to head"), std::string::npos);

  h5::Reader r(dir.file("out.h5"));
  EXPECT_EQ(r.string_attribute("/", "format"), "dicesim-results");
  EXPECT_EQ(r.int_array_attribute("/", "format_version", 2), (std::vector<std::int64_t>{kFormatMajor, kFormatMinor}));
  EXPECT_EQ(r.int_attribute("/", "complete"), 1);
  EXPECT_EQ(r.int_attribute("/", "games"), 30000);
  EXPECT_EQ(r.int_attribute("/", "seed"), 7);
  EXPECT_EQ(json::parse(r.string_attribute("/", "config")), json::parse(kConfig));
  EXPECT_EQ(r.strings("/strategies/names", h5::kAnyShape), (std::vector<std::string>{"dv(2,2)", "ts(5,5)", "aware"}));

  const std::vector<std::int64_t> counts = r.int64s("/distributions/dv(2,2)/counts", h5::kAnyShape);
  EXPECT_EQ(counts.size(), 37u);
  EXPECT_EQ(std::accumulate(counts.begin(), counts.end(), std::int64_t(0)), 30000);
  EXPECT_EQ(r.int_attribute("/distributions/dv(2,2)", "min_score"), 0);

  // The pairs as a list, each blind pair once, in the order of the strategies.
  h5::Dims dims;
  const auto wins = r.int64s("/headtohead/wins", h5::kAnyShape, &dims),
             ties = r.int64s("/headtohead/ties", h5::kAnyShape), losses = r.int64s("/headtohead/losses", h5::kAnyShape),
             games = r.int64s("/headtohead/games", h5::kAnyShape);
  ASSERT_EQ(dims, (h5::Dims{3}));
  EXPECT_EQ(r.strings("/headtohead/strategy", h5::kAnyShape),
            (std::vector<std::string>{"dv(2,2)", "dv(2,2)", "ts(5,5)"}));
  EXPECT_EQ(r.strings("/headtohead/opponent", h5::kAnyShape), (std::vector<std::string>{"ts(5,5)", "aware", "aware"}));
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(games[k], 30000);
    EXPECT_EQ(wins[k] + ties[k] + losses[k], 30000);
  }
  r.int64s("/headtohead/score/counts", h5::kAnyShape, &dims);
  EXPECT_EQ(dims, (h5::Dims{3, 2, 37}));  // [pair, seat, score]
  EXPECT_EQ(r.strings("/nway/0/strategy", h5::kAnyShape), (std::vector<std::string>{"dv(2,2)", "ts(5,5)", "aware"}));
  EXPECT_FALSE(r.exists("/exact"));
}

TEST(Cli, ThreadCountDoesNotChangeAnyDataset) {
  TempDir dir;
  const std::string config = dir.write("small.json", kConfig);
  ASSERT_EQ(dicesim("run " + config + " -o " + dir.file("one.h5") + " --threads 1 --quiet").exit_code, 0);
  ASSERT_EQ(dicesim("run " + config + " -o " + dir.file("two.h5") + " --threads 2 --quiet").exit_code, 0);
  EXPECT_EQ(datasets(dir.file("one.h5")), datasets(dir.file("two.h5")));
  ASSERT_EQ(dicesim("run " + config + " -o " + dir.file("seed.h5") + " --seed 8 --quiet").exit_code, 0);
  EXPECT_NE(datasets(dir.file("one.h5")), datasets(dir.file("seed.h5")));
}

TEST(Cli, CheckStoresExactNumbersAndZScoresAndPasses) {
  TempDir dir;
  const std::string config = dir.write("small.json", kConfig);
  const auto result = dicesim("check " + config + " -o " + dir.file("check.h5") + " --games 2e4 --quiet");
  ASSERT_EQ(result.exit_code, 0) << result.out;
  EXPECT_NE(result.out.find("0 beyond |z| > 5"), std::string::npos) << result.out;
  h5::Reader r(dir.file("check.h5"));
  EXPECT_EQ(r.int_attribute("/", "games"), 20000);
  EXPECT_EQ(r.string_attribute("/", "command"), "check");
  EXPECT_EQ(r.int_attribute("/checks", "passed"), 1);
  EXPECT_EQ(r.doubles("/exact/distributions/dv(2,2)/probability", h5::kAnyShape).size(), 37u);
  EXPECT_EQ(r.doubles("/exact/headtohead/win", h5::kAnyShape).size(), 3u);  // a pair each
  const std::vector<double> z = r.doubles("/checks/z", h5::kAnyShape);
  EXPECT_EQ(z.size(), r.strings("/checks/name", h5::kAnyShape).size());
  EXPECT_GT(z.size(), 30u);
}

TEST(Cli, DefaultOutputIsResultsSlashName) {
  TempDir dir;
  dir.write("paper.json", kConfig);
  const auto result = dicesim("run paper.json --games 1000 --quiet", dir.path().string());
  ASSERT_EQ(result.exit_code, 0) << result.out;
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "results" / "paper.h5"));
  EXPECT_NE(result.out.find("wrote results/paper.h5"), std::string::npos) << result.out;
}

// Job scripts (scripts/slurm/) name their files by asking dicesim.
TEST(Cli, PrintOutputNamesTheFileFromTheConfigsNameAndPlaysNothing) {
  TempDir dir;
  json named = json::parse(kConfig);
  named["name"] = "paper";
  dir.write("file_stem.json", named.dump());
  const auto shard = dicesim("run file_stem.json --shard 2/4 --print-output", dir.path().string());
  ASSERT_EQ(shard.exit_code, 0) << shard.out;
  EXPECT_EQ(shard.out, "results/paper.shard-2-of-4.h5\n");
  EXPECT_EQ(dicesim("check file_stem.json --print-output", dir.path().string()).out, "results/paper.h5\n");
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "results"));
}

// A job script's defaults come first and the user's options after them:
// the last value of an option wins.
TEST(Cli, ARepeatedRunOptionTakesItsLastValue) {
  TempDir dir;
  const std::string config = dir.write("small.json", kConfig);
  const auto result = dicesim("run " + config + " --checkpoint-every 300 --games 1000 -o " + dir.file("first.h5") +
                              " --quiet --checkpoint-every 200 --games 2000 -o " + dir.file("last.h5"));
  ASSERT_EQ(result.exit_code, 0) << result.out;
  EXPECT_FALSE(std::filesystem::exists(dir.file("first.h5")));
  EXPECT_EQ(h5::Reader(dir.file("last.h5")).int_attribute("/", "games"), 2000);
  EXPECT_EQ(dicesim("run " + config + " " + config + " --quiet").exit_code, kExitBadInput);  // one config only
  const auto merged = dicesim("merge " + dir.file("last.h5") + " -o " + dir.file("m1.h5") + " -o " + dir.file("m2.h5"));
  ASSERT_EQ(merged.exit_code, 0) << merged.out;
  EXPECT_FALSE(std::filesystem::exists(dir.file("m1.h5")));
  EXPECT_TRUE(std::filesystem::exists(dir.file("m2.h5")));
}

// --total-games counts games in all: each table plays an even share, rounded
// down, and the dry run says how the total was made.
TEST(Cli, TotalGamesSplitsEvenlyOverTheTables) {
  TempDir dir;
  const std::string config = dir.write("small.json", kConfig);
  const auto plan = dicesim("run " + config + " --dry-run --games 1");
  ASSERT_EQ(plan.exit_code, 0) << plan.out;
  const std::size_t at = plan.out.find(" games in all (1 a table x ");
  ASSERT_NE(at, std::string::npos) << plan.out;
  const std::uint64_t tables = std::stoull(plan.out.substr(plan.out.rfind('\n', at) + 1));
  const auto run = dicesim("run " + config + " --quiet --total-games " + std::to_string(1000 * tables + tables - 1) +
                           " -o " + dir.file("total.h5"));
  ASSERT_EQ(run.exit_code, 0) << run.out;
  EXPECT_EQ(h5::Reader(dir.file("total.h5")).int_attribute("/", "games"), 1000);
  const auto too_few = dicesim("run " + config + " --total-games " + std::to_string(tables - 1));
  EXPECT_EQ(too_few.exit_code, kExitBadInput);
  EXPECT_NE(too_few.out.find("--total-games: "), std::string::npos) << too_few.out;
  EXPECT_EQ(dicesim("run " + config + " --total-games 1e6 --games 10").exit_code, kExitBadInput);
}

// srun -n 2 without a PMI plugin starts two independent processes: each
// says so, and neither plays nor writes.
TEST(Cli, SeveralSlurmTasksWithoutAnMpiWorldAreRefused) {
  TempDir dir;
  const std::string config = dir.write("small.json", kConfig);
  const auto refused = testing::run_shell("SLURM_STEP_NUM_TASKS=2 " + std::string(DICESIM_BINARY) + " run " + config +
                                          " --quiet -o " + dir.file("out.h5"));
  EXPECT_EQ(refused.exit_code, kExitBadInput);
  EXPECT_NE(refused.out.find("one of 2 Slurm tasks (SLURM_STEP_NUM_TASKS) but not launched under MPI"),
            std::string::npos)
      << refused.out;
  EXPECT_EQ(std::count(refused.out.begin(), refused.out.end(), '\n'), 1) << refused.out;
  EXPECT_FALSE(std::filesystem::exists(dir.file("out.h5")));
  EXPECT_FALSE(std::filesystem::exists(dir.file("out.h5.lock")));
  const auto one_task = testing::run_shell("SLURM_STEP_NUM_TASKS=1 " + std::string(DICESIM_BINARY) + " run " + config +
                                           " --games 1000 --quiet -o " + dir.file("out.h5"));
  EXPECT_EQ(one_task.exit_code, 0) << one_task.out;
}

// Every rank's threads, and every merged input's, not only rank 0's.
TEST(Cli, ResultsRecordTheFewestAndTheMostThreads) {
  TempDir dir;
  const std::string config = dir.write("small.json", kConfig);
  ASSERT_EQ(dicesim("run " + config + " --shard 1/2 --threads 1 --quiet -o " + dir.file("1.h5")).exit_code, 0);
  ASSERT_EQ(dicesim("run " + config + " --shard 2/2 --threads 2 --quiet -o " + dir.file("2.h5")).exit_code, 0);
  ASSERT_EQ(dicesim("merge " + dir.file("1.h5") + " " + dir.file("2.h5") + " -o " + dir.file("m.h5")).exit_code, 0);
  const h5::Reader shard(dir.file("2.h5"));
  EXPECT_EQ(shard.int_attribute("/", "threads_min"), 2);
  EXPECT_EQ(shard.int_attribute("/", "threads_max"), 2);
  const h5::Reader merged(dir.file("m.h5"));
  EXPECT_EQ(merged.int_attribute("/", "threads_min"), 1);
  EXPECT_EQ(merged.int_attribute("/", "threads_max"), 2);
}

TEST(Cli, BadConfigIsOneLineExitTwoAndNoFile) {
  TempDir dir;
  json bad = json::parse(kConfig);
  bad["strategies"][1]["per_roll"][0] = "two";
  const std::string config = dir.write("bad.json", bad.dump(2));
  const auto result = dicesim("run " + config + " -o " + dir.file("out.h5"));
  EXPECT_EQ(result.exit_code, kExitBadInput);
  EXPECT_EQ(result.out, config + ": /strategies/1/per_roll/0: expected an integer from 0 to 36, got \"two\"\n");
  EXPECT_FALSE(std::filesystem::exists(dir.file("out.h5")));

  const std::string broken = dir.write("broken.json", "{\"game\": \"sixers\",\n \"seed\": }");
  const auto malformed = dicesim("run " + broken + " -o " + dir.file("out.h5"));
  EXPECT_EQ(malformed.exit_code, kExitBadInput);
  EXPECT_EQ(malformed.out.rfind(broken + ":2:10: malformed JSON", 0), 0u) << malformed.out;
}

TEST(Cli, UnwritableOutputIsRefusedBeforePlaying) {
  TempDir dir;
  const std::string config = dir.write("small.json", kConfig);
  dir.write("plain-file", "x");
  // A missing directory, and a "directory" that is a file (root may write anywhere else).
  for (const std::string& out : {dir.file("missing/dir/out.h5"), dir.file("plain-file/out.h5")}) {
    const auto result = dicesim("run " + config + " -o " + out);
    EXPECT_EQ(result.exit_code, kExitBadInput) << out;
    EXPECT_NE(result.out.find("cannot write the results file"), std::string::npos) << result.out;
  }
}

TEST(Cli, ADirectoryAsOutputIsRefusedBeforePlaying) {
  TempDir dir;
  const std::string config = dir.write("small.json", kConfig);
  std::filesystem::create_directories(dir.file("out.h5"));
  const auto result = dicesim("run " + config + " -o " + dir.file("out.h5"));
  EXPECT_EQ(result.exit_code, kExitBadInput);
  EXPECT_EQ(result.out, dir.file("out.h5") + ": is a directory, not the results file\n");
}

TEST(Cli, BadUsageExitsTwo) {
  TempDir dir;
  const std::string config = dir.write("small.json", kConfig);
  EXPECT_EQ(dicesim("run " + config + " --seed -1").exit_code, kExitBadInput);
  EXPECT_EQ(dicesim("run " + config + " --seed 18446744073709551616").exit_code, kExitBadInput);
  EXPECT_EQ(dicesim("run " + config + " --games ten").exit_code, kExitBadInput);
  EXPECT_EQ(dicesim("run " + config + " --games 0").exit_code, kExitBadInput);
  EXPECT_EQ(dicesim("run " + config + " --games 1e16").exit_code, kExitBadInput);
  EXPECT_EQ(dicesim("run " + config + " --no-such-flag").exit_code, kExitBadInput);
  EXPECT_EQ(dicesim("frobnicate").exit_code, kExitBadInput);
  EXPECT_EQ(dicesim("").exit_code, kExitBadInput);
}

TEST(Cli, HelpVersionAndList) {
  const auto version = dicesim("--version");
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_EQ(version.out.rfind("dicesim ", 0), 0u);
  EXPECT_NE(version.out.find(" (git "), std::string::npos) << version.out;
  EXPECT_NE(version.out.find(" MPI)"), std::string::npos) << version.out;
  for (const char* command :
       {"--help", "run --help", "check --help", "solve --help", "solve sixers --help", "list --help", "bench --help"})
    EXPECT_EQ(dicesim(command).exit_code, 0) << command;
  const auto list = dicesim("list");
  EXPECT_EQ(list.exit_code, 0);
  for (const char* family : {"dice_value_threshold", "dice_number_kept", "turn_score_threshold", "optimal_mean",
                             "target_aware", "zero_face"})
    EXPECT_NE(list.out.find(family), std::string::npos) << family;
}

// `list` describes each game's tables from its declared limits, so it
// cannot say that Pig plays sequential contests only while it also plays
// distributions.
TEST(Cli, ListDescribesEachGamesTablesFromItsLimits) {
  const auto list = dicesim("list");
  ASSERT_EQ(list.exit_code, 0);
  for (const GameEntry& game : games()) {
    const std::size_t begin = list.out.find(std::string(game.name) + ": ");
    ASSERT_NE(begin, std::string::npos) << game.name;
    const std::string section = list.out.substr(begin, list.out.find("\n\n", begin) + 1 - begin);
    EXPECT_NE(section.find(describe_tables(game)), std::string::npos) << section;
  }
  const std::size_t pig = list.out.find("pig: ");
  EXPECT_NE(list.out.find("contests: distributions, sequential, sequential_tables;", pig), std::string::npos)
      << list.out;
}

// Every `solve <game> --config` loads the config as `run` does: whatever
// run refuses, solve refuses with the same one-line message.
TEST(Cli, SolveRefusesWhatRunRefuses) {
  TempDir dir;
  const std::map<std::string, std::string> bad = {
      {"tenk", R"J({"game": "tenk", "games": 10, "strategies": [{"name": "a", "family": "ev_heuristic"}],
                   "contests": {"distributions": false, "sequential_tables": [["a", "b"]]}})J"},
      {"pig", R"J({"game": "pig", "games": 10, "strategies": [{"name": "a", "family": "hold_at", "total": 20}],
                  "contests": {"sequential_tables": [["a", "a"]]}})J"},
      {"sixers", R"J({"game": "sixers", "games": 10, "strategies": [{"name": "a", "family": "dv", "per_roll": [2, 2]}],
                     "contests": {"headtohed": true}})J"},
  };
  for (const auto& [game, text] : bad) {
    const std::string config = dir.write(game + ".json", text);
    const auto run = dicesim("run " + config + " -o " + dir.file(game + ".h5"));
    const auto solve = dicesim("solve " + game + " --config " + config);
    EXPECT_EQ(run.exit_code, 2) << run.out;
    EXPECT_EQ(solve.exit_code, 2) << game << ": " << solve.out;
    EXPECT_EQ(solve.out, run.out) << game;
  }
  const auto other_game = dicesim("solve tenk --config " + testing::source_path("configs/pig_one_die.json"));
  EXPECT_EQ(other_game.exit_code, 2);
  EXPECT_NE(other_game.out.find("/game: this is a pig config; use solve pig"), std::string::npos) << other_game.out;
}

// dicesim list states what each game's exact solver costs, once per game.
TEST(Cli, ListStatesTheExactSolversCostForEveryGame) {
  const auto list = dicesim("list");
  ASSERT_EQ(list.exit_code, 0);
  std::size_t costs = 0;
  for (std::size_t at = list.out.find("exact solver cost"); at != std::string::npos;
       at = list.out.find("exact solver cost", at + 1))
    ++costs;
  EXPECT_EQ(costs, games().size()) << list.out;
}

TEST(Cli, SolvePrintsTheSolversNumbers) {
  const auto result = dicesim("solve sixers --dice 4 --rolls 2 'dv(2)' 'ts(3)'");
  ASSERT_EQ(result.exit_code, 0) << result.out;
  const sixers::Hands hands(sixers::Rules{4, 2, 3});
  std::ostringstream optimum;
  optimum << std::fixed << std::setprecision(6) << sixers::solve_mean_optimum(hands).mean;
  EXPECT_NE(result.out.find("4 dice, 2 rolls"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("expected total " + optimum.str()), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("dv(2)"), std::string::npos);
  EXPECT_EQ(dicesim("solve sixers --dice 2").exit_code, 0);  // more rolls than dice is fine
  const auto bad = dicesim("solve sixers 'dv(9,9)'");
  EXPECT_EQ(bad.exit_code, kExitBadInput);
  EXPECT_NE(bad.out.find("/strategies/0/per_roll"), std::string::npos) << bad.out;
}

// The short form FAMILY(a,b,...) takes one number between every two commas:
// "dv(2,2,)" is not "dv(2,2)".
TEST(Cli, MalformedShortStrategiesAreRefused) {
  for (const char* text : {"dv(2,2,)", "dv(,2,2)", "dv(2,,2)", "dv(2,2"}) {
    const auto bad = dicesim(std::string("solve sixers '") + text + "'");
    EXPECT_EQ(bad.exit_code, 2) << text << ": " << bad.out;
    EXPECT_EQ(bad.out.rfind(std::string(text) + ": expected FAMILY(a,b,...)", 0), 0u) << bad.out;
  }
  EXPECT_EQ(dicesim("solve sixers 'dv(2,2)' 'optimal_mean'").exit_code, 0);
}

TEST(Cli, CtrlCWritesWhatWasPlayedMarkedIncomplete) {
  TempDir dir;
  const std::string config = dir.write("small.json", kConfig);
  const std::string out = dir.file("partial.h5");
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const int devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, STDOUT_FILENO);
    dup2(devnull, STDERR_FILENO);
    execl(DICESIM_BINARY, DICESIM_BINARY, "run", config.c_str(), "-o", out.c_str(), "--games", "1e14", "--quiet",
          static_cast<char*>(nullptr));
    _exit(99);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), kExitInterrupted);
  h5::Reader r(out);
  EXPECT_EQ(r.int_attribute("/", "complete"), 0);
  const std::int64_t played = r.int_attribute("/distributions/dv(2,2)", "games");
  const std::vector<std::int64_t> counts = r.int64s("/distributions/dv(2,2)/counts", h5::kAnyShape);
  EXPECT_EQ(std::accumulate(counts.begin(), counts.end(), std::int64_t(0)), played);
  EXPECT_LT(played, 100'000'000'000'000LL);
}

}  // namespace
}  // namespace dicesim

namespace dicesim {
namespace {

// A mistyped command, option, game, family or key names the nearest known one.
TEST(Cli, MistypedWordsGetASuggestion) {
  TempDir dir;
  std::string known_games;  // from the registry: a new game changes no test
  for (const GameEntry& g : games()) known_games += (known_games.empty() ? "" : ", ") + std::string(g.name);
  const std::map<std::string, std::string> suggested = {
      {"rn",
       "unknown command \"rn\" (known: run, check, solve, list, schema, merge, show, validate, bench); did you mean "
       "\"run\"?"},
      {"solve tnek", "solve: unknown command \"tnek\" (known: " + known_games + "); did you mean \"tenk\"?"},
      {"run " + testing::source_path("configs/sixers.json") + " --gams 10",
       "run: unknown option --gams; did you mean \"--games\"?"},
  };
  for (const auto& [args, message] : suggested) {
    const auto result = dicesim(args);
    EXPECT_EQ(result.exit_code, kExitBadInput) << args;
    EXPECT_EQ(result.out, message + "\n") << args;
  }
  const std::string game = dir.write("game.json", R"J({"game": "tnek", "games": 1})J");
  EXPECT_NE(dicesim("run " + game).out.find("did you mean \"tenk\"?"), std::string::npos);
  const std::string family = dir.write("family.json", R"J({"game": "sixers", "games": 1,
    "strategies": [{"name": "a", "family": "dvv", "per_roll": [1, 1]}]})J");
  EXPECT_NE(dicesim("run " + family).out.find("did you mean \"dv\"?"), std::string::npos);
  // Nothing near: no suggestion.
  EXPECT_EQ(dicesim("run " + testing::source_path("configs/sixers.json") + " --zzzzzz").out,
            "run: unknown option --zzzzzz\n");
}

}  // namespace
}  // namespace dicesim

namespace dicesim {
namespace {

// Every command's --help ends with examples; each runs as written (from a
// directory whose configs/ is the repository's), in an order where the
// files an example reads were written by an earlier one.
// A bare `dicesim` or `dicesim solve` runs nothing: the list of commands (or
// games) goes to stderr, as an error, and stdout stays empty.
TEST(Cli, BareCommandsPrintTheirUsageToStderrAndExitTwo) {
  const std::map<std::string, std::vector<std::string>> listed = {
      {"", {"run", "check", "merge", "show", "validate", "solve", "list", "schema", "bench", "Exit codes"}},
      {"solve", {"sixers", "tenk", "pig", "battle"}}};
  for (const auto& [args, words] : listed) {
    const auto stderr_only =
        testing::run_shell("{ " + std::string(DICESIM_BINARY) + " " + args + " 2>&1 >/dev/null; }");
    EXPECT_EQ(stderr_only.exit_code, kExitBadInput) << "dicesim " << args;
    for (const std::string& word : words)
      EXPECT_NE(stderr_only.out.find(word), std::string::npos) << "dicesim " << args << ": " << word;
    const auto stdout_only = testing::run_shell("{ " + std::string(DICESIM_BINARY) + " " + args + " 2>/dev/null; }");
    EXPECT_EQ(stdout_only.out, "") << "dicesim " << args;
  }
}

// Every option's value is shown by what it is (N, FILE, K/N, ...), never by
// CLI11's type names.
TEST(Cli, HelpNamesOptionValuesByWhatTheyAre) {
  const std::string run_help = dicesim("run --help").out;
  for (const char* shown :
       {"--games N", "--total-games N", "--seed SEED", "--shard K/N", "--checkpoint-every SECONDS", "--resume FILE",
        "--output FILE", "--threads T", "--precision RATE", "--progress-every SECONDS"})
    EXPECT_NE(run_help.find(shown), std::string::npos) << shown << "\n" << run_help;
  EXPECT_NE(dicesim("show --help").out.find("--csv DIR"), std::string::npos);
  std::vector<std::string> commands = {"run", "check", "merge", "show", "validate", "bench"};
  for (const GameEntry& g : games()) commands.push_back("solve " + std::string(g.name));
  for (const std::string& command : commands) {
    const std::string help = dicesim(command + " --help").out;
    for (const char* cli11_name : {"TEXT", "UINT", "FLOAT", "INT "})
      EXPECT_EQ(help.find(cli11_name), std::string::npos) << command << " shows " << cli11_name << ":\n" << help;
  }
}

TEST(Cli, HelpListsTheExitCodes) {
  const std::string help = dicesim("--help").out;
  const std::size_t footer = help.find("\nExit codes:\n");
  ASSERT_NE(footer, std::string::npos) << help;
  for (const int code : {kExitOk, kExitFailedCheck, kExitBadInput, kExitInternal, kExitInterrupted}) {
    const std::string line = std::string("\n  ").append(std::to_string(code)).append(" ");
    EXPECT_NE(help.find(line, footer), std::string::npos) << code << "\n" << help;
  }
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// --quiet: nothing but errors and the final line naming the file (check adds
// its verdict, the line that says whether the run agrees with the solver).
TEST(Cli, QuietPrintsOnlyTheFinalLine) {
  TempDir dir;
  const std::string config = dir.write("small.json", kConfig);
  const auto run = dicesim("run " + config + " -o " + dir.file("run.h5") + " --games 2e4 --quiet");
  ASSERT_EQ(run.exit_code, 0) << run.out;
  EXPECT_EQ(lines_of(run.out), std::vector<std::string>{run.out.substr(0, run.out.find('\n'))});
  EXPECT_EQ(run.out.rfind("wrote " + dir.file("run.h5"), 0), 0u) << run.out;

  const auto check = dicesim("check " + config + " -o " + dir.file("check.h5") + " --games 2e4 --quiet");
  ASSERT_EQ(check.exit_code, 0) << check.out;
  const std::vector<std::string> check_lines = lines_of(check.out);
  ASSERT_EQ(check_lines.size(), 2u) << check.out;
  EXPECT_EQ(check_lines[0].rfind("check: ", 0), 0u) << check.out;
  EXPECT_EQ(check_lines[1].rfind("wrote " + dir.file("check.h5"), 0), 0u) << check.out;

  for (const char* k : {"1", "2"})
    ASSERT_EQ(dicesim("run " + config + " --games 2e4 --shard " + k + "/2 -o " + dir.file(std::string(k) + ".h5") +
                      " --quiet")
                  .exit_code,
              0);
  const auto merge =
      dicesim("merge " + dir.file("1.h5") + " " + dir.file("2.h5") + " -o " + dir.file("m.h5") + " --quiet");
  ASSERT_EQ(merge.exit_code, 0) << merge.out;
  ASSERT_EQ(lines_of(merge.out).size(), 1u) << merge.out;
  EXPECT_NE(merge.out.find("into " + dir.file("m.h5")), std::string::npos) << merge.out;

  EXPECT_NE(dicesim("run --help").out.find("final line"), std::string::npos);
  EXPECT_NE(dicesim("merge --help").out.find("final line"), std::string::npos);
}

TEST(Cli, EveryHelpExampleWorksAsWritten) {
  TempDir dir;
  std::filesystem::create_directory_symlink(testing::source_path("configs"), dir.file("configs"));
  ::setenv("DICESIM_CACHE_DIR", dir.file("cache").c_str(), 1);
  std::vector<std::string> commands = {"run", "check", "merge", "show", "list", "schema", "solve", "bench"};
  for (const GameEntry& g : games()) commands.push_back("solve " + std::string(g.name));  // every game's
  int examples = 0;
  for (const std::string& command : commands) {
    const std::string help = dicesim(command + " --help").out;
    const std::size_t start = help.find("\nExamples");
    ASSERT_NE(start, std::string::npos) << command << " --help has no examples:\n" << help;
    std::istringstream lines(help.substr(start + 1));
    std::string line;
    std::getline(lines, line);  // the heading
    int here = 0;
    while (std::getline(lines, line) && line.rfind("  dicesim ", 0) == 0) {
      const std::string args = line.substr(std::string("  dicesim ").size());
      const auto result = dicesim(args, dir.path());
      EXPECT_EQ(result.exit_code, 0) << line << "\n" << result.out;
      ++here;
    }
    EXPECT_GE(here, 2) << command;
    examples += here;
  }
  ::unsetenv("DICESIM_CACHE_DIR");
  EXPECT_GE(examples, 22);
}

}  // namespace
}  // namespace dicesim
