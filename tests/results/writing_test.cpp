// Nothing is lost when dicesim writes: every file goes through an exclusive
// temporary renamed when complete (engine/files.h), a name too long for its
// temporary is refused before playing, a merge never replaces its input, and
// a failed write (standard output included) is exit 3 with its reason.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "app/exit_codes.h"
#include "engine/files.h"
#include "test_util.h"

namespace dicesim {
namespace {

using testing::dicesim;
using testing::TempDir;

// Two strategies, one table: a run of 1000 games takes a moment.
const char* kPigConfig = R"J({
  "game": "pig", "rules": {"dice": 1, "goal": 100}, "seed": 3, "games": 1000,
  "strategies": [{"name": "hold20", "family": "hold_at", "at": 20}, {"name": "hold25", "family": "hold_at", "at": 25}],
  "contests": {"distributions": true}
})J";

std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Names in `dir` that look like a temporary left behind.
int temporaries_in(const std::filesystem::path& dir) {
  int found = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
    found += entry.path().filename().string().find(".tmp.") != std::string::npos;
  return found;
}

// A system failure: exit 3 and exactly one line saying `says`.
void expect_failed_write(const testing::CommandResult& result, const std::string& says) {
  EXPECT_EQ(result.exit_code, kExitInternal) << result.out;
  EXPECT_EQ(std::count(result.out.begin(), result.out.end(), '\n'), 1) << result.out;
  EXPECT_NE(result.out.find(says), std::string::npos) << result.out;
}

// Files larger than `bytes` cannot be written while this lives (EFBIG, as on
// a full disk); SIGXFSZ is ignored as dicesim's main does.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    ::getrlimit(RLIMIT_FSIZE, &saved_);
    previous_ = std::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{bytes, saved_.rlim_max};
    ::setrlimit(RLIMIT_FSIZE, &limit);
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &saved_);
    std::signal(SIGXFSZ, previous_);
  }

 private:
  rlimit saved_;
  void (*previous_)(int);
};

TEST(Writing, AFileIsReplacedWholeOrNotAtAll) {
  TempDir dir;
  const std::string path = dir.file("out.txt");
  write_file_atomically(path, "first\n");
  write_file_atomically(path, "second\n");
  EXPECT_EQ(contents(path), "second\n");

  {  // a failed write leaves the old file and no temporary, and says why
    const FileSizeLimit limit(4);
    try {
      write_file_atomically(path, "third, too long\n");
      ADD_FAILURE() << "no error";
    } catch (const FileError& e) {
      EXPECT_NE(std::string(e.what()).find("File too large"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(contents(path), "second\n");
  EXPECT_EQ(temporaries_in(dir.path()), 0);

  // A symbolic link is never written through, nor replaced.
  const std::string target = dir.write("target", "kept");
  std::filesystem::create_symlink(target, dir.file("link"));
  EXPECT_THROW(write_file_atomically(dir.file("link"), "x"), FileError);
  EXPECT_EQ(contents(target), "kept");
  EXPECT_TRUE(std::filesystem::is_symlink(dir.file("link")));

  EXPECT_THROW(check_temporary_creatable(dir.file(std::string(250, 'n'))), FileError);
  EXPECT_THROW(write_file_atomically(dir.file("missing/out.txt"), "x"), FileError);
  EXPECT_EQ(temporaries_in(dir.path()), 0);
}

// The temporary results file had a predictable name (OUT.tmp.PID) and was
// opened following symbolic links: one planted there had its target
// overwritten. `exec` keeps the shell's PID, which plants the link.
TEST(Writing, ALinkPlantedAtTheOldTemporaryNameIsNotFollowed) {
  TempDir dir;
  const std::string config = dir.write("pig.json", kPigConfig);
  const std::string target = dir.write("target", "kept");
  const std::string out = dir.file("out.h5");
  const auto result = testing::run_shell("ln -s " + target + " " + out + ".tmp.$$ && exec " DICESIM_BINARY " run " +
                                         config + " -o " + out + " --quiet");
  EXPECT_EQ(result.exit_code, kExitOk) << result.out;
  EXPECT_EQ(contents(target), "kept");
  EXPECT_TRUE(std::filesystem::is_regular_file(std::filesystem::symlink_status(out)));
}

// The longest name a write creates is its temporary: a name the lock file
// fits in but the temporary does not is refused before playing.
TEST(Writing, AnOutputNameTooLongForItsTemporaryIsRefusedBeforePlaying) {
  TempDir dir;
  const std::string config = dir.write("pig.json", kPigConfig);
  const auto refused = dicesim("run " + config + " -o " + dir.file(std::string(250, 'n')) + " --games 1e6 --quiet");
  EXPECT_EQ(refused.exit_code, kExitBadInput) << refused.out;
  EXPECT_NE(refused.out.find("File name too long"), std::string::npos) << refused.out;
  EXPECT_EQ(std::count(refused.out.begin(), refused.out.end(), '\n'), 1) << refused.out;
  EXPECT_EQ(temporaries_in(dir.path()), 0);
  // The longest name whose temporary (".tmp." and 16 digits) still fits.
  const std::string longest = dir.file(std::string(255 - 21, 'n'));
  EXPECT_EQ(dicesim("run " + config + " -o " + longest + " --quiet").exit_code, kExitOk);
  EXPECT_TRUE(std::filesystem::is_regular_file(longest));
}

TEST(Writing, AFailedWriteToStandardOutputIsExit3) {
  TempDir dir;
  const std::string config = dir.write("pig.json", kPigConfig);
  const std::string results = dir.file("r.h5");
  ASSERT_EQ(dicesim("run " + config + " -o " + results + " --quiet").exit_code, kExitOk);
  const std::vector<std::string> commands{"list",
                                          "validate " + config,
                                          "run " + config + " -o " + dir.file("again.h5") + " --quiet",
                                          "show " + results + " --json",
                                          "show " + results,
                                          "solve pig --dice 1 --turns 2"};
  for (const std::string& command : commands)
    expect_failed_write(testing::run_shell("{ " DICESIM_BINARY " " + command + " > /dev/full; }"),
                        "writing standard output failed");
}

TEST(Writing, AMergeNeverReplacesOneOfItsInputs) {
  TempDir dir;
  const std::string config = dir.write("pig.json", kPigConfig);
  const std::string first = dir.file("s1.h5"), second = dir.file("s2.h5");
  ASSERT_EQ(dicesim("run " + config + " --shard 1/2 -o " + first + " --quiet").exit_code, kExitOk);
  ASSERT_EQ(dicesim("run " + config + " --shard 2/2 -o " + second + " --quiet").exit_code, kExitOk);
  const std::string before = contents(first);
  std::filesystem::create_hard_link(first, dir.file("same.h5"));
  for (const std::string& output : {first, dir.path().string() + "/./s1.h5", dir.file("same.h5")}) {
    const auto result = dicesim("merge " + first + " " + second + " -o " + output);
    EXPECT_EQ(result.exit_code, kExitBadInput) << result.out;
    EXPECT_NE(result.out.find("refusing to overwrite it"), std::string::npos) << result.out;
  }
  EXPECT_EQ(contents(first), before);
}

// show --csv: every file complete or absent, a failure exit 3 with its
// reason, and a link in the directory never written through.
TEST(Writing, ShowCsvWritesWholeFilesOrFailsWithTheReason) {
  TempDir dir;
  const std::string config = dir.write("pig.json", kPigConfig);
  const std::string results = dir.file("r.h5");
  ASSERT_EQ(dicesim("run " + config + " -o " + results + " --quiet").exit_code, kExitOk);
  ASSERT_EQ(dicesim("show " + results + " --csv " + dir.file("whole")).exit_code, kExitOk);

  // /proc: a file system where nothing can be created, even by root.
  expect_failed_write(dicesim("show " + results + " --csv /proc/self/csv"), "cannot create the directory");
  // A directory where no temporary can be created: refused before any file is written (OutputFiles).
  const auto in_proc = dicesim("show " + results + " --csv /proc/self");
  EXPECT_EQ(in_proc.exit_code, kExitBadInput) << in_proc.out;
  EXPECT_NE(in_proc.out.find("No such file or directory"), std::string::npos) << in_proc.out;

  // A full disk (a file size limit of 0: no byte can be written).
  const auto limited =
      testing::run_shell("ulimit -f 0 && exec " DICESIM_BINARY " show " + results + " --csv " + dir.file("limited"));
  expect_failed_write(limited, "File too large");
  for (const auto& entry : std::filesystem::directory_iterator(dir.file("limited")))
    EXPECT_EQ(contents(entry.path().string()), contents(dir.file("whole/") + entry.path().filename().string()))
        << entry.path();
  EXPECT_EQ(temporaries_in(dir.path()), 0);

  const std::string target = dir.write("target", "kept");
  std::filesystem::create_directory(dir.file("linked"));
  std::filesystem::create_symlink(target, dir.file("linked/run.csv"));
  EXPECT_EQ(dicesim("show " + results + " --csv " + dir.file("linked")).exit_code, kExitBadInput);  // before writing
  EXPECT_EQ(contents(target), "kept");
}

// merge reads its inputs one at a time: its peak memory does not grow with
// their number (each holds its config's compiled strategies: tens of MB for
// a sweep of a hundred 10,000 strategies).
TEST(Writing, MergeMemoryDoesNotGrowWithTheNumberOfInputs) {
  if (!std::filesystem::exists("/usr/bin/time")) GTEST_SKIP() << "no /usr/bin/time";
  TempDir dir;
  const std::string config = dir.write("sweep.json", R"J({
    "game": "tenk", "rules": {"preset": "game_of_dice"}, "seed": 14, "games": 600,
    "strategies": [{"name": "bank{total}", "family": "bank_at", "total": {"from": 350, "to": 10000, "step": 50}},
                   {"name": "ev", "family": "ev_heuristic"}],
    "contests": {"distributions": false, "against": {"players": ["bank{total}"], "opponents": ["ev"]}}})J");
  constexpr int kShards = 4;
  std::string shards;
  for (int k = 1; k <= kShards; ++k) {
    shards += " " + dir.file("s" + std::to_string(k) + ".h5");
    ASSERT_EQ(dicesim("run " + config + " --quiet --shard " + std::to_string(k) + "/" + std::to_string(kShards) +
                      " -o " + dir.file("s" + std::to_string(k) + ".h5"))
                  .exit_code,
              kExitOk);
  }
  const auto peak_kib = [&](const std::string& inputs) {
    const auto result = testing::run_shell("{ /usr/bin/time -f 'peak %M' " DICESIM_BINARY " merge" + inputs + " -o " +
                                           dir.file("m.h5") + " > /dev/null; }");
    EXPECT_NE(result.out.find("peak "), std::string::npos) << result.out;
    return std::stol(result.out.substr(result.out.rfind("peak ") + 5));
  };
  const long two = peak_kib(" " + dir.file("s1.h5") + " " + dir.file("s2.h5"));
  const long all = peak_kib(shards);
  EXPECT_LT(all, two + 10 * 1024) << "KiB: 2 inputs " << two << ", " << kShards << " inputs " << all;
}

}  // namespace
}  // namespace dicesim
