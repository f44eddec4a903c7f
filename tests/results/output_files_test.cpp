// The one rule for the files a command writes (results/output_file.h): no
// path written is a path read, another path written or a lock, whatever its
// spelling; every path written is a missing or regular file named without
// control characters; a file name made from data passes file_name_problem.
// And the audit's defects of the same kind: merge's counts, the 10,000 win
// cache, forged stored configs refused before they are planned.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "app/exit_codes.h"
#include "config/json_input.h"
#include "engine/rng.h"
#include "results/h5.h"
#include "results/output_file.h"
#include "test_util.h"

namespace dicesim {
namespace {

using testing::dicesim;
using testing::TempDir;

const char* kPig = R"J({"game": "pig", "rules": {"dice": 1, "goal": 30}, "seed": 3, "games": 2000,
  "strategies": [{"name": "hold10", "family": "hold_at", "at": 10}, {"name": "hold15", "family": "hold_at", "at": 15}],
  "contests": {"distributions": true, "sequential": true}})J";

std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Refused before any work: exit 2, one line, naming `says`.
void expect_clash(const testing::CommandResult& result, const std::string& says) {
  EXPECT_EQ(result.exit_code, kExitBadInput) << result.out;
  EXPECT_EQ(std::count(result.out.begin(), result.out.end(), '\n'), 1) << result.out;
  EXPECT_NE(result.out.find(says), std::string::npos) << result.out;
}

TEST(OutputFiles, ShowCsvNeverReplacesTheFileItShows) {
  TempDir dir;
  const std::string config = dir.write("pig.json", kPig);
  std::filesystem::create_directories(dir.file("d"));
  const std::string shown = dir.file("d/run.csv");  // a results file named like one of the CSV files
  ASSERT_EQ(dicesim("run " + config + " -o " + shown + " --quiet").exit_code, kExitOk);
  const std::string before = contents(shown);
  expect_clash(dicesim("show " + shown + " --csv " + dir.file("d")), "which this command reads");
  EXPECT_EQ(contents(shown), before);
  // Under another spelling and through a link to the directory, too.
  std::filesystem::create_directory_symlink(dir.file("d"), dir.file("e"));
  expect_clash(dicesim("show " + shown + " --csv " + dir.file("e") + "/./"), "which this command reads");
  EXPECT_EQ(contents(shown), before);
  EXPECT_EQ(dicesim("show " + shown + " --csv " + dir.file("out")).exit_code, kExitOk);
}

TEST(OutputFiles, NoOutputIsAnotherOutputOrItsLock) {
  TempDir dir;
  const std::string config = dir.write("pig.json", kPig);
  const std::string out = dir.file("x.h5");
  expect_clash(dicesim("run " + config + " -o " + out + " --json " + out + ".lock"), "the lock of the results file");
  expect_clash(dicesim("run " + config + " -o " + out + " --json " + out),
               "every file written needs a name of its own");
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_FALSE(std::filesystem::exists(out + ".lock"));
  // A hard link to the config is the config.
  std::filesystem::create_hard_link(config, dir.file("alias.json"));
  expect_clash(dicesim("run " + config + " -o " + dir.file("alias.json")), "which this command reads");
  expect_clash(dicesim("run " + config + " -o " + out + " --json " + dir.file("alias.json")), "the config");
  EXPECT_EQ(contents(config), kPig);
}

// --resume continues the file in place whatever -o calls it; a dry run still
// checks --json.
TEST(OutputFiles, AResumeInPlaceUnderAnotherNameAndADryRunsJson) {
  TempDir dir;
  const std::string config = dir.write("pig.json", kPig);
  const std::string out = dir.file("r.h5");
  ASSERT_EQ(dicesim("run " + config + " --shard 1/2 -o " + out + " --quiet").exit_code, kExitOk);
  for (const std::string& spelled : {std::string("./r.h5"), dir.file("r.h5"), dir.path().string() + "/./r.h5"}) {
    const auto resumed = dicesim("run " + config + " --resume r.h5 -o " + spelled + " --quiet", dir.path().string());
    EXPECT_EQ(resumed.exit_code, kExitOk) << spelled << ": " << resumed.out;
  }
  expect_clash(dicesim("run " + config + " --dry-run --json " + config), "which this command reads");
  const auto missing = dicesim("run " + config + " --dry-run --json " + dir.file("no/such/dir/s.json"));
  EXPECT_EQ(missing.exit_code, kExitBadInput) << missing.out;
}

TEST(OutputFiles, AJsonPathThatCannotBeWrittenIsRefusedBeforeTheRun) {
  TempDir dir;
  const std::string config = dir.write("pig.json", kPig);
  for (const std::string& json : {std::string("/dev/full"), dir.path().string()}) {
    const auto result = dicesim("run " + config + " -o " + dir.file("x.h5") + " --games 1e14 --json " + json);
    expect_clash(result, json);  // at once: 1e14 games would take days
    EXPECT_FALSE(std::filesystem::exists(dir.file("x.h5")));
  }
}

TEST(OutputFiles, ControlCharactersInAPathWrittenAreRefused) {
  TempDir dir;
  const std::string config = dir.write("pig.json", kPig);
  // printf makes the names (the shell is sh): a newline, an escape.
  const std::string d = dir.path().string();
  expect_clash(dicesim("run " + config + " -o \"$(printf '%s/a\\nb.h5' " + d + ")\""), "control characters");
  expect_clash(
      dicesim("run " + config + " -o " + dir.file("a.h5") + " --json \"$(printf '%s/s\\033.json' " + d + ")\""),
      "control characters");
  EXPECT_FALSE(std::filesystem::exists(dir.file("a.h5")));
}

TEST(OutputFiles, TheStemOfAConfigWithoutANamePassesTheFileNameRule) {
  TempDir dir;
  json config = json::parse(kPig);
  const std::string hidden = dir.write(".hidden.json", config.dump());
  const std::string dash = dir.write("-x.json", config.dump());
  for (const std::string& path : {hidden, dash}) {
    const auto result = dicesim("run " + path, dir.path().string());
    expect_clash(result, "cannot name the results file");
    EXPECT_FALSE(std::filesystem::exists(dir.file("results")));
  }
  const std::string newline = dir.file("nl\nx.json");
  std::ofstream(newline) << config.dump();
  expect_clash(dicesim("run \"$(printf '%s/nl\\nx.json' " + dir.path().string() + ")\"", dir.path().string()),
               "control characters");
  EXPECT_EQ(dicesim("run " + hidden + " -o " + dir.file("ok.h5") + " --quiet").exit_code, kExitOk);
  config["name"] = "fine";
  const std::string named = dir.write(".named.json", config.dump());
  EXPECT_EQ(dicesim("run " + named + " --quiet", dir.path().string()).exit_code, kExitOk);
  EXPECT_TRUE(std::filesystem::exists(dir.file("results/fine.h5")));
}

TEST(OutputFiles, FileNamesMadeFromDataPassOneRule) {
  for (const char* ok : {"sixers", "pig two dice", "dv(2,2)", "é"}) EXPECT_FALSE(file_name_problem(ok)) << ok;
  for (const std::string& bad :
       {std::string(), std::string(".h"), std::string("-rf"), std::string("a/b"), std::string("a\\b"),
        std::string("a\nb"), std::string("a\x1b[31m"), std::string("a\xc2\x85"), std::string(201, 'x')})
    EXPECT_TRUE(file_name_problem(bad)) << bad;
}

// Every source file that writes a file (write_file_atomically) either checks
// its paths with OutputFiles or is listed here with why it need not: a new
// writer that skips the rule fails this test.
TEST(OutputFiles, EveryWriterChecksItsPaths) {
  const std::map<std::string, std::string> exempt = {
      {"sim/engine/files.cpp", "the writer itself"},
      {"sim/results/h5_writer.cpp", "the results writer: run, check and merge hold OutputFiles for its path"},
      {"sim/games/tenk/tenk_win_cache.cpp",
       "the solved game's cache: a name of its own in the cache directory, which solve --policy-csv lists as read"},
  };
  const std::regex writes("write_file_atomically\\(");
  for (const auto& entry : std::filesystem::recursive_directory_iterator(testing::source_path("sim"))) {
    if (entry.path().extension() != ".cpp") continue;
    const std::string text = contents(entry.path().string());
    if (!std::regex_search(text, writes)) continue;
    const std::string relative = std::filesystem::relative(entry.path(), testing::source_path("")).string();
    if (exempt.count(relative)) continue;
    EXPECT_NE(text.find("OutputFiles"), std::string::npos)
        << relative << " writes files without OutputFiles: check its paths, or list it here with the reason";
  }
}

// Writes `values` over a 1-D int64 dataset (same size).
void write_int64s(const std::string& path, const std::string& dataset, const std::vector<std::int64_t>& values) {
  const h5::Handle file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose, path);
  const h5::Handle d(H5Dopen2(file.get(), dataset.c_str(), H5P_DEFAULT), H5Dclose, dataset);
  ASSERT_GE(H5Dwrite(d.get(), H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0);
}

// Replaces a string attribute of `object` by a fixed-length one.
void write_string_attribute(const std::string& path, const std::string& object, const std::string& name,
                            const std::string& value) {
  const h5::Handle file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose, path);
  const h5::Handle group(H5Oopen(file.get(), object.c_str(), H5P_DEFAULT), H5Oclose, object);
  H5Adelete(group.get(), name.c_str());
  const h5::Handle type(H5Tcopy(H5T_C_S1), H5Tclose, "type");
  H5Tset_size(type.get(), value.size());
  const h5::Handle space(H5Screate(H5S_SCALAR), H5Sclose, "space");
  const h5::Handle attr(H5Acreate2(group.get(), name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
                        H5Aclose, name);
  ASSERT_GE(H5Awrite(attr.get(), type.get(), value.data()), 0);
}

// A forger's file: /engine's checksum and the content checksum recomputed
// after an edit (as sim/results/README.md's "Checksums and trust" describes them),
// so that the file counts as intact and only its meaning can refuse it.
void reseal(const std::string& path) {
  std::string text;
  {
    const h5::Reader r(path);
    const json document = json::parse(r.string_attribute("/", "config"));
    Fnv1a hash;
    hash.add_bytes(document.dump() + "|" + r.string_attribute("/", "seed_text") + "|" +
                   std::to_string(r.int_attribute("/", "games")) + "|" + r.string_attribute("/engine", "shard"));
    for (const char* dataset : {"/engine/counters", "/engine/done", "/engine/planned"})
      for (std::int64_t v : r.int64s(dataset, h5::kAnyShape)) hash.add_word(static_cast<std::uint64_t>(v));
    std::ostringstream hex;
    hex << std::hex << hash.value();
    text = hex.str();
  }
  write_string_attribute(path, "/engine", "checksum", text);
  testing::resign(path);
}

// The two shards of a small run, a.h5 and b.h5.
struct Shards {
  Shards() {
    for (const auto& [shard, path] : {std::pair{"1/2", a}, std::pair{"2/2", b}}) {
      const auto made = dicesim("run " + config + " --shard " + shard + " -o " + path + " --quiet");
      EXPECT_EQ(made.exit_code, kExitOk) << made.out;
    }
  }
  TempDir dir;
  std::string config = dir.write("pig.json", kPig), a = dir.file("a.h5"), b = dir.file("b.h5");
};

// Two shards whose counts each pass every check but whose sum passes 2^63 - 1
// (a count no check bounds: the tie games of the first table) are refused.
TEST(OutputFiles, MergeRefusesCountsThatWouldOverflow) {
  const Shards shards;
  const std::string &a = shards.a, &b = shards.b;
  const TempDir& dir = shards.dir;
  for (const std::string& shard : {a, b}) {
    std::vector<std::int64_t> counters = h5::Reader(shard).int64s("/engine/counters", h5::kAnyShape);
    const std::vector<std::int64_t> offsets = h5::Reader(shard).int64s("/engine/offsets", h5::kAnyShape);
    counters.at(std::size_t(offsets.at(1)) - 1) = (std::int64_t(1) << 62) + 7;  // table 0's tie games
    write_int64s(shard, "/engine/counters", counters);
    reseal(shard);
    ASSERT_EQ(dicesim("show " + shard).exit_code, kExitOk) << "each shard alone passes every check";
  }
  const auto merged = dicesim("merge " + a + " " + b + " -o " + dir.file("m.h5"));
  expect_clash(merged, "pass 2^63 - 1");
  EXPECT_FALSE(std::filesystem::exists(dir.file("m.h5")));
}

// merge and --resume compare a file's stored config with the run's before
// planning it (a forged stored config may take seconds and GiB to plan).
TEST(OutputFiles, AForgedStoredConfigIsComparedBeforeItIsPlanned) {
  const Shards shards;
  const std::string &config = shards.config, &a = shards.a, &b = shards.b;
  const TempDir& dir = shards.dir;
  json heavy = json::parse(kPig);
  heavy["strategies"] = json::array({{{"family", "hold_at"}, {"at", {{"from", 1}, {"to", 30}}}}});
  heavy["contests"] = {{"distributions", false}, {"sequential", true}};
  heavy["no such key"] = 1;  // planned, it would be refused for this key instead
  write_string_attribute(b, "/", "config", heavy.dump());
  reseal(b);
  expect_clash(dicesim("merge " + a + " " + b + " -o " + dir.file("m.h5")), "not from the same run as " + a);
  expect_clash(dicesim("run " + config + " --resume " + b + " -o " + dir.file("r.h5")), "not from the same run");
}

}  // namespace
}  // namespace dicesim
