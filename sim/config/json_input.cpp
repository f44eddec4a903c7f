#include "config/json_input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <set>
#include <vector>

#include "config/json_scan_internal.h"
#include "config/number_literals.h"
#include "config/suggest.h"
#include "config/terminal_text.h"

namespace dicesim {
namespace {

std::string pointer_token(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

std::string join(const std::vector<std::string_view>& words) {
  std::string out;
  for (std::string_view w : words) {
    if (!out.empty()) out += ", ";
    out += w;
  }
  return out;
}

// A JSON path as messages show it: each key bounded and as terminal text
// (a key may be 4 MB long, or hold an escape sequence).
std::string shown_path(std::string_view path) {
  std::string out;
  for (std::size_t begin = 0; begin < path.size();) {
    const std::size_t end = std::min(path.find('/', begin + 1), path.size());
    out += excerpt(path.substr(begin, end - begin));
    begin = end;
  }
  return out;
}

// nlohmann/json's reason quotes what it read in '...' (a whole string, a
// long number): bounded, as any quoted data.
std::string bounded_reason(const std::string& reason) {
  const std::size_t open = reason.find('\''), close = reason.rfind('\'');
  if (open == std::string::npos || close <= open) return reason;
  return reason.substr(0, open + 1) + excerpt(std::string_view(reason).substr(open + 1, close - open - 1)) +
         reason.substr(close);
}

}  // namespace

std::string describe(const json& value) {
  std::string text = value.dump();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

namespace {

// A number's text ("-1e15", "2.0", "7") as an exact integer, or nothing.
std::optional<std::int64_t> exact_integer(std::string_view text) {
  const bool negative = !text.empty() && text.front() == '-';
  const std::optional<std::uint64_t> magnitude = parse_count(negative ? text.substr(1) : text);
  if (!magnitude || *magnitude > std::uint64_t(INT64_MAX) + negative) return std::nullopt;
  return negative ? std::int64_t(0 - *magnitude) : std::int64_t(*magnitude);
}

}  // namespace

// The parser recurses once per level of nesting: refuse absurd depths before
// they overflow the stack. No config comes near this.
constexpr int kMaxNesting = 256;

namespace {

void check_nesting(const std::string& text, const std::string& source_name) {
  int depth = 0;
  scan_outside_strings(text, [&](std::size_t i) -> std::size_t {
    const char c = text[i];
    if ((c == '[' || c == '{') && ++depth > kMaxNesting) {
      const std::size_t line = 1 + std::count(text.begin(), text.begin() + std::ptrdiff_t(i), '\n');
      throw InputError(source_name + ":" + std::to_string(line) + ": malformed JSON: nested deeper than " +
                       std::to_string(kMaxNesting) + " levels");
    }
    if (c == ']' || c == '}') --depth;
    return 0;
  });
}

// Follows the parser's events: the JSON path of the value being read, for
// DuplicateKeyCheck's message and NumberLiterals' keys.
class JsonPath {
 public:
  void follow(json::parse_event_t event, const json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start:
        next_element();
        frames_.push_back({event == json::parse_event_t::array_start, -1, {}});
        break;
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        frames_.pop_back();
        break;
      case json::parse_event_t::key:
        frames_.back().key = parsed.get<std::string>();
        break;
      case json::parse_event_t::value:
        next_element();
        break;
    }
  }
  std::string path() const {
    std::string out;
    for (const Frame& f : frames_) {
      out.push_back('/');  // appended piecewise: GCC 12 misreports "/" + string under -Wrestrict
      out.append(f.array ? std::to_string(f.index) : pointer_token(f.key));
    }
    return out;
  }

 private:
  struct Frame {
    bool array;
    int index;
    std::string key;
  };
  void next_element() {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
  }
  std::vector<Frame> frames_;
};

// Refuses a key repeated within one object, which nlohmann/json would
// otherwise resolve silently (the last one wins): {"games": 10, "games": 20}
// is almost certainly a mistake.
class DuplicateKeyCheck {
 public:
  explicit DuplicateKeyCheck(const std::string& source_name) : source_name_(source_name) {}

  // Called after `path` has followed the event.
  void operator()(json::parse_event_t event, const json& parsed, const JsonPath& path) {
    switch (event) {
      case json::parse_event_t::object_start:
        keys_.emplace_back();
        break;
      case json::parse_event_t::object_end:
        keys_.pop_back();
        break;
      case json::parse_event_t::key: {
        const std::string key = parsed.get<std::string>();
        if (!keys_.back().insert(key).second)
          throw InputError(source_name_ + ": " + shown_path(path.path()) + ": duplicate key " + quoted_text(key));
        break;
      }
      default:
        break;
    }
  }

 private:
  std::string source_name_;
  std::vector<std::set<std::string>> keys_;  // of each object open, innermost last
};

// "source:line:column" of a byte of a JSON text.
std::string position(const std::string& text, std::size_t offset, const std::string& source_name) {
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < std::min(offset, text.size()); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return source_name + ":" + std::to_string(line) + ":" + std::to_string(column);
}

}  // namespace

json parse_json_text(const std::string& text, const std::string& source_name) {
  check_nesting(text, source_name);
  // nlohmann/json takes a NUL byte for the end of the text: what follows it
  // would be ignored.
  if (const std::size_t nul = text.find('\0'); nul != std::string::npos)
    throw InputError(position(text, nul, source_name) + ": malformed JSON: a NUL byte");
  try {
    JsonPath path;
    DuplicateKeyCheck duplicate_keys(source_name);
    NumberLiterals numbers(text);
    json parsed = json::parse(text, [&](int, json::parse_event_t event, json& value) {
      path.follow(event, value);
      duplicate_keys(event, value, path);
      if (event == json::parse_event_t::value && value.is_number())
        numbers.read_number(value, [&] { return path.path(); });
      return true;
    });
    std::move(numbers).keep(source_name);
    return parsed;
  } catch (const json::parse_error& e) {
    // nlohmann reports a byte offset; people want line and column.
    std::string reason = e.what();
    const std::size_t colon = reason.find("syntax error");
    if (colon != std::string::npos) reason = reason.substr(colon);
    throw InputError(position(text, e.byte > 0 ? e.byte - 1 : 0, source_name) +
                     ": malformed JSON: " + bounded_reason(reason));
  } catch (const json::exception& e) {  // e.g. a number too large for a double
    std::string reason = e.what();
    reason = reason.substr(reason.find(']') + 2);
    throw InputError(source_name + ": malformed JSON: " + bounded_reason(reason));
  }
}

namespace {

// Closes a file descriptor on every way out.
struct FileDescriptor {
  int fd;
  ~FileDescriptor() {
    if (fd >= 0) ::close(fd);
  }
};

std::string too_large(const std::string& file) {
  return file + ": larger than the " + std::to_string(kMaxJsonFileBytes >> 20) + " MiB a JSON file may have";
}

}  // namespace

json parse_json_file(const std::string& file) {
  // O_NONBLOCK: opening a FIFO without a writer must not hang.
  const FileDescriptor in{::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (in.fd < 0) throw InputError(file + ": cannot read the file (" + std::strerror(errno) + ")");
  struct stat st;
  if (::fstat(in.fd, &st) != 0) throw InputError(file + ": cannot read the file (" + std::strerror(errno) + ")");
  if (S_ISDIR(st.st_mode)) throw InputError(file + ": is a directory, not a JSON file");
  if (!S_ISREG(st.st_mode)) throw InputError(file + ": is not a regular file (a device, FIFO or socket)");
  if (st.st_size > static_cast<off_t>(kMaxJsonFileBytes)) throw InputError(too_large(file));
  std::string text(kMaxJsonFileBytes + 1, '\0');  // one byte more: a file that grew past the limit
  std::size_t size = 0;
  while (size < text.size()) {
    const ssize_t n = ::read(in.fd, text.data() + size, text.size() - size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw InputError(file + ": cannot read the file (" + std::strerror(errno) + ")");
    if (n == 0) break;
    size += static_cast<std::size_t>(n);
  }
  if (size > kMaxJsonFileBytes) throw InputError(too_large(file));
  text.resize(size);
  return parse_json_text(text, file);
}

namespace {
thread_local ErrorCollector* current_collector = nullptr;
}  // namespace

ErrorCollector::ErrorCollector() : outer_(current_collector) { current_collector = this; }
ErrorCollector::~ErrorCollector() { current_collector = outer_; }
ErrorCollector* active_error_collector() { return current_collector; }

void JsonNode::fail(const std::string& message) const {
  throw InputError(file_ + ": " + shown_path(path()) + ": " + message);
}

void JsonNode::only_keys(std::initializer_list<std::string_view> allowed) const {
  only_keys(std::vector<std::string_view>(allowed));
}

void JsonNode::only_keys(const std::vector<std::string_view>& allowed) const {
  if (!value_->is_object()) fail("expected an object, got " + describe(*value_));
  for (const auto& item : value_->items()) {
    const std::string key = item.key();  // not a structured binding: the lambda below captures it (clang 14)
    const json& value = item.value();
    bool known = false;
    for (std::string_view a : allowed) known = known || a == key;
    if (!known) {
      independently([&] {  // under `validate`, every unknown key is reported
        JsonNode(value, file_, path_ + "/" + pointer_token(key))
            .fail("unknown key (expected one of: " + join(allowed) + ")" + did_you_mean(key, allowed));
      });
    }
  }
}

bool JsonNode::has(const std::string& key) const { return value_->is_object() && value_->contains(key); }

JsonNode JsonNode::at(const std::string& key) const {
  if (!value_->is_object()) fail("expected an object, got " + describe(*value_));
  if (!value_->contains(key)) fail("missing key " + quoted_text(key));
  return JsonNode((*value_)[key], file_, path_ + "/" + pointer_token(key));
}

std::optional<JsonNode> JsonNode::find(const std::string& key) const {
  if (!has(key)) return std::nullopt;
  return at(key);
}

std::vector<JsonNode> JsonNode::elements(std::size_t min_size) const {
  if (!value_->is_array()) fail("expected an array, got " + describe(*value_));
  if (value_->size() < min_size)
    fail("expected at least " + std::to_string(min_size) + " element" + (min_size == 1 ? "" : "s"));
  std::vector<JsonNode> out;
  for (std::size_t i = 0; i < value_->size(); ++i)
    out.emplace_back((*value_)[i], file_, path_ + "/" + std::to_string(i));
  return out;
}

std::optional<std::string> JsonNode::written_number() const {
  if (!value_->is_number()) return std::nullopt;
  return written_number_text(file_, path_, *value_);
}

std::string JsonNode::written() const {
  const std::optional<std::string> text = written_number();
  if (!text) return describe(*value_);
  return text->size() > 40 ? text->substr(0, 37) + "..." : *text;
}

std::optional<std::int64_t> JsonNode::written_integer() const {
  if (value_->is_number_unsigned())
    return value_->get<std::uint64_t>() > std::uint64_t(INT64_MAX) ? std::nullopt
                                                                   : std::optional(value_->get<std::int64_t>());
  if (value_->is_number_integer()) return value_->get<std::int64_t>();
  if (!value_->is_number_float()) return std::nullopt;
  // 2.0 or -1e15: an integer written as floating-point, read from its text.
  return exact_integer(written_number().value_or(value_->dump()));
}

std::int64_t JsonNode::integer(std::int64_t lo, std::int64_t hi) const {
  const std::optional<std::int64_t> v = written_integer();
  if (!v || *v < lo || *v > hi)
    fail("expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got " + written());
  return *v;
}

std::uint64_t JsonNode::unsigned_integer(std::uint64_t lo, std::uint64_t hi) const {
  std::optional<std::uint64_t> v;
  if (value_->is_number_unsigned())
    v = value_->get<std::uint64_t>();
  else if (const std::optional<std::int64_t> signed_value = written_integer(); signed_value && *signed_value >= 0)
    v = std::uint64_t(*signed_value);  // -0 and 2.0 too
  if (!v || *v < lo || *v > hi)
    fail("expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got " + written());
  return *v;
}

std::string JsonNode::string() const {
  if (!value_->is_string()) fail("expected a string, got " + describe(*value_));
  return value_->get<std::string>();
}

bool JsonNode::boolean() const {
  if (!value_->is_boolean()) fail("expected true or false, got " + describe(*value_));
  return value_->get<bool>();
}

// What a terminal would act on is what terminal_text escapes (and bytes
// that are not UTF-8, which no JSON string holds).
bool has_control_character(std::string_view text) { return terminal_text(text) != text; }

std::optional<std::string> file_name_problem(std::string_view name) {
  if (name.empty()) return "it is empty";
  if (name.size() > kMaxFileNameBytes) return "it is longer than " + std::to_string(kMaxFileNameBytes) + " bytes";
  if (name.front() == '.') return "it starts with \".\" (a hidden file)";
  if (name.front() == '-') return "it starts with \"-\" (read as an option by other commands)";
  if (name.find_first_of("/\\") != std::string_view::npos) return "it holds a slash";
  if (has_control_character(name)) return "it holds control characters";
  return std::nullopt;
}

std::optional<std::uint64_t> parse_count(std::string_view text) {
  // Mantissa digits and a decimal exponent, evaluated exactly in integers.
  std::size_t i = 0;
  std::string digits;
  int fraction_digits = 0;
  bool point = false;
  for (; i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.'); ++i) {
    if (text[i] == '.') {
      if (point) return std::nullopt;
      point = true;
    } else {
      digits += text[i];
      fraction_digits += point;
    }
  }
  if (digits.empty() || digits.size() > 20) return std::nullopt;
  long exponent = 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
    if (i == text.size()) return std::nullopt;
    for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
      exponent = exponent * 10 + (text[i] - '0');
      if (exponent > 100) return std::nullopt;
    }
    if (negative) exponent = -exponent;
  }
  if (i != text.size()) return std::nullopt;
  exponent -= fraction_digits;
  // Strip trailing zeros that a negative exponent divides away.
  while (exponent < 0 && digits.size() > 1 && digits.back() == '0') {
    digits.pop_back();
    ++exponent;
  }
  if (exponent < 0) return std::nullopt;  // not an integer (or 0.x)
  unsigned __int128 value = 0;
  for (char d : digits) value = value * 10 + unsigned(d - '0');  // at most 20 digits: no overflow
  if (value > UINT64_MAX) return std::nullopt;
  for (long e = 0; e < exponent; ++e) {
    value *= 10;
    if (value > UINT64_MAX) return std::nullopt;
  }
  return static_cast<std::uint64_t>(value);
}

}  // namespace dicesim
