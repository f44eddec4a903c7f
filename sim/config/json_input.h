// config/: reading hostile JSON input (errors that name the file and the JSON path), and the did-you-mean of every
// name.
//
// may include: nothing else
//
// Reading JSON input with errors that name the file and the JSON path:
//   sixers.json: /strategies/2/per_roll/0: expected an integer from 0 to 6, got "two"
#pragma once

#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace dicesim {

using json = nlohmann::json;

// Bad input: the message is the whole one-line report.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The largest JSON file dicesim reads: configs are a few kilobytes.
constexpr std::size_t kMaxJsonFileBytes = 4 << 20;

// Parses a JSON file; a syntax error reports "file:line:column: ...". Only a
// regular file of at most kMaxJsonFileBytes is read (not a directory, device
// or FIFO); an unreadable one is an InputError with the reason.
json parse_json_file(const std::string& file);
// Also in parse_json_text: an integer written with an exponent (1e6, 2.5e6)
// is read as an integer, so counts may be written that way; 2.0 stays a
// floating-point number, which an integer key accepts as the integer it
// denotes. A NUL byte is refused (the parser would stop there). Error
// messages echo a number as it was written ("-1e1", not -10.0).
json parse_json_text(const std::string& text, const std::string& source_name);

// A JSON value together with where it came from.
class JsonNode {
 public:
  JsonNode(const json& value, std::string file, std::string path = "")
      : value_(&value), file_(std::move(file)), path_(std::move(path)) {}

  const json& value() const { return *value_; }
  const std::string& path() const { return path_.empty() ? root_path_ : path_; }
  const std::string& file() const { return file_; }

  [[noreturn]] void fail(const std::string& message) const;

  // Objects. Every object should call only_keys so that typos are reported.
  void only_keys(std::initializer_list<std::string_view> allowed) const;
  void only_keys(const std::vector<std::string_view>& allowed) const;
  bool has(const std::string& key) const;
  JsonNode at(const std::string& key) const;  // required
  std::optional<JsonNode> find(const std::string& key) const;

  // Arrays.
  std::vector<JsonNode> elements(std::size_t min_size = 0) const;

  // Scalars, checked. An integer may be written as a floating-point number
  // that denotes it exactly (2.0, -1e15).
  std::int64_t integer(std::int64_t lo, std::int64_t hi) const;
  std::uint64_t unsigned_integer(std::uint64_t lo, std::uint64_t hi) const;
  std::string string() const;
  bool boolean() const;

  // The value as the file wrote it (a number's own text), shortened: for
  // "got ..." in messages.
  std::string written() const;

 private:
  std::optional<std::string> written_number() const;
  std::optional<std::int64_t> written_integer() const;
  static inline const std::string root_path_ = "/";
  const json* value_;
  std::string file_;
  std::string path_;
};

// `dicesim validate` reports every error of a config, `run` only the first.
// While an ErrorCollector lives (on this thread), independently(read) records
// an InputError thrown by read and returns false instead of throwing; without
// one the error propagates as usual. A config's independent parts (each
// top-level key, each strategy, each contest) are read this way; a part that
// later parts depend on (the game, its rules) is read directly, so its error
// ends the reading.
class ErrorCollector {
 public:
  ErrorCollector();
  ~ErrorCollector();
  ErrorCollector(const ErrorCollector&) = delete;
  ErrorCollector& operator=(const ErrorCollector&) = delete;
  const std::vector<std::string>& messages() const { return messages_; }
  // A message already recorded is not repeated: the strategies of one sweep
  // entry share its errors.
  void add(std::string message) {
    if (recorded_.insert(message).second) messages_.push_back(std::move(message));
  }

 private:
  std::vector<std::string> messages_;
  std::set<std::string> recorded_;
  ErrorCollector* outer_;
};

// The collector in force on this thread, if any.
ErrorCollector* active_error_collector();

// Runs read(); under a collector, an InputError is recorded and false
// returned.
template <class Read>
bool independently(Read&& read) {
  ErrorCollector* collector = active_error_collector();
  if (!collector) {
    read();
    return true;
  }
  try {
    read();
    return true;
  } catch (const InputError& e) {
    collector->add(e.what());
    return false;
  }
}

// Whether errors were recorded since `before` messages: the parts that
// depend on what failed are then not read.
inline bool errors_since(std::size_t before) {
  const ErrorCollector* collector = active_error_collector();
  return collector && collector->messages().size() > before;
}
inline std::size_t errors_so_far() {
  const ErrorCollector* collector = active_error_collector();
  return collector ? collector->messages().size() : 0;
}

// Whether UTF-8 text holds a control character: C0 (below 0x20), DEL (0x7f)
// or C1 (U+0080 to U+009F).
bool has_control_character(std::string_view text);

// The one rule for a file name dicesim makes from data (a config's "name",
// or its file's stem, in results/<name>.h5): why `name` cannot be one (empty,
// longer than kMaxFileNameBytes, starting with "." (hidden) or "-" (an
// option to the next command), holding "/", "\\" or a control character),
// or nullopt.
constexpr std::size_t kMaxFileNameBytes = 200;
std::optional<std::string> file_name_problem(std::string_view name);

// "got ..." text for error messages: the offending value, shortened.
std::string describe(const json& value);

// "1e9", "1000000" or "2.5e6" as an exact integer, or nothing.
std::optional<std::uint64_t> parse_count(std::string_view text);

}  // namespace dicesim
