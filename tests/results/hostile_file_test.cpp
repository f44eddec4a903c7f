// Results files from elsewhere (issue 27): damaged, forged, or not files at
// all. show, merge and --resume read each or refuse it with one line naming
// it (exit 2): never a crash, a hang, a huge allocation or a stale lock.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/commands.h"
#include "app/exit_codes.h"
#include "engine/table.h"
#include "results/h5.h"
#include "results/results_layout.h"
#include "results/run_state.h"
#include "strategies/sweep.h"
#include "test_util.h"

namespace dicesim {
namespace {

using testing::dicesim;
using testing::TempDir;

constexpr const char* kConfig = R"J({"game": "battle", "rules": {"max_dice": 2, "goal": 8, "turns": "simultaneous"},
  "seed": 1, "games": 100,
  "strategies": [{"name": "blind", "family": "blind"}, {"name": "fixed(1)", "family": "fixed", "dice": 1}],
  "contests": {"distributions": true, "headtohead": true}})J";

// Refused with exit 2 and one line that names the file and says `what`.
void expect_refused(const testing::CommandResult& result, const std::string& file, const std::string& what) {
  EXPECT_EQ(result.exit_code, kExitBadInput) << result.out;
  EXPECT_EQ(result.out.find('\n'), result.out.size() - 1) << "not one line: " << result.out;
  EXPECT_NE(result.out.find(file), std::string::npos) << result.out;
  EXPECT_NE(result.out.find(what), std::string::npos) << result.out;
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

h5::Handle open_for_writing(const std::string& path) {
  return h5::Handle(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose, path);
}

// Adds `delta` to value `index` of a numeric dataset, leaving the checksums as they were.
template <class T>
void add_to(const std::string& path, const std::string& dataset, std::size_t index, T delta) {
  const h5::Handle file = open_for_writing(path);
  const h5::Handle d(H5Dopen2(file.get(), dataset.c_str(), H5P_DEFAULT), H5Dclose, dataset);
  const h5::Handle space(H5Dget_space(d.get()), H5Sclose, dataset);
  const hid_t memory = std::is_floating_point_v<T> ? H5T_NATIVE_DOUBLE : H5T_NATIVE_INT64;
  std::vector<T> values(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space.get())));
  ASSERT_GE(H5Dread(d.get(), memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0);
  values.at(index) += delta;
  ASSERT_GE(H5Dwrite(d.get(), memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0);
}

// Replaces a root attribute by an int64 array (a scalar when `values` has one value).
void set_int_attribute(const std::string& path, const std::string& name, const std::vector<std::int64_t>& values) {
  const h5::Handle file = open_for_writing(path);
  H5Adelete(file.get(), name.c_str());
  const hsize_t n = values.size();
  const h5::Handle space(n == 1 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &n, nullptr), H5Sclose, "space");
  const h5::Handle attr(H5Acreate2(file.get(), name.c_str(), H5T_STD_I64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT),
                        H5Aclose, name);
  ASSERT_GE(H5Awrite(attr.get(), H5T_NATIVE_INT64, values.data()), 0);
}

// Replaces a root attribute by a string of the given HDF5 string type.
void set_string_attribute(const std::string& path, const std::string& name, const std::string& value,
                          bool variable_length) {
  const h5::Handle file = open_for_writing(path);
  H5Adelete(file.get(), name.c_str());
  const h5::Handle type(H5Tcopy(H5T_C_S1), H5Tclose, "type");
  H5Tset_size(type.get(), variable_length ? H5T_VARIABLE : value.size());
  const h5::Handle space(H5Screate(H5S_SCALAR), H5Sclose, "space");
  const h5::Handle attr(H5Acreate2(file.get(), name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
                        H5Aclose, name);
  const char* pointer = value.c_str();
  ASSERT_GE(H5Awrite(attr.get(), type.get(), variable_length ? static_cast<const void*>(&pointer) : value.data()), 0);
}

class HostileFile : public ::testing::Test {
 protected:
  void SetUp() override {
    config = dir.write("small.json", kConfig);
    good = dir.file("good.h5");
    const auto made = dicesim("check " + config + " -o " + good + " --quiet");
    ASSERT_EQ(made.exit_code, 0) << made.out;
  }
  std::string copy_of(const std::string& from, const std::string& name) const {
    std::filesystem::copy_file(from, dir.file(name), std::filesystem::copy_options::overwrite_existing);
    return dir.file(name);
  }
  std::string old_file(const std::string& name) const {  // format 2.0: refused before any string is read
    return copy_of(testing::source_path("tests/format_1_1/same_run_0_2_0.h5"), name);
  }
  TempDir dir;
  std::string config, good;
};

// The hostile test of issue 27, in process: every 97th byte of a check's
// file flipped in turn, and the file read as show (with its summary), merge
// and resume read it. One flipped byte used to crash libhdf5 on its
// variable-length strings.
TEST_F(HostileFile, EveryFlippedByteIsReadOrRefused) {
  const std::string bytes = read_bytes(good);
  const std::string path = dir.file("flipped.h5");
  int refused = 0, tried = 0;
  for (std::size_t at = 0; at < bytes.size(); at += 97) {
    std::string flipped = bytes;
    flipped[at] = static_cast<char>(flipped[at] ^ 0x5a);
    write_bytes(path, flipped);
    ++tried;
    try {
      std::ostringstream out;
      show_command({path, false, ""}, out);
    } catch (const InputError& e) {
      ++refused;
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    } catch (const std::exception& e) {
      ADD_FAILURE() << "byte " << at << ": " << e.what();
    }
    try {
      read_run_state(path, ReadFor::merge_or_resume);
    } catch (const InputError&) {
    } catch (const std::exception& e) {
      ADD_FAILURE() << "byte " << at << ": " << e.what();
    }
  }
  EXPECT_GT(refused, tried / 4) << refused << " of " << tried;
}

// Numbers that merge and resume never read, but show and load() report,
// are covered by the content checksum.
TEST_F(HostileFile, AChangedReportedNumberIsAChecksumMismatch) {
  const std::string losses = copy_of(good, "losses.h5");
  add_to<std::int64_t>(losses, "/headtohead/losses", 0, -54);
  expect_refused(dicesim("show " + losses), losses, "checksum mismatch: the file was altered or damaged");
  const std::string z = copy_of(good, "z.h5");
  add_to<double>(z, "/checks/z", 0, 9.7e62);
  expect_refused(dicesim("show " + z), z, "checksum mismatch");
  expect_refused(dicesim("merge " + z + " -o " + dir.file("m.h5")), z, "checksum mismatch");
  const std::string threads = copy_of(good, "threads.h5");
  set_int_attribute(threads, "threads", {64});
  expect_refused(dicesim("show " + threads), threads, "checksum mismatch");
}

// A stored config that planning would refuse, or take long over: the
// checksums are checked first.
TEST_F(HostileFile, TheChecksumIsCheckedBeforeTheStoredConfigIsPlanned) {
  const std::string forged = R"J({"game": "battle", "seed": 1, "games": 100, "strategies": [], "no such key": 1})J";
  const std::string today = copy_of(good, "today.h5");
  set_string_attribute(today, "config", forged, false);
  expect_refused(dicesim("show " + today), today, "checksum mismatch");
}

// A forged dataset declaring 2^31 counters (no data stored) is refused at
// once, never allocated (the content checksum reads nothing the file cannot
// hold).
TEST_F(HostileFile, AHugeDeclaredDatasetIsRefusedAtOnce) {
  const auto forge = [&](const std::string& name, bool chunked) {
    const std::string path = copy_of(good, name);
    const h5::Handle file = open_for_writing(path);
    H5Ldelete(file.get(), "/engine/counters", H5P_DEFAULT);
    const hsize_t huge = hsize_t(1) << 31, chunk = 1 << 16;
    const h5::Handle space(H5Screate_simple(1, &huge, nullptr), H5Sclose, "space");
    const h5::Handle creation(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "list");
    if (chunked) {
      H5Pset_chunk(creation.get(), 1, &chunk);
      H5Pset_deflate(creation.get(), 4);
    } else {
      H5Pset_alloc_time(creation.get(), H5D_ALLOC_TIME_LATE);
    }
    const h5::Handle d(H5Dcreate2(file.get(), "/engine/counters", H5T_STD_I64LE, space.get(), H5P_DEFAULT,
                                  creation.get(), H5P_DEFAULT),
                       H5Dclose, "counters");
    return path;
  };
  for (const bool chunked : {false, true}) {
    const std::string path = forge(std::string("new") + (chunked ? "_chunked" : "") + ".h5", chunked);
    const auto start = std::chrono::steady_clock::now();
    const auto shown = dicesim("show " + path);
    expect_refused(shown, path, "/engine/counters");
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  }
}

// A FIFO (or anything but a regular file) is refused before it is opened:
// opening one would wait for a writer forever.
TEST_F(HostileFile, AFifoIsRefusedNotWaitedOn) {
  const std::string fifo = dir.file("fifo.h5");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string timeout = "timeout 20 ";
  expect_refused(testing::run_shell(timeout + DICESIM_BINARY + " show " + fifo), fifo, "is not a regular file");
  expect_refused(testing::run_shell(timeout + DICESIM_BINARY + " merge " + fifo + " -o " + dir.file("m.h5")), fifo,
                 "is not a regular file");
  expect_refused(testing::run_shell(timeout + DICESIM_BINARY + " run " + config + " --resume " + fifo + " -o " +
                                    dir.file("r.h5") + " --quiet"),
                 fifo, "is not a regular file");
  expect_refused(dicesim("show " + dir.path().string()), dir.path().string(), "is a directory");
  EXPECT_FALSE(std::filesystem::exists(dir.file("m.h5.lock")));
}

// A merge whose input is damaged leaves neither the output nor its lock.
TEST_F(HostileFile, AFailedMergeLeavesNoLockFile) {
  std::string bytes = read_bytes(good);
  bytes.resize(bytes.size() / 2);
  const std::string cut = dir.file("cut.h5");
  write_bytes(cut, bytes);
  const std::string out = dir.file("out.h5");
  expect_refused(dicesim("merge " + good + " " + cut + " -o " + out), cut, "unreadable or truncated");
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_FALSE(std::filesystem::exists(out + ".lock"));
}

// Odd attributes: exit 2 with the file named, never an internal error.
TEST_F(HostileFile, OddAttributesAreRefusedWithTheFileNamed) {
  const std::string scalar = copy_of(good, "scalar.h5");
  set_int_attribute(scalar, "format_version", {2});
  expect_refused(dicesim("show " + scalar), scalar, "format_version");
  // The content checksum sees any other first.
  const std::string today = copy_of(good, "today.h5");
  H5Adelete(open_for_writing(today).get(), "command");
  expect_refused(dicesim("show " + today), today, "checksum mismatch");
}

// JSON holds UTF-8 only: a file name that is not is refused, not an internal error.
TEST_F(HostileFile, ShowJsonRefusesAFileNameThatIsNotUtf8) {
  std::filesystem::copy_file(good, dir.path() / "bad\xff.h5");
  const auto shown = dicesim("show --json \"$(printf 'bad\\377.h5')\"", dir.path().string());
  EXPECT_EQ(shown.exit_code, kExitBadInput) << shown.out;
  // The name itself is printed escaped, as all text from data (terminal_text).
  EXPECT_NE(shown.out.find("bad\\xff.h5: --json: the file's name, or a name in it, is not valid UTF-8"),
            std::string::npos)
      << shown.out;
  EXPECT_EQ(dicesim("show \"$(printf 'bad\\377.h5')\"", dir.path().string()).exit_code, 0);
}

// Files of format 2.0 and older hold variable-length strings, on which a
// flipped byte crashed libhdf5 inside show (H5HG_read): every reader refuses
// them on their version, before any string is read, damaged or not.
TEST_F(HostileFile, FilesBeforeFormat3AreRefusedBeforeAnyStringIsRead) {
  const std::string old = old_file("old.h5");
  const std::string why = "written in results format 2.0, which this dicesim no longer reads; rerun the config";
  expect_refused(dicesim("merge " + old + " -o " + dir.file("m.h5")), old, why);
  expect_refused(dicesim("show " + old), old, why);
  const std::string bytes = read_bytes(old);
  const std::string path = dir.file("flipped_old.h5");
  for (std::size_t at = 0; at < bytes.size(); at += 61) {
    std::string flipped = bytes;
    flipped[at] = static_cast<char>(flipped[at] ^ 0x5a);
    write_bytes(path, flipped);
    try {
      std::ostringstream out;
      show_command({path, false, ""}, out);
      ADD_FAILURE() << "byte " << at << ": a file of format 2.0 was shown";
    } catch (const InputError&) {
    } catch (const std::exception& e) {
      ADD_FAILURE() << "byte " << at << ": " << e.what();
    }
  }
}

// A results file held open for writing by HDF5 (which then holds an
// exclusive flock on it) is said to be so, not unreadable or truncated.
TEST_F(HostileFile, AFileHeldOpenForWritingIsSaidToBe) {
  const int fd = ::open(good.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX), 0);
  expect_refused(dicesim("show " + good), good, "is open for writing by another program (HDF5 file lock)");
  ::close(fd);
  EXPECT_EQ(dicesim("show " + good).exit_code, 0);
}

// The layout the Python package checks its reads against is the one
// `dicesim schema --results-layout` prints, with the reader's own bounds.
TEST_F(HostileFile, TheShippedResultsLayoutIsWhatDicesimSchemaPrints) {
  const auto printed = dicesim("schema --results-layout");
  ASSERT_EQ(printed.exit_code, 0) << printed.out;
  EXPECT_TRUE(printed.out == read_bytes(testing::source_path("scripts/analysis/dicesim_analysis/results_layout.json")))
      << "the shipped layout differs from `dicesim schema --results-layout`: run build/dicesim schema "
         "--results-layout > scripts/analysis/dicesim_analysis/results_layout.json";
  const json layout = json::parse(printed.out);
  EXPECT_EQ(layout.at("format_version"), json::array({kFormatMajor, kFormatMinor}));
  EXPECT_EQ(layout.at("oldest_readable_major"), kOldestReadableMajor);
  EXPECT_EQ(layout.at("bounds").at("strategies"), kMaxStrategies);
  EXPECT_EQ(layout.at("bounds").at("seats"), kMaxSeats);
  EXPECT_EQ(layout.at("bounds").at("measures"), kMaxMeasures);
  EXPECT_EQ(layout.at("bounds").at("inflation"), kMostInflation);
}

// A variable-length string in a file of format 3 is refused before it is read.
TEST_F(HostileFile, AVariableLengthStringInTodaysFormatIsRefused) {
  const std::string path = copy_of(good, "variable.h5");
  set_string_attribute(path, "name", "small", true);
  expect_refused(dicesim("show " + path), path, "variable-length string");
}

// Every string is written fixed-length, and the content checksum is stored.
TEST_F(HostileFile, TodaysFilesHoldFixedLengthStringsOnly) {
  const h5::Reader file(good);
  EXPECT_EQ(file.string_attribute("/", h5::kContentChecksum), file.content_sha256());
  EXPECT_EQ(file.string_attribute("/", h5::kContentChecksum).size(), 64u);
  EXPECT_EQ(file.strings("/strategies/names", {1, 2}), (std::vector<std::string>{"blind", "fixed(1)"}));
  const auto dumped = testing::run_shell("h5dump -H " + good + " | grep -c H5T_VARIABLE");
  EXPECT_EQ(dumped.out, "0\n");
}

}  // namespace
}  // namespace dicesim
