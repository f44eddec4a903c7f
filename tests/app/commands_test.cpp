// The commands run, check and merge: called directly from the library, and
// through the binary for what only a process shows (signals, locks, devices,
// exit codes).
#include "app/commands.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <thread>

#include "app/exit_codes.h"
#include "config/json_input.h"
#include "engine/engine.h"
#include "engine/progress.h"
#include "results/h5.h"
#include "results/output_file.h"
#include "test_util.h"

namespace dicesim {
namespace {

using testing::dicesim;
using testing::TempDir;

// Five blocks per table, three tables: room for three shards.
const char* kConfig = R"J({
  "game": "sixers", "seed": 11, "games": 300000,
  "strategies": [
    {"name": "dv(2,2)", "family": "dice_value_threshold", "per_roll": [2, 2]},
    {"name": "aware", "family": "target_aware"}
  ],
  "contests": {"distributions": true, "sequential_tables": [["dv(2,2)", "aware"]]}
})J";

// The datasets that hold results (not timings or how the file was made).
std::vector<std::vector<std::int64_t>> result_data(const std::string& file) {
  const h5::Reader r(file);
  std::vector<std::vector<std::int64_t>> out;
  for (const char* path : {"/engine/counters", "/engine/games_done", "/engine/done", "/distributions/dv(2,2)/counts",
                           "/distributions/aware/counts", "/sequential_tables/0/wins", "/sequential_tables/0/counts"})
    out.push_back(r.int64s(path, h5::kAnyShape));
  out.push_back({r.int_attribute("/", "complete")});
  return out;
}

// A cluster of one, as the tests run outside mpirun.
const Cluster& single_process() {
  static int argc = 0;
  static char** argv = nullptr;
  static const Cluster cluster(argc, argv);
  return cluster;
}

// The config with one key replaced by raw JSON text.
std::string config_with(const std::string& key, const std::string& raw_value) {
  json config = json::parse(kConfig);
  config[key] = "@@";
  std::string text = config.dump();
  text.replace(text.find("\"@@\""), 4, raw_value);
  return text;
}

// Bad input: exit 2 and exactly one line.
void expect_refused(const testing::CommandResult& result, const std::string& says) {
  EXPECT_EQ(result.exit_code, kExitBadInput) << result.out;
  EXPECT_EQ(std::count(result.out.begin(), result.out.end(), '\n'), 1) << result.out;
  EXPECT_NE(result.out.find(says), std::string::npos) << result.out;
}

// The binary with its stderr in a file, signalled once it says it reached a
// point: returns its wait status.
class Child {
 public:
  Child(const std::vector<std::string>& args, const std::string& log) : log_(log) {
    pid_ = fork();
    if (pid_ == 0) {
      const int out = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      dup2(out, STDOUT_FILENO);
      dup2(out, STDERR_FILENO);
      std::vector<char*> argv{const_cast<char*>(DICESIM_BINARY)};
      for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      execv(DICESIM_BINARY, argv.data());
      _exit(99);
    }
  }
  ~Child() {  // a test that failed half-way leaves no process behind
    if (running_) signal_and_wait(SIGKILL);
  }
  // Waits (up to a minute) until ready() holds; false if it never does or the process ended.
  bool wait_for(const std::function<bool()>& ready) {
    for (int i = 0; i < 6000 && running_; ++i) {
      if (ready()) return true;
      running_ = waitpid(pid_, &status_, WNOHANG) == 0;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
  }
  bool wait_for_log(const std::string& text) {
    return wait_for([&] {
      std::ifstream in(log_);
      const std::string log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      return log.find(text) != std::string::npos;
    });
  }
  int signal_and_wait(int signal) {
    if (running_) {
      kill(pid_, signal);
      waitpid(pid_, &status_, 0);
      running_ = false;
    }
    return status_;
  }

 private:
  std::string log_;
  pid_t pid_;
  bool running_ = true;
  int status_ = 0;
};

// show prints the facts and summary of any results file without playing:
// complete, a shard, a merge and an interrupted run; --csv and --json carry
// the same tables; a file that is not a results file is a one-line error.
TEST(Commands, ShowSummarisesCompleteShardMergedAndInterruptedFiles) {
  TempDir dir;
  const std::string config = dir.write("run.json", kConfig);
  ASSERT_EQ(dicesim("run " + config + " -o " + dir.file("all.h5") + " --quiet").exit_code, 0);
  ASSERT_EQ(dicesim("run " + config + " --shard 1/2 -o " + dir.file("s1.h5") + " --quiet").exit_code, 0);
  ASSERT_EQ(dicesim("run " + config + " --shard 2/2 -o " + dir.file("s2.h5") + " --quiet").exit_code, 0);
  ASSERT_EQ(dicesim("merge " + dir.file("s1.h5") + " " + dir.file("s2.h5") + " -o " + dir.file("m.h5")).exit_code, 0);
  Child long_run({"run", config, "-o", dir.file("cut.h5"), "--games", "1e14", "--quiet"}, dir.file("cut.log"));
  ASSERT_TRUE(long_run.wait_for([&] { return std::filesystem::exists(dir.file("cut.h5") + ".lock"); }));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  long_run.signal_and_wait(SIGINT);
  const auto show = [&](const std::string& file, ShowOptions options = {}) {
    options.file = dir.file(file);
    std::ostringstream out;
    EXPECT_EQ(show_command(options, out), kExitOk) << file;
    return out.str();
  };
  const std::string all = show("all.h5"), merged = show("m.h5"), shard = show("s1.h5"), cut = show("cut.h5");
  EXPECT_NE(all.find("complete         true"), std::string::npos) << all;
  EXPECT_NE(all.find("\u00b1"), std::string::npos) << all;
  // The merged shards summarise as the whole run did (only the facts differ).
  EXPECT_EQ(merged.substr(merged.find("\n\n")), all.substr(all.find("\n\n")));
  EXPECT_NE(shard.find("shard            1/2"), std::string::npos) << shard;
  EXPECT_NE(shard.find("complete         false"), std::string::npos) << shard;
  EXPECT_NE(cut.find("complete         false"), std::string::npos) << cut;

  ShowOptions as_json;
  as_json.json = true;
  const json parsed = json::parse(show("all.h5", as_json));
  EXPECT_EQ(parsed.at("run").at("complete"), true);
  EXPECT_FALSE(parsed.at("tables").at("strategies").at("rows").empty());
  EXPECT_TRUE(parsed.at("tables").at("strategies").at("rows")[0].at("mean_half_width").is_number());
  ShowOptions as_csv;
  as_csv.csv_dir = dir.file("csv");
  show("all.h5", as_csv);
  std::ifstream strategies(dir.file("csv") + "/strategies.csv");
  std::string header;
  std::getline(strategies, header);
  EXPECT_NE(header.find("mean,mean_half_width"), std::string::npos) << header;
  EXPECT_TRUE(std::filesystem::exists(dir.file("csv") + "/run.csv"));

  ShowOptions not_results;
  not_results.file = config;
  std::ostringstream out;
  EXPECT_THROW(show_command(not_results, out), InputError);
  const auto missing = dicesim("show " + dir.file("missing.h5"));
  EXPECT_EQ(missing.exit_code, kExitBadInput);
  EXPECT_EQ(std::count(missing.out.begin(), missing.out.end(), '\n'), 1) << missing.out;
}

// Where stderr is not a terminal (a Slurm log, a notebook) a run logs one
// progress line every --progress-every seconds; 0 logs none.
TEST(Commands, ANonTerminalRunLogsProgressLines) {
  TempDir dir;
  const std::string config = dir.write("run.json", kConfig);
  const auto log_of = [&](const std::string& every) {
    const std::string log = dir.file("every" + every + ".log");
    Child run({"run", config, "-o", dir.file("p" + every + ".h5"), "--games", "1e14", "--progress-every", every}, log);
    std::this_thread::sleep_for(std::chrono::milliseconds(2600));
    run.signal_and_wait(SIGINT);
    std::ifstream in(log);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const std::string logged = log_of("1");
  EXPECT_NE(logged.find("[0:00:01] "), std::string::npos) << logged;
  EXPECT_NE(logged.find("[0:00:02] "), std::string::npos) << logged;
  EXPECT_NE(logged.find(" games  "), std::string::npos) << logged;
  EXPECT_NE(logged.find("/s  ETA "), std::string::npos) << logged;
  EXPECT_EQ(logged.find('\r'), std::string::npos) << "no redrawing outside a terminal";
  EXPECT_EQ(log_of("0").find("[0:00:0"), std::string::npos);
}

TEST(Commands, ProgressTextIsReadable) {
  EXPECT_EQ(readable_count(12345678), "12.3 M");
  EXPECT_EQ(readable_count(999), "999");
  EXPECT_EQ(readable_count(2.5e9), "2.5 G");
  EXPECT_EQ(clock_time(3723), "1:02:03");
  EXPECT_EQ(progress_text(1e9, 4e9, 10), "25.0%  1 G / 4 G games  100 M/s  ETA 0:00:30");
}

TEST(Commands, RunAndMergeCalledFromTheLibraryGiveTheBinarysFile) {
  TempDir dir;
  const std::string config = dir.write("run.json", kConfig);
  ASSERT_EQ(dicesim("run " + config + " -o " + dir.file("binary.h5") + " --quiet").exit_code, 0);
  for (const char* shard : {"1/2", "2/2"}) {
    RunOptions options;
    options.config = config;
    options.shard = shard;
    options.output = dir.file(std::string("shard") + shard[0] + ".h5");
    options.progress.quiet = true;
    std::ostringstream out;
    EXPECT_EQ(run_command(options, false, single_process(), out), kExitOk);
    EXPECT_NE(out.str().find("wrote " + options.output), std::string::npos) << out.str();
  }
  std::ostringstream out;
  EXPECT_EQ(merge_command({{dir.file("shard1.h5"), dir.file("shard2.h5")}, dir.file("merged.h5")}, out), kExitOk);
  EXPECT_NE(out.str().find("complete"), std::string::npos) << out.str();
  EXPECT_EQ(result_data(dir.file("merged.h5")), result_data(dir.file("binary.h5")));

  // Bad input is an InputError, before anything is written.
  RunOptions bad;
  bad.config = config;
  bad.output = config;
  EXPECT_THROW(run_command(bad, false, single_process(), out), InputError);
}

TEST(Commands, AnOutputThatIsNoRegularFileOrIsTheConfigIsRefusedBeforePlaying) {
  TempDir dir;
  const std::string config = dir.write("run.json", kConfig);
  ASSERT_EQ(mkfifo(dir.file("fifo").c_str(), 0600), 0);
  dir.write("target.h5", "keep");
  std::filesystem::create_symlink(dir.file("target.h5"), dir.file("link.h5"));
  std::vector<std::string> outputs{dir.file("fifo"), dir.file("link.h5")};
  // A device of our own, not /dev/null: run against a binary with the bug,
  // this test would turn the machine's /dev/null into a plain file.
  if (mknod(dir.file("null").c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0) outputs.push_back(dir.file("null"));
  for (const std::string& out : outputs) {
    expect_refused(dicesim("run " + config + " -o " + out + " --games 1000"), "not a regular file");
    expect_refused(dicesim("merge " + dir.file("any.h5") + " -o " + out), "not a regular file");
  }
  EXPECT_TRUE(std::filesystem::is_fifo(dir.file("fifo")));
  EXPECT_TRUE(std::filesystem::is_symlink(dir.file("link.h5")));
  EXPECT_EQ(std::ifstream(dir.file("target.h5")).rdbuf()->sgetc(), 'k');
  if (outputs.size() == 3) {
    EXPECT_TRUE(std::filesystem::is_character_file(dir.file("null")));
  }

  expect_refused(dicesim("run " + config + " -o " + config), "refusing to overwrite it");
  EXPECT_EQ(json::parse(std::ifstream(config)), json::parse(kConfig));
}

TEST(Commands, ALockedOutputIsRefused) {
  TempDir dir;
  const std::string out = dir.file("out.h5");
  {
    const OutputFiles first({}, {{out, "the results file", true}});
    EXPECT_TRUE(std::filesystem::exists(out + ".lock"));
    EXPECT_THROW(OutputFiles({}, {{out, "the results file", true}}), InputError);
  }
  EXPECT_FALSE(std::filesystem::exists(out + ".lock"));  // released and removed
  const OutputFiles again({}, {{out, "the results file", true}});

  // Two processes: the second run on the same output is refused while the first plays.
  const std::string config = dir.write("run.json", kConfig);
  const std::string shared = dir.file("shared.h5");
  Child first({"run", config, "-o", shared, "--games", "1e14", "--quiet"}, dir.file("first.log"));
  ASSERT_TRUE(first.wait_for([&] { return std::filesystem::exists(shared + ".lock"); }));
  expect_refused(dicesim("run " + config + " -o " + shared + " --games 1000"), "another dicesim is writing");
  const int status = first.signal_and_wait(SIGINT);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), kExitInterrupted);
  EXPECT_EQ(h5::Reader(shared).int_attribute("/", "complete"), 0);
  EXPECT_FALSE(std::filesystem::exists(shared + ".lock"));
}

TEST(Commands, ASignalDuringTheExactPhaseWritesTheSimulationAndExits130) {
  TempDir dir;
  const std::string config = dir.write("run.json", kConfig);
  const std::string out = dir.file("check.h5");
  Child child({"check", config, "-o", out, "--quiet", "--test-pause-at", "exact"}, dir.file("log"));
  ASSERT_TRUE(child.wait_for_log("paused at exact"));
  const int status = child.signal_and_wait(SIGINT);
  ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), kExitInterrupted);
  const h5::Reader r(out);
  EXPECT_EQ(r.int_attribute("/", "complete"), 1);  // the whole simulation
  EXPECT_EQ(r.int_attribute("/", "exact_skipped"), 1);
  EXPECT_FALSE(r.exists("/checks"));
  EXPECT_EQ(r.int_attribute("/distributions/dv(2,2)", "games"), 300000);
}

TEST(Commands, ASignalDuringSetupWritesWhatWasPlayedAndExits130) {
  TempDir dir;
  const std::string config = dir.write("run.json", kConfig);
  const std::string out = dir.file("run.h5");
  Child child({"run", config, "-o", out, "--quiet", "--test-pause-at", "setup"}, dir.file("log"));
  ASSERT_TRUE(child.wait_for_log("paused at setup"));
  const int status = child.signal_and_wait(SIGTERM);
  ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), kExitInterrupted);
  const h5::Reader r(out);
  EXPECT_EQ(r.int_attribute("/", "complete"), 0);
  EXPECT_EQ(r.int_attribute("/distributions/dv(2,2)", "games"), 0);
}

// A stop request during a merge leaves nothing: no output, no temporary
// file, no lock.
TEST(Commands, ASignalDuringAMergeLeavesNothingAndExits130) {
  TempDir dir;
  const std::string config = dir.write("run.json", kConfig);
  for (const char* shard : {"1/2", "2/2"})
    ASSERT_EQ(dicesim("run " + config + " --shard " + shard + " -o " + dir.file(std::string("s") + shard[0] + ".h5") +
                      " --quiet")
                  .exit_code,
              kExitOk);
  const std::string out = dir.file("merged.h5");
  for (const int signal : {SIGINT, SIGTERM}) {
    Child child({"merge", dir.file("s1.h5"), dir.file("s2.h5"), "-o", out, "--test-pause-at", "read"}, dir.file("log"));
    ASSERT_TRUE(child.wait_for_log("paused at read"));
    const int status = child.signal_and_wait(signal);
    ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
    EXPECT_EQ(WEXITSTATUS(status), kExitInterrupted);
    std::filesystem::remove(dir.file("log"));
    for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
      EXPECT_EQ(entry.path().filename().string().rfind("merged.h5", 0), std::string::npos) << entry.path();
  }
}

TEST(Commands, AConfigMustBeAReadableRegularFileOfAtMostTheLimit) {
  TempDir dir;
  ASSERT_EQ(mkfifo(dir.file("fifo").c_str(), 0600), 0);
  std::filesystem::create_symlink(dir.file("loop"), dir.file("loop"));
  dir.write("huge.json", std::string(kMaxJsonFileBytes + 1, ' '));
  const std::pair<std::string, std::string> cases[] = {
      {"/dev/zero", "is not a regular file"},
      {dir.file("fifo"), "is not a regular file"},
      {dir.path().string(), "is a directory"},
      {dir.file("missing.json"), "cannot read the file (No such file or directory)"},
      {dir.file("loop"), "cannot read the file (Too many levels of symbolic links)"},
      {dir.file("huge.json"), "larger than the 4 MiB"}};
  for (const auto& [file, says] : cases) {
    const auto result = testing::run_shell("timeout 20 " + std::string(DICESIM_BINARY) + " run " + file);
    expect_refused(result, file + ": " + says);
  }
  if (geteuid() != 0) {  // root reads anything
    const std::string locked = dir.write("locked.json", kConfig);
    std::filesystem::permissions(locked, std::filesystem::perms::none);
    expect_refused(dicesim("run " + locked), "cannot read the file (Permission denied)");
  }
}

TEST(Commands, AnEmptyOptionValueIsRefused) {
  TempDir dir;
  const std::string config = dir.write("run.json", kConfig);
  ASSERT_EQ(dicesim("run " + config + " -o " + dir.file("saved.h5") + " --quiet").exit_code, 0);
  const std::vector<std::int64_t> saved = h5::Reader(dir.file("saved.h5")).int64s("/engine/counters", h5::kAnyShape);
  for (const char* option : {"--resume", "--games", "--seed", "-o", "--shard"})
    for (const char* command : {"run", "check"})
      expect_refused(dicesim(std::string(command) + " " + config + " " + option + " ''", dir.path().string()), "empty");
  expect_refused(dicesim("run ''"), "empty");
  expect_refused(dicesim("merge " + dir.file("saved.h5") + " -o ''"), "empty");
  expect_refused(dicesim("solve sixers --config ''"), "empty");
  expect_refused(dicesim("solve tenk --rules ''"), "--rules:");  // refused by its list of presets
  expect_refused(dicesim("solve pig --config ''"), "empty");
  EXPECT_EQ(h5::Reader(dir.file("saved.h5")).int64s("/engine/counters", h5::kAnyShape), saved);
}

TEST(Commands, AConfigNameWithControlCharactersIsRefusedBeforeAnythingIsCreated) {
  TempDir dir;
  for (const char* name : {R"("a\u0000b")", R"("a\nb")", R"("a\u007fb")", R"("a\u0085b")"}) {
    dir.write("named.json", config_with("name", name));
    expect_refused(dicesim("run named.json --games 1000 --quiet", dir.path().string()), "/name: a name must be");
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "results")) << name;
  }
}

TEST(Commands, AnOverlongOutputNameIsBadInput) {
  TempDir dir;
  dir.write("long.json", config_with("name", "\"" + std::string(300, 'x') + "\""));
  // A config's name passes the file name rule (200 bytes at most); -o is the file system's to refuse.
  expect_refused(dicesim("run long.json --games 1000 --quiet", dir.path().string()), "longer than 200 bytes");
  dir.write("short.json", config_with("name", "\"short\""));
  expect_refused(dicesim("run short.json --games 1000 -o " + std::string(300, 'y') + ".h5", dir.path().string()),
                 "File name too long");
}

TEST(Commands, NegativeNumbersOfSolveCommandsAreRefused) {
  expect_refused(dicesim("solve sixers --z-games -5"), "--z-games");
  expect_refused(dicesim("solve sixers --z-games ' -5'"), "--z-games");
}

TEST(Commands, TheThreadsRecordedAreTheThreadsUsed) {
  TempDir dir;
  const std::string config = dir.write("run.json", kConfig);
  const auto result = testing::run_shell(std::string(DICESIM_BINARY) + " run " + config + " -o " + dir.file("t.h5") +
                                         " --threads 1000 --quiet 2>" + dir.file("stderr"));
  ASSERT_EQ(result.exit_code, 0) << result.out;
  const std::int64_t threads = h5::Reader(dir.file("t.h5")).int_attribute("/", "threads");
  EXPECT_GE(threads, 1);
  EXPECT_LE(threads, available_cpus());
  EXPECT_NE(result.out.find(", " + std::to_string(threads) + " threads)"), std::string::npos) << result.out;
  EXPECT_EQ(std::filesystem::file_size(dir.file("stderr")), 0u);  // --quiet is quiet
}

TEST(Commands, AMergeOfTheFirstShardsResumesToThePlainRunsFile) {
  TempDir dir;
  const std::string config = dir.write("run.json", kConfig);
  ASSERT_EQ(dicesim("run " + config + " -o " + dir.file("plain.h5") + " --quiet").exit_code, 0);
  for (int k = 1; k <= 3; ++k) {
    const std::string shard = std::to_string(k) + "/3";
    ASSERT_EQ(
        dicesim("run " + config + " --shard " + shard + " -o " + dir.file("s" + std::to_string(k) + ".h5") + " --quiet")
            .exit_code,
        0);
  }
  ASSERT_EQ(dicesim("merge " + dir.file("s1.h5") + " " + dir.file("s2.h5") + " -o " + dir.file("first.h5")).exit_code,
            0);
  const auto resumed = dicesim("run " + config + " --resume " + dir.file("first.h5") + " --quiet");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.out;
  EXPECT_EQ(result_data(dir.file("first.h5")), result_data(dir.file("plain.h5")));

  // The last two shards do not start at the first block: the true reason.
  ASSERT_EQ(dicesim("merge " + dir.file("s2.h5") + " " + dir.file("s3.h5") + " -o " + dir.file("last.h5")).exit_code,
            0);
  expect_refused(dicesim("run " + config + " --resume " + dir.file("last.h5")), "which do not start at block 0");
}

// An integer key accepts an integer written as floating-point (as JSON
// Schema's "integer" does), and nothing else.
TEST(Commands, TwoPointZeroIsTwoAndTwoPointFiveNoSeedOrGameCount) {
  TempDir dir;
  ASSERT_EQ(dicesim("run " + dir.write("a.json", config_with("games", "2.0")) + " -o " + dir.file("a.h5") + " --quiet")
                .exit_code,
            0);
  EXPECT_EQ(h5::Reader(dir.file("a.h5")).int_attribute("/", "games"), 2);
  expect_refused(dicesim("run " + dir.write("b.json", config_with("seed", "2.5")), dir.path().string()),
                 "/seed: expected an integer");
  expect_refused(dicesim("run " + dir.write("c.json", config_with("games", "2.5")), dir.path().string()),
                 "/games: expected an integer");
}

TEST(Commands, AnExponentIntegerIsAnIntegerAndMinusZeroIsZero) {
  TempDir dir;
  ASSERT_EQ(dicesim("run " + dir.write("c.json", config_with("games", "1e3")) + " -o " + dir.file("c.h5") + " --quiet")
                .exit_code,
            0);
  EXPECT_EQ(h5::Reader(dir.file("c.h5")).int_attribute("/", "games"), 1000);
  ASSERT_EQ(dicesim("run " + dir.write("d.json", config_with("seed", "-0")) + " -o " + dir.file("d.h5") + " --quiet")
                .exit_code,
            0);
  EXPECT_EQ(h5::Reader(dir.file("d.h5")).int_attribute("/", "seed"), 0);
}

TEST(Commands, CheckpointEveryNeedsAPositiveFiniteNumber) {
  TempDir dir;
  const std::string config = dir.write("run.json", kConfig);
  for (const char* seconds : {"nan", "0", "-1", "inf"}) {
    const auto result = dicesim("run " + config + " --checkpoint-every " + seconds, dir.path().string());
    expect_refused(result, "--checkpoint-every: expected a positive number of seconds");
    EXPECT_LT(result.out.size(), 100u) << result.out;
  }
}

TEST(Commands, DelAndC1ControlsInAStrategyNameAreRefused) {
  TempDir dir;
  for (const char* name : {"x\x7f", "x\xc2\x85", "x\xc2\x9f"}) {
    json bad = json::parse(kConfig);
    bad["strategies"][0]["name"] = name;
    bad["contests"] = {{"distributions", true}};
    expect_refused(dicesim("run " + dir.write("bad.json", bad.dump()), dir.path().string()),
                   "/strategies/0/name: a strategy name");
  }
}

TEST(Commands, AMissingMergeInputIsSaidToBeMissing) {
  TempDir dir;
  expect_refused(dicesim("merge " + dir.file("missing.h5") + " -o " + dir.file("m.h5")),
                 "missing.h5: cannot read the results file (No such file or directory)");
}

TEST(Commands, SolveNamesTheGameOfAnotherGamesConfig) {
  expect_refused(dicesim("solve sixers --config " + testing::source_path("configs/pig_one_die.json")),
                 "/game: this is a pig config; use solve pig");
}

}  // namespace
}  // namespace dicesim
