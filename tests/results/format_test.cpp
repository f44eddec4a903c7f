// Files of results formats 1.1 and 2.0 (tests/format_1_1, written by the
// last dicesims of those formats) hold variable-length strings, on which a
// damaged file can crash libhdf5: show, merge and resume refuse them on
// their version alone, saying how to get a file this dicesim reads.
#include <gtest/gtest.h>

#include <filesystem>

#include "results/results_file.h"
#include "test_util.h"

namespace dicesim {
namespace {

using testing::dicesim;
using testing::TempDir;

// A directory holding copies of the old files and of their config, under
// the name the files record (`config_file`).
class OldFormats : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : {"old_format.json", "check.h5", "partial_merge.h5", "same_run_0_2_0.h5"})
      std::filesystem::copy_file(testing::source_path("tests/format_1_1/") + name, dir.file(name));
    for (const char* name : {"check.h5", "partial_merge.h5"})
      ASSERT_EQ(h5::Reader(dir.file(name)).int_array_attribute("/", "format_version", 2),
                (std::vector<std::int64_t>{1, 1}));
  }
  void expect_refused(const std::string& args, const std::string& file, const std::string& version) {
    const auto result = dicesim(args, dir.path().string());
    EXPECT_EQ(result.exit_code, 2) << args << "\n" << result.out;
    EXPECT_NE(result.out.find(file + ": written in results format " + version +
                              ", which this dicesim no longer reads; rerun the config with this dicesim"),
              std::string::npos)
        << result.out;
  }
  TempDir dir;
};

TEST_F(OldFormats, ShowMergeAndResumeRefuseThemWithTheWayOut) {
  expect_refused("show check.h5", "check.h5", "1.1");
  expect_refused("show same_run_0_2_0.h5", "same_run_0_2_0.h5", "2.0");
  expect_refused("show --json same_run_0_2_0.h5", "same_run_0_2_0.h5", "2.0");
  expect_refused("merge partial_merge.h5 -o merged.h5", "partial_merge.h5", "1.1");
  expect_refused("run old_format.json --resume partial_merge.h5 --quiet", "partial_merge.h5", "1.1");
  EXPECT_FALSE(std::filesystem::exists(dir.file("merged.h5")));
  // The way out works: today's dicesim runs the config again.
  EXPECT_EQ(dicesim("check old_format.json -o today.h5 --quiet", dir.path().string()).exit_code, 0);
  EXPECT_EQ(dicesim("show today.h5", dir.path().string()).exit_code, 0);
}

}  // namespace
}  // namespace dicesim
