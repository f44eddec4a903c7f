// Every string that leaves dicesim is safe for where it goes (issue 40): a
// forged name never drives the terminal, forges a line of output, breaks a
// CSV row or reaches a spreadsheet as a formula; quoted data is bounded; and
// the messages of the hostile audit say what happened.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <utility>

#include "app/exit_codes.h"
#include "config/json_input.h"
#include "config/terminal_text.h"
#include "results/csv.h"
#include "results/h5.h"
#include "results/results_file.h"
#include "results/run_state.h"
#include "results/summary.h"
#include "test_util.h"

namespace dicesim {
namespace {

using testing::dicesim;
using testing::TempDir;

// Every kind of hostile byte in valid UTF-8: what breaks a CSV row or starts
// a formula, CR and LF, an OSC title and a colour (ESC ... BEL), a tab, DEL
// and a C1 CSI.
const std::string kHostileUtf8 =
    "=1+2,\"x\"\r\n\x1b]0;owned\x07\x1b[31m\tforged\x7f\xc2\x9b"
    "2J";
// The same with bytes that are not UTF-8: a stray byte, an overlong '/'.
const std::string kHostile = kHostileUtf8 + "\xff\xc0\xaf";

// What may reach a terminal: no C0 control but the line feed, no DEL, no C1,
// and valid UTF-8 only. Checked byte by byte here, independently of
// terminal_text.
::testing::AssertionResult terminal_safe(const std::string& text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const std::size_t length = byte < 0x80                    ? 1
                               : byte >= 0xc2 && byte <= 0xdf ? 2
                               : byte >= 0xe0 && byte <= 0xef ? 3
                               : byte >= 0xf0 && byte <= 0xf4 ? 4
                                                              : 0;
    bool bad = (byte < 0x20 && byte != '\n') || byte == 0x7f || length == 0 || i + length > text.size();
    for (std::size_t j = 1; !bad && j < length; ++j) bad = (static_cast<unsigned char>(text[i + j]) & 0xc0) != 0x80;
    bad = bad || (byte == 0xc2 && static_cast<unsigned char>(text[i + 1]) <= 0x9f);  // C1
    if (bad)
      return ::testing::AssertionFailure()
             << "byte 0x" << std::hex << int(byte) << " at " << std::dec << i << " of: " << text;
    i += length - 1;
  }
  return ::testing::AssertionSuccess();
}

// The records of an RFC 4180 text; anything else (a quote inside an
// unquoted field, a bare CR, a missing final line feed) fails the test.
std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  const auto malformed = [&](const char* why) {
    ADD_FAILURE() << why << ": " << text;
    return rows;
  };
  std::vector<std::string> row;
  for (std::size_t i = 0; i < text.size(); ++i) {
    std::string field;
    if (text[i] == '"') {
      for (++i;; ++i) {
        if (i >= text.size()) return malformed("an unterminated quote");
        if (text[i] == '"' && (i + 1 >= text.size() || text[i + 1] != '"')) break;
        field += text[i];
        if (text[i] == '"') ++i;  // a doubled quote
      }
      ++i;
    } else {
      for (; i < text.size() && text[i] != ',' && text[i] != '\n'; ++i)
        if (text[i] == '"' || text[i] == '\r')
          return malformed("a quote or CR in an unquoted field");
        else
          field += text[i];
    }
    row.push_back(field);
    if (i >= text.size()) return malformed("no final line feed");
    if (text[i] != ',' && text[i] != '\n') return malformed("text after a closing quote");
    if (text[i] == '\n') rows.push_back(std::exchange(row, {}));
  }
  return rows;
}

// A CSV file dicesim wrote: every row as long as the header, and no field
// a spreadsheet would run (= + @ tab CR first; - only in a number).
void expect_safe_csv(const std::string& text, const std::string& what) {
  const auto rows = parse_csv(text);
  ASSERT_FALSE(rows.empty()) << what;
  for (const auto& row : rows) {
    EXPECT_EQ(row.size(), rows.front().size()) << what << ": " << text;
    for (const std::string& field : row) {
      if (field.empty()) continue;
      EXPECT_EQ(std::string("=+@\t\r").find(field[0]), std::string::npos) << what << ": " << field;
      if (field[0] == '-') {
        char* end = nullptr;
        std::strtod(field.c_str(), &end);
        EXPECT_EQ(*end, '\0') << what << ": a text field starting with -: " << field;
      }
    }
  }
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

constexpr const char* kConfig = R"J({"game": "battle", "rules": {"max_dice": 2, "goal": 8, "turns": "simultaneous"},
  "seed": 1, "games": 100,
  "strategies": [{"name": "=HYPERLINK(\"evil.example\",\"click\")", "family": "blind"},
                 {"name": "fixed ±1", "family": "fixed", "dice": 1}],
  "contests": {"distributions": true, "headtohead": true}})J";

TEST(TerminalText, EscapesEveryControlAndInvalidByteAndKeepsUtf8) {
  EXPECT_EQ(terminal_text("a\x1b]0;t\x07\r\n\tb\x7f"), "a\\x1b]0;t\\x07\\r\\n\\tb\\x7f");
  EXPECT_EQ(terminal_text("\xc2\x9b"
                          "2J \xc2\x85"),
            "\\xc2\\x9b2J \\xc2\\x85");                                                                   // C1
  EXPECT_EQ(terminal_text("\xff \xc3 \xc0\xaf \xed\xa0\x80"), "\\xff \\xc3 \\xc0\\xaf \\xed\\xa0\\x80");  // not UTF-8
  EXPECT_EQ(terminal_text("hold ±0.5, Zoë, 日本, \xf0\x9f\x8e\xb2, \\x1b"),
            "hold ±0.5, Zoë, 日本, \xf0\x9f\x8e\xb2, \\x1b");
  EXPECT_EQ(terminal_text(terminal_text(kHostile)), terminal_text(kHostile));  // the error printer escapes twice
  EXPECT_TRUE(terminal_safe(terminal_text(kHostile)));
}

TEST(TerminalText, QuotedDataIsBounded) {
  const std::string huge(4'000'000, 'k');
  EXPECT_EQ(quoted_text(huge), "\"" + std::string(kMostQuotedBytes, 'k') + "...\"");
  EXPECT_EQ(excerpt(std::string(79, 'a') + "±±"), std::string(79, 'a') + "...");  // never half a character
  EXPECT_EQ(quoted_text("games"), "\"games\"");
  EXPECT_EQ(json_terminal_text("{\"a\": \"\x7f\xc2\x9b±\xe2\x82\xac\"}"), "{\"a\": \"\\u007f\\u009b±\xe2\x82\xac\"}");
}

TEST(Csv, TextFieldsAreQuotedAndNeverFormulas) {
  EXPECT_EQ(csv_text("hold20"), "hold20");
  EXPECT_EQ(csv_text("=HYPERLINK(\"x\",\"y\")"), "\"'=HYPERLINK(\"\"x\"\",\"\"y\"\")\"");
  for (const char* formula : {"+1", "-1", "@SUM(A1)"}) EXPECT_EQ(csv_text(formula)[0], '\'') << formula;
  // Controls and bytes that are not UTF-8 are escaped as on a terminal: the file stays UTF-8, a record a line.
  EXPECT_EQ(csv_text("\t1"), "\\t1");
  EXPECT_EQ(csv_text("a\xff\x1b"), "a\\xff\\x1b");
  EXPECT_EQ(csv_text("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_text(" padded "), "\" padded \"");
  EXPECT_EQ(csv_text("two\nlines"), "two\\nlines");
  EXPECT_EQ(csv_row({csv_text("x"), "-0.25", ""}), "x,-0.25,\n");  // numbers are never prefixed
}

// The kind column of checks.csv was written unquoted: a forged kind made rows.
TEST(Csv, ChecksCsvQuotesTheKind) {
  const std::vector<Check> checks{{"a", kHostile, 0.5, 0.5, -0.25, 1.0}, {"b", "mean", 1, 1, 0, 1}};
  const auto rows = parse_csv(checks_csv(checks));
  ASSERT_EQ(rows.size(), 3u);
  for (const auto& row : rows) EXPECT_EQ(row.size(), 7u);
  const std::string escaped = terminal_text(kHostile);  // as every text field
  EXPECT_EQ(rows[1][1].substr(1), escaped);
  EXPECT_EQ(rows[1][1].front(), '\'');
  EXPECT_EQ(rows[1][4], "-0.25");
}

class OutputSafety : public ::testing::Test {
 protected:
  void SetUp() override {
    config = dir.write("small.json", kConfig);
    good = dir.file("good.h5");
    const auto made = dicesim("check " + config + " -o " + good + " --quiet");
    ASSERT_EQ(made.exit_code, 0) << made.out;
  }
  // A copy of the check's file named `name`, every string of it that the
  // checksums of /engine do not cover replaced by `value`, and re-sealed.
  std::string forged(const std::string& name, const std::string& value) const {
    const std::string path = dir.file(name);
    std::filesystem::copy_file(good, path);
    {
      const h5::Handle file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose, path);
      for (const char* attribute : {"program_version", "git_revision", "command", "name", "config_file"})
        set_string(file.get(), attribute, value);
      for (const char* dataset : {"/checks/name", "/checks/kind"}) overwrite_strings(file.get(), dataset, value);
    }
    testing::resign(path);
    return path;
  }
  static void set_string(hid_t file, const char* name, const std::string& value) {
    H5Adelete(file, name);
    const h5::Handle type(H5Tcopy(H5T_C_S1), H5Tclose, "type");
    H5Tset_size(type.get(), value.size());
    const h5::Handle space(H5Screate(H5S_SCALAR), H5Sclose, "space");
    const h5::Handle attr(H5Acreate2(file, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose, name);
    ASSERT_GE(H5Awrite(attr.get(), type.get(), value.data()), 0);
  }
  // Every element of a fixed-length string dataset: as much of value as fits, whole characters.
  static void overwrite_strings(hid_t file, const char* path, const std::string& value) {
    const h5::Handle d(H5Dopen2(file, path, H5P_DEFAULT), H5Dclose, path);
    const h5::Handle type(H5Dget_type(d.get()), H5Tclose, path);
    const h5::Handle space(H5Dget_space(d.get()), H5Sclose, path);
    const std::size_t size = H5Tget_size(type.get());
    std::size_t cut = std::min(size, value.size());
    while (cut < value.size() && cut > 0 && (static_cast<unsigned char>(value[cut]) & 0xc0) == 0x80) --cut;
    std::string element = value.substr(0, cut);
    element.resize(size, '\0');
    std::string all;
    for (hssize_t i = 0; i < H5Sget_simple_extent_npoints(space.get()); ++i) all += element;
    ASSERT_GE(H5Dwrite(d.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, all.data()), 0);
  }
  TempDir dir;
  std::string config, good;
};

// Forged names used to reach the terminal raw: the title, colours, a forged line.
TEST_F(OutputSafety, ShowEscapesForgedNames) {
  const std::string path = forged("forged.h5", kHostile);
  const auto shown = dicesim("show " + path);
  EXPECT_EQ(shown.exit_code, 0) << shown.out;
  EXPECT_TRUE(terminal_safe(shown.out));
  EXPECT_NE(shown.out.find("program version  =1+2,\"x\"\\r\\n\\x1b]0;owned\\x07"), std::string::npos) << shown.out;
}

// The rule, for every way out: show, show --json, show --csv, validate, list,
// run --dry-run and the errors, with a file, a config and names that hold
// every hostile byte. A new sink that skips the rules fails here.
TEST_F(OutputSafety, EveryOutputOfHostileInputIsTerminalSafeAndEveryCsvParses) {
  const std::string hostile_name = "f" + kHostileUtf8 + ".h5";
  std::ofstream(dir.file("name.txt")) << hostile_name;
  const std::string named = "\"$(cat " + dir.file("name.txt") + ")\"";
  for (const std::string& value : {kHostileUtf8, kHostile}) {
    std::filesystem::remove(dir.file(hostile_name));
    std::filesystem::copy_file(forged("f.h5", value), dir.file(hostile_name));
    std::filesystem::remove(dir.file("f.h5"));
    std::filesystem::remove_all(dir.file("csv"));
    for (const std::string& args : {"show " + named, "show --json " + named, "show " + named + " --csv csv"}) {
      const auto result = dicesim(args, dir.path().string());
      EXPECT_TRUE(terminal_safe(result.out)) << args;
    }
    EXPECT_EQ(dicesim("show --json " + named, dir.path().string()).exit_code,
              value == kHostileUtf8 ? kExitOk : kExitBadInput);  // JSON holds UTF-8 only
    ASSERT_TRUE(std::filesystem::exists(dir.file("csv/checks.csv")));
    for (const auto& csv : std::filesystem::directory_iterator(dir.file("csv")))
      expect_safe_csv(read_text(csv.path()), csv.path().filename().string());
  }
  // A config whose keys and values hold every hostile byte (as JSON escapes).
  const std::string escaped = json(kHostileUtf8).dump();
  const std::string bad_config = dir.write(
      "bad.json", "{\"game\": " + escaped + ", " + escaped + ": 1, \"games\": " + escaped + ", \"strategies\": []}");
  for (const std::string& args :
       {"validate " + bad_config, "run " + bad_config, "run --dry-run " + config, std::string("list"),
        "show " + named + ".missing", "run " + config + " --games " + named, "run " + config + " --shard " + named,
        "bench --games " + named, "validate " + named, "sh" + named}) {
    const auto result = dicesim(args, dir.path().string());
    EXPECT_TRUE(terminal_safe(result.out)) << args;
    if (args != "list" && args.find("dry-run") == std::string::npos) {
      EXPECT_NE(result.exit_code, kExitOk) << args << ": " << result.out;
    }
  }
}

// A strategy named as a formula reached strategies.csv as a live one.
TEST_F(OutputSafety, AStrategyNamedAsAFormulaIsTextInTheCsv) {
  ASSERT_EQ(dicesim("show " + good + " --csv " + dir.file("csv")).exit_code, 0);
  const auto rows = parse_csv(read_text(dir.file("csv/strategies.csv")));
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[1][0], "'=HYPERLINK(\"evil.example\",\"click\")");
  EXPECT_EQ(rows[2][0], "fixed ±1");  // UTF-8 kept
}

// One unknown 4 MB key took 8 s and 560 MB to refuse, in a 4 MB line.
TEST(Messages, AnUnknownHugeKeyIsRefusedAtOnceInAShortLine) {
  const json document = {{std::string(4'000'000, 'g') + "\x1b[2J", 1}};
  const auto start = std::chrono::steady_clock::now();
  try {
    JsonNode(document, "c.json").only_keys({"game", "games", "seed", "strategies", "contests"});
    FAIL() << "accepted";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_LT(message.size(), 400u) << message.substr(0, 400);
    EXPECT_TRUE(terminal_safe(message));
    EXPECT_NE(message.find("c.json: /ggg"), std::string::npos) << message;
  }
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 1.0);
}

// A key holding escape sequences and newlines was quoted raw in the error.
TEST(Messages, AHostileKeyIsQuotedEscapedInOneLine) {
  TempDir dir;
  std::string text = kConfig;
  text.replace(text.find("\"seed\""), 0, json(kHostileUtf8).dump() + ": 1, ");
  const std::string config = dir.write("c.json", text);
  for (const char* command : {"validate ", "run "}) {
    const auto result = dicesim(command + config);
    EXPECT_EQ(result.exit_code, kExitBadInput) << result.out;
    EXPECT_TRUE(terminal_safe(result.out));
    EXPECT_EQ(result.out.find('\n'), result.out.size() - 1) << "not one line: " << result.out;
    EXPECT_NE(result.out.find("/=1+2,\"x\"\\r\\n\\x1b]0;owned\\x07"), std::string::npos) << result.out;
  }
}

TEST(Messages, BenchGamesOutOfRangeSaysTheRange) {
  const auto result = dicesim("bench --games 1e18 --case nothing");
  EXPECT_EQ(result.exit_code, kExitBadInput);
  EXPECT_NE(result.out.find("--games: expected a whole number from 1 to 1e15, got \"1e18\""), std::string::npos)
      << result.out;
}

// A run's file written again as `info` says (its checksums recomputed).
std::string rewritten(const std::string& from, const std::string& to, RunInfo info) {
  RunState state = read_run_state(from, ReadFor::merge_or_resume);
  info.planned = state.planned;
  write_results(to, state.config, state.output, info, nullptr, nullptr);
  return to;
}

// --resume of a file holding shard "7/3" spoke of --shard, which no one gave.
TEST_F(OutputSafety, ResumeOfAFileWithABadStoredShardNamesTheFile) {
  const std::string path = rewritten(good, dir.file("shard.h5"), RunInfo{"run", 1, 1, {}, "7/3"});
  const auto result = dicesim("run " + config + " --resume " + path);
  EXPECT_EQ(result.exit_code, kExitBadInput) << result.out;
  EXPECT_NE(result.out.find(path + ": holds shard \"7/3\", which is not K/N"), std::string::npos) << result.out;
  EXPECT_EQ(result.out.find("--shard"), std::string::npos) << result.out;
}

// A check stopped during its exact solve: show and the summary JSON say so.
TEST_F(OutputSafety, ShowAndTheSummarySayTheExactSolveWasSkipped) {
  RunInfo info{"check", 1, 1, {}, ""};
  info.exact_skipped = true;
  const std::string path = rewritten(good, dir.file("skipped.h5"), info);
  const auto shown = dicesim("show " + path);
  EXPECT_NE(shown.out.find("exact skipped    true"), std::string::npos) << shown.out;
  EXPECT_NE(shown.out.find("exact checks     none: a stop request skipped"), std::string::npos) << shown.out;
  const json document = json::parse(dicesim("show --json " + path).out);
  EXPECT_EQ(document.at("run").at("exact_skipped"), true);
  EXPECT_EQ(json::parse(dicesim("show --json " + good).out).at("run").at("exact_skipped"), false);
}

// A file held open for writing (h5py, HDF5's tools: HDF5 locks it) was
// reported as "unreadable or truncated".
TEST_F(OutputSafety, AFileHeldOpenForWritingIsSaidSo) {
  const h5::Handle writer(H5Fopen(good.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose, good);
  const auto shown = dicesim("show " + good);
  EXPECT_EQ(shown.exit_code, kExitBadInput) << shown.out;
  EXPECT_NE(shown.out.find(good + ": is open for writing by another program (HDF5 file lock)"), std::string::npos)
      << shown.out;
}

}  // namespace
}  // namespace dicesim
