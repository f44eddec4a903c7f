// Cluster runs, shards and merge, checkpoint and resume, and faults: every
// guarantee shown by running the binary as a user (or a scheduler) would.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <random>
#include <thread>

#include "app/exit_codes.h"
#include "results/h5.h"
#include "test_util.h"

namespace dicesim {
namespace {

using testing::dicesim;
using testing::results_contents;
using testing::same_results;
using testing::TempDir;

// About 100 blocks over 4 tables of different sizes: enough blocks for shards,
// ranks and checkpoints to cut in many places, quick enough for a test.
const char* kConfig = R"J({
  "game": "sixers", "seed": 5, "games": 1500000,
  "strategies": [
    {"name": "dv(2,2)", "family": "dice_value_threshold", "per_roll": [2, 2]},
    {"name": "aware", "family": "target_aware"}
  ],
  "contests": {"distributions": true, "sequential_tables": [["dv(2,2)", "aware"]]}
})J";

class Cluster : public ::testing::Test {
 protected:
  void SetUp() override {
    config = dir.write("run.json", kConfig);
    const auto single = dicesim("run " + config + " -o " + dir.file("single.h5") + " --quiet");
    ASSERT_EQ(single.exit_code, 0) << single.out;
    reference = dir.file("single.h5");
  }
  TempDir dir;
  std::string config;
  std::string reference;  // the single-process run's file
};

TEST_F(Cluster, MpiRanksGiveTheSingleProcessFile) {
  for (int ranks : {1, 2, 3}) {
    const std::string out = dir.file("mpi" + std::to_string(ranks) + ".h5");
    const auto result =
        testing::run_shell("mpirun -n " + std::to_string(ranks) + " --oversubscribe --allow-run-as-root " +
                           DICESIM_BINARY + " run " + config + " -o " + out + " --quiet --threads 1");
    ASSERT_EQ(result.exit_code, 0) << result.out;
    EXPECT_TRUE(same_results(out, reference)) << ranks << " ranks";
    EXPECT_EQ(h5::Reader(out).int_attribute("/", "ranks"), ranks);
  }
}

TEST_F(Cluster, ShardsMergeToTheSingleRunInAnyOrder) {
  for (int k = 1; k <= 3; ++k) {
    // (std::string("s") + ...: GCC 12 -Wrestrict false alarm on "s" + std::to_string(k))
    const std::string file = dir.file(std::string("s") + std::to_string(k) + ".h5");
    const auto shard = dicesim("run " + config + " --shard " + std::to_string(k) + "/3 -o " + file + " --quiet");
    ASSERT_EQ(shard.exit_code, 0) << shard.out;
    EXPECT_EQ(h5::Reader(file).string_attribute("/", "shard"), std::to_string(k) + "/3");
  }
  const auto all = dicesim("merge " + dir.file("s3.h5") + " " + dir.file("s1.h5") + " " + dir.file("s2.h5") + " -o " +
                           dir.file("all.h5"));
  ASSERT_EQ(all.exit_code, 0) << all.out;
  EXPECT_NE(all.out.find(", complete"), std::string::npos);
  EXPECT_TRUE(same_results(dir.file("all.h5"), reference));

  // Two steps: a partial merge is marked incomplete and merges on.
  const auto partial = dicesim("merge " + dir.file("s1.h5") + " " + dir.file("s3.h5") + " -o " + dir.file("p.h5"));
  ASSERT_EQ(partial.exit_code, 0) << partial.out;
  EXPECT_NE(partial.out.find("not complete yet"), std::string::npos);
  EXPECT_EQ(h5::Reader(dir.file("p.h5")).int_attribute("/", "complete"), 0);
  ASSERT_EQ(dicesim("merge " + dir.file("p.h5") + " " + dir.file("s2.h5") + " -o " + dir.file("all2.h5")).exit_code, 0);
  EXPECT_TRUE(same_results(dir.file("all2.h5"), reference));
}

TEST_F(Cluster, MismatchedMergesAreRefused) {
  ASSERT_EQ(dicesim("run " + config + " --shard 1/2 -o " + dir.file("a.h5") + " --quiet").exit_code, 0);
  ASSERT_EQ(dicesim("run " + config + " --shard 2/2 --seed 6 -o " + dir.file("b.h5") + " --quiet").exit_code, 0);
  ASSERT_EQ(dicesim("run " + config + " --shard 1/3 -o " + dir.file("c.h5") + " --quiet").exit_code, 0);
  const auto seed = dicesim("merge " + dir.file("a.h5") + " " + dir.file("b.h5") + " -o " + dir.file("x.h5"));
  EXPECT_EQ(seed.exit_code, kExitBadInput);
  EXPECT_NE(seed.out.find("not from the same run"), std::string::npos) << seed.out;
  const auto overlap = dicesim("merge " + dir.file("a.h5") + " " + dir.file("c.h5") + " -o " + dir.file("x.h5"));
  EXPECT_EQ(overlap.exit_code, kExitBadInput);
  EXPECT_NE(overlap.out.find("overlaps"), std::string::npos) << overlap.out;
  EXPECT_FALSE(std::filesystem::exists(dir.file("x.h5")));
  EXPECT_EQ(dicesim("run " + config + " --shard 4/3").exit_code, kExitBadInput);
  EXPECT_EQ(dicesim("run " + config + " --shard 0/3").exit_code, kExitBadInput);
  EXPECT_EQ(dicesim("run " + config + " --shard two").exit_code, kExitBadInput);
}

// Starts a run in the background; returns its pid.
pid_t start(const std::vector<std::string>& args) {
  const pid_t pid = fork();
  if (pid == 0) {
    const int devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, STDOUT_FILENO);
    dup2(devnull, STDERR_FILENO);
    std::vector<char*> argv{const_cast<char*>(DICESIM_BINARY)};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(DICESIM_BINARY, argv.data());
    _exit(99);
  }
  return pid;
}

TEST_F(Cluster, KilledAtRandomMomentsAndResumedEndsBitIdentical) {
  // A run of a couple of seconds, so that it can be killed several times.
  const std::string games = "2e7";
  const std::string uninterrupted = dir.file("long.h5");
  ASSERT_EQ(dicesim("run " + config + " --games " + games + " -o " + uninterrupted + " --quiet").exit_code, 0);
  const std::string out = dir.file("resumed.h5");
  const auto args = [&] {
    std::vector<std::string> a{"run", config, "--games", games, "-o", out, "--checkpoint-every", "0.05", "--quiet"};
    if (std::filesystem::exists(out)) a.insert(a.end(), {"--resume", out});
    return a;
  };
  // Four kills at random moments, each resuming from whatever checkpoint the
  // last one left (or starting afresh if it left none), then a last resume
  // that runs to the end.
  std::mt19937 random(std::random_device{}());
  int kills = 0, resumed_from_checkpoint = 0;
  for (int round = 0; round < 4; ++round) {
    resumed_from_checkpoint += std::filesystem::exists(out);
    const pid_t pid = start(args());
    std::this_thread::sleep_for(std::chrono::milliseconds(300 + random() % 600));
    kills += kill(pid, SIGKILL) == 0;
    waitpid(pid, nullptr, 0);
  }
  const pid_t last = start(args());
  int status = 0;
  waitpid(last, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(kills, 4);
  EXPECT_GE(resumed_from_checkpoint, 2);
  EXPECT_TRUE(same_results(out, uninterrupted)) << "after " << kills << " kills";
}

TEST_F(Cluster, ShardsWithNoBlocksAreFineToo) {
  // More shards than blocks: some shards are empty, and still finish and merge.
  std::string inputs;
  for (int k = 1; k <= 200; ++k) {
    const std::string shard_name = std::to_string(k) + "/200";  // (built apart: GCC 12 -Wrestrict false alarm)
    const std::string out = dir.file("empty-" + std::to_string(k) + ".h5");
    const auto shard = dicesim("run " + config + " --shard " + shard_name + " -o " + out + " --quiet");
    ASSERT_EQ(shard.exit_code, 0) << k << ": " << shard.out;
    inputs += " " + out;
  }
  // A finished empty shard resumes to itself too.
  const auto again = dicesim("run " + config + " --resume " + dir.file("empty-1.h5") + " --quiet");
  EXPECT_EQ(again.exit_code, 0) << again.out;
  const auto merged = dicesim("merge" + inputs + " -o " + dir.file("all.h5"));
  ASSERT_EQ(merged.exit_code, 0) << merged.out;
  EXPECT_TRUE(same_results(dir.file("all.h5"), reference));
}

TEST_F(Cluster, MpiErrorsEndEveryRank) {
  // Rank 0 cannot write: every rank must end (the test would time out if one waited).
  const auto result =
      testing::run_shell("timeout 60 mpirun -n 2 --oversubscribe --allow-run-as-root " + std::string(DICESIM_BINARY) +
                         " run " + config + " -o " + dir.file("missing/out.h5") + " --quiet");
  EXPECT_NE(result.exit_code, 0);
  EXPECT_NE(result.exit_code, 124) << "mpirun hung";
  EXPECT_NE(result.out.find("cannot write the results file"), std::string::npos) << result.out;
}

TEST_F(Cluster, ResumeRefusesAnotherRunsFile) {
  ASSERT_EQ(dicesim("run " + config + " --shard 1/2 -o " + dir.file("a.h5") + " --quiet").exit_code, 0);
  const auto seed = dicesim("run " + config + " --seed 9 --resume " + dir.file("a.h5"));
  EXPECT_EQ(seed.exit_code, kExitBadInput);
  EXPECT_NE(seed.out.find("not from the same run as this run (the config, seed or game count differ)"),
            std::string::npos)
      << seed.out;
  const auto shard = dicesim("run " + config + " --shard 2/2 --resume " + dir.file("a.h5"));
  EXPECT_EQ(shard.exit_code, kExitBadInput);
  // A finished shard resumes to itself: nothing left to play.
  const auto done = dicesim("run " + config + " --resume " + dir.file("a.h5") + " --quiet");
  EXPECT_EQ(done.exit_code, 0) << done.out;
}

TEST_F(Cluster, DamagedResultsFilesAreRefusedNeverACrash) {
  const std::string good = dir.file("single.h5");
  const auto size = std::filesystem::file_size(good);
  // Truncated.
  std::filesystem::copy_file(good, dir.file("cut.h5"));
  std::filesystem::resize_file(dir.file("cut.h5"), size / 2);
  // Not HDF5 at all.
  dir.write("text.h5", "{\"game\": \"sixers\"}\n");
  // HDF5, but not ours.
  {
    h5::Writer foreign(dir.file("foreign.h5"));
    foreign.write("/x", std::vector<std::int64_t>{1, 2, 3});
    foreign.close();
  }
  // Ours, with counters changed: one game moved between two scores (the
  // totals still add up), and one game added; the checksums see both.
  const auto alter = [&](const std::string& name, std::int64_t to_bin_3, std::int64_t to_bin_4) {
    std::filesystem::copy_file(good, dir.file(name));
    const hid_t f = H5Fopen(dir.file(name).c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    const hid_t d = H5Dopen2(f, "/engine/counters", H5P_DEFAULT);
    std::vector<std::int64_t> counters(H5Sget_simple_extent_npoints(H5Dget_space(d)));
    H5Dread(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, counters.data());
    counters[3] += to_bin_3;
    counters[4] += to_bin_4;
    H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, counters.data());
    H5Dclose(d);
    H5Fclose(f);
  };
  alter("tampered.h5", 1, -1);
  alter("extra.h5", 1, 0);
  // Ours, with an attribute turned into an array (reading it must not overrun).
  std::filesystem::copy_file(good, dir.file("array.h5"));
  {
    const hid_t f = H5Fopen(dir.file("array.h5").c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    H5Adelete(f, "wall_seconds");
    const hsize_t four = 4;
    const hid_t space = H5Screate_simple(1, &four, nullptr);
    const hid_t attr = H5Acreate2(f, "wall_seconds", H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT);
    const double values[4] = {1, 2, 3, 4};
    H5Awrite(attr, H5T_NATIVE_DOUBLE, values);
    H5Aclose(attr);
    H5Sclose(space);
    H5Fclose(f);
  }
  testing::resign(dir.file("array.h5"));  // past the content checksum, to the attribute's own check
  const std::pair<const char*, const char*> cases[] = {{"cut.h5", "unreadable or truncated"},
                                                       {"text.h5", "unreadable or truncated"},
                                                       {"foreign.h5", "not a dicesim results file"},
                                                       {"tampered.h5", "checksum mismatch"},
                                                       {"extra.h5", "checksum mismatch"},
                                                       {"array.h5", "attribute wall_seconds of / has the shape [4]"}};
  for (const auto& [name, message] : cases) {
    const auto merged = dicesim("merge " + dir.file(name) + " " + good + " -o " + dir.file("m.h5"));
    EXPECT_EQ(merged.exit_code, kExitBadInput) << name << ": " << merged.out;
    EXPECT_NE(merged.out.find(message), std::string::npos) << name << ": " << merged.out;
    const auto resumed = dicesim("run " + config + " --resume " + dir.file(name) + " -o " + dir.file("r.h5"));
    EXPECT_EQ(resumed.exit_code, kExitBadInput) << name << ": " << resumed.out;
    EXPECT_NE(resumed.out.find(message), std::string::npos) << name << ": " << resumed.out;
  }
  EXPECT_FALSE(std::filesystem::exists(dir.file("m.h5")));
  EXPECT_FALSE(std::filesystem::exists(dir.file("r.h5")));
}

TEST_F(Cluster, AFullDiskLeavesNoFileAndTheLastCheckpointIntact) {
  // A file size limit stands in for a full disk: writes past it fail (EFBIG).
  const std::string fresh = dir.file("fresh.h5");
  const auto full = testing::run_shell("ulimit -f 8 && " + std::string(DICESIM_BINARY) + " run " + config + " -o " +
                                       fresh + " --quiet");
  EXPECT_EQ(full.exit_code, kExitInternal) << full.out;  // a clear error, not a crash
  EXPECT_NE(full.out.find(fresh + ": cannot write the results file: writing failed: File too large"), std::string::npos)
      << full.out;
  EXPECT_FALSE(std::filesystem::exists(fresh));
  for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
    EXPECT_EQ(entry.path().string().find(".tmp."), std::string::npos) << entry.path();

  // A checkpoint, then a resumed run that cannot write: the checkpoint stays as it was.
  const std::string checkpoint = dir.file("checkpoint.h5");
  const pid_t pid = start({"run", config, "-o", checkpoint, "--checkpoint-every", "0.05", "--quiet"});
  while (!std::filesystem::exists(checkpoint)) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  const auto before = results_contents(checkpoint);
  const auto resumed = testing::run_shell("ulimit -f 8 && " + std::string(DICESIM_BINARY) + " run " + config +
                                          " --resume " + checkpoint + " --checkpoint-every 0.05 --quiet");
  EXPECT_EQ(resumed.exit_code, kExitInternal) << resumed.out;
  EXPECT_TRUE(results_contents(checkpoint) == before);
}

TEST(LoadedDie, ALoadedDieMakesCheckFail) {
  TempDir dir;
  const std::string config = dir.write("run.json", kConfig);
  const auto fair = dicesim("check " + config + " --games 200000 -o " + dir.file("fair.h5") + " --quiet");
  EXPECT_EQ(fair.exit_code, 0) << fair.out;
  const auto loaded =
      dicesim("check " + config + " --games 200000 -o " + dir.file("loaded.h5") + " --quiet --test-biased-die");
  EXPECT_EQ(loaded.exit_code, kExitFailedCheck) << loaded.out;
  EXPECT_NE(loaded.out.find("DISAGREES"), std::string::npos);
}

// Counts of the loaded die never mix with fair ones: merge and resume refuse.
TEST(LoadedDie, MergeAndResumeRefuseToMixDice) {
  TempDir dir;
  const std::string config = dir.write("run.json", kConfig);
  const std::string loaded = dir.file("loaded.h5"), fair = dir.file("fair.h5");
  ASSERT_EQ(dicesim("run " + config + " --shard 1/2 --quiet --test-biased-die -o " + loaded).exit_code, 0);
  ASSERT_EQ(dicesim("run " + config + " --shard 2/2 --quiet -o " + fair).exit_code, 0);
  EXPECT_EQ(h5::Reader(loaded).int_attribute("/", "biased_die"), 1);
  EXPECT_EQ(h5::Reader(fair).int_attribute("/", "biased_die"), 0);

  const auto merge = dicesim("merge " + loaded + " " + fair + " -o " + dir.file("merged.h5"));
  EXPECT_EQ(merge.exit_code, 2) << merge.out;
  EXPECT_EQ(merge.out,
            fair + ": was played with a fair die, " + loaded + " with the loaded test die (--test-biased-die)\n");
  EXPECT_FALSE(std::filesystem::exists(dir.file("merged.h5")));

  const auto before = results_contents(loaded);
  const auto fair_resume = dicesim("run " + config + " --quiet --resume " + loaded);
  EXPECT_EQ(fair_resume.exit_code, 2) << fair_resume.out;
  EXPECT_EQ(fair_resume.out,
            loaded + ": was played with the loaded test die (--test-biased-die), this run with a fair die\n");
  const auto loaded_resume = dicesim("run " + config + " --quiet --test-biased-die --resume " + fair);
  EXPECT_EQ(loaded_resume.exit_code, 2) << loaded_resume.out;
  EXPECT_TRUE(results_contents(loaded) == before);
}

TEST(Games, UpToTenToTheFifteenAndNoFurther) {
  TempDir dir;
  const std::string config = dir.write("run.json", kConfig);
  EXPECT_EQ(dicesim("run " + config + " --games 1000000000000001 -o " + dir.file("x.h5")).exit_code, kExitBadInput);
  // 10^15 is accepted: stop it at once and look at what it planned.
  const pid_t pid = start({"run", config, "--games", "1e15", "-o", dir.file("big.h5"), "--quiet"});
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), kExitInterrupted);
  EXPECT_EQ(h5::Reader(dir.file("big.h5")).int_attribute("/", "games"), 1'000'000'000'000'000LL);
}

}  // namespace
}  // namespace dicesim
