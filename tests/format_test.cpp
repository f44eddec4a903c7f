// Files of results format 1.1 (tests/format_1_1, written by the last dicesim
// of that format) still read: show summarises them as it does today's file
// of the same run; merge and resume refuse them, as files of an older format
// (and of another dicesim version).
#include <gtest/gtest.h>

#include <filesystem>

#include "results/results_file.h"
#include "test_util.h"

namespace dicesim {
namespace {

using testing::dicesim;
using testing::same_results;
using testing::TempDir;

// A directory holding copies of the 1.1 files and of their config, under
// the name the files record (`config_file`), so that today's runs of it
// record the same.
class Format1_1 : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : {"old_format.json", "check.h5", "partial_merge.h5", "same_run_0_2_0.h5"})
      std::filesystem::copy_file(testing::source_path("tests/format_1_1/") + name, dir.file(name));
    for (const char* name : {"check.h5", "partial_merge.h5"})
      ASSERT_EQ(h5::Reader(dir.file(name)).int_array_attribute("/", "format_version", 2),
                (std::vector<std::int64_t>{1, 1}));
  }
  void expect_ok(const std::string& args) {
    const auto result = dicesim(args, dir.path().string());
    EXPECT_EQ(result.exit_code, 0) << args << "\n" << result.out;
  }
  TempDir dir;
};

// dicesim 0.2.0 changed how Sixers and 10,000 draw from their streams, and
// 0.3.0 how Pig and Dice Battle do (see sim/README.md, "Streams by version"), so files of 0.1.0
// cannot be continued bit for bit; and merge and resume read only files of
// format 3 (variable-length strings and no content checksum before): they
// refuse them. (Until 0.2.0 these tests merged and resumed this file into
// today's results.)
TEST_F(Format1_1, MergeAndResumeRefuseAFileOfAnotherDicesimVersion) {
  expect_ok("run old_format.json --shard 2/2 -o s2.h5 --quiet");
  for (const char* args :
       {"merge partial_merge.h5 s2.h5 -o merged.h5", "run old_format.json --resume partial_merge.h5 --quiet"}) {
    const auto result = dicesim(args, dir.path().string());
    EXPECT_EQ(result.exit_code, 2) << args << "\n" << result.out;
    EXPECT_NE(result.out.find("format_version 1.1: merge and resume read files of format 3 only"), std::string::npos)
        << result.out;
  }
  EXPECT_FALSE(std::filesystem::exists(dir.file("merged.h5")));
}

// same_run_0_2_0.h5 is the same run in format 2.0, written by dicesim
// 0.2.0, the last to draw Dice Battle's streams as 0.1.0 did.
TEST_F(Format1_1, ShowSummarisesItAsTheSameRunInFormat2) {
  const auto old = dicesim("show check.h5", dir.path().string());
  const auto same = dicesim("show same_run_0_2_0.h5", dir.path().string());
  ASSERT_EQ(old.exit_code, 0) << old.out;
  ASSERT_EQ(same.exit_code, 0) << same.out;
  EXPECT_NE(old.out.find("1.1"), std::string::npos) << old.out;
  EXPECT_NE(same.out.find("2.0"), std::string::npos) << same.out;
  // The facts differ (format and program versions); the summary does not.
  ASSERT_NE(old.out.find("\n\n"), std::string::npos) << old.out;
  EXPECT_EQ(old.out.substr(old.out.find("\n\n")), same.out.substr(same.out.find("\n\n")));
}

}  // namespace
}  // namespace dicesim
