#include "json_input.h"

#include <cctype>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

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

std::string join(std::initializer_list<std::string_view> words) {
  std::string out;
  for (std::string_view w : words) {
    if (!out.empty()) out += ", ";
    out += w;
  }
  return out;
}

}  // namespace

std::string describe(const json& value) {
  std::string text = value.dump();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

// The parser recurses once per level of nesting: refuse absurd depths before
// they overflow the stack. No config comes near this.
constexpr int kMaxNesting = 256;

static void check_nesting(const std::string& text, const std::string& source_name) {
  int depth = 0;
  bool in_string = false, escaped = false;
  std::size_t line = 1;
  for (char c : text) {
    if (c == '\n') ++line;
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if ((c == '[' || c == '{') && ++depth > kMaxNesting) {
      throw InputError(source_name + ":" + std::to_string(line) + ": malformed JSON: nested deeper than " +
                       std::to_string(kMaxNesting) + " levels");
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
}

// Refuses a key repeated within one object, which nlohmann/json would
// otherwise resolve silently (the last one wins): {"games": 10, "games": 20}
// is almost certainly a mistake. Tracks the JSON path as the parser goes.
class DuplicateKeyCheck {
 public:
  explicit DuplicateKeyCheck(const std::string& source_name) : source_name_(source_name) {}

  bool operator()(int, json::parse_event_t event, const json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start:
        next_element();
        frames_.push_back({event == json::parse_event_t::array_start, -1, {}, {}});
        break;
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        frames_.pop_back();
        break;
      case json::parse_event_t::key: {
        Frame& object = frames_.back();
        object.key = parsed.get<std::string>();
        if (!object.keys.insert(object.key).second)
          throw InputError(source_name_ + ": " + path() + ": duplicate key \"" + object.key + "\"");
        break;
      }
      case json::parse_event_t::value:
        next_element();
        break;
    }
    return true;
  }

 private:
  struct Frame {
    bool array;
    int index;
    std::set<std::string> keys;
    std::string key;
  };
  void next_element() {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
  }
  std::string path() const {
    std::string out;
    for (const Frame& f : frames_) {
      out.push_back('/');  // appended piecewise: GCC 12 misreports "/" + string under -Wrestrict
      out.append(f.array ? std::to_string(f.index) : pointer_token(f.key));
    }
    return out;
  }
  std::string source_name_;
  std::vector<Frame> frames_;
};

json parse_json_text(const std::string& text, const std::string& source_name) {
  check_nesting(text, source_name);
  try {
    return json::parse(text, DuplicateKeyCheck(source_name));
  } catch (const json::parse_error& e) {
    // nlohmann reports a byte offset; people want line and column.
    std::size_t line = 1, column = 1;
    const std::size_t end = std::min<std::size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
    for (std::size_t i = 0; i < end; ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    std::string reason = e.what();
    const std::size_t colon = reason.find("syntax error");
    if (colon != std::string::npos) reason = reason.substr(colon);
    throw InputError(source_name + ":" + std::to_string(line) + ":" + std::to_string(column) +
                     ": malformed JSON: " + reason);
  } catch (const json::exception& e) {  // e.g. a number too large for a double
    std::string reason = e.what();
    reason = reason.substr(reason.find(']') + 2);
    throw InputError(source_name + ": malformed JSON: " + reason);
  }
}

json parse_json_file(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file + ": cannot read the file");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_json_text(text.str(), file);
}

void JsonNode::fail(const std::string& message) const { throw InputError(file_ + ": " + path() + ": " + message); }

void JsonNode::only_keys(std::initializer_list<std::string_view> allowed) const {
  if (!value_->is_object()) fail("expected an object, got " + describe(*value_));
  for (const auto& [key, value] : value_->items()) {
    bool known = false;
    for (std::string_view a : allowed) known = known || a == key;
    if (!known) {
      JsonNode(value, file_, path_ + "/" + pointer_token(key))
          .fail("unknown key (expected one of: " + join(allowed) + ")");
    }
  }
}

bool JsonNode::has(const std::string& key) const { return value_->is_object() && value_->contains(key); }

JsonNode JsonNode::at(const std::string& key) const {
  if (!value_->is_object()) fail("expected an object, got " + describe(*value_));
  if (!value_->contains(key)) fail("missing key \"" + key + "\"");
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

std::int64_t JsonNode::integer(std::int64_t lo, std::int64_t hi) const {
  const auto message = [&] {
    return "expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got " +
           describe(*value_);
  };
  if (!value_->is_number_integer()) fail(message());
  if (value_->is_number_unsigned() && value_->get<std::uint64_t>() > std::uint64_t(INT64_MAX)) fail(message());
  const std::int64_t v = value_->get<std::int64_t>();
  if (v < lo || v > hi) fail(message());
  return v;
}

std::uint64_t JsonNode::unsigned_integer(std::uint64_t lo, std::uint64_t hi) const {
  const auto message = [&] {
    return "expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got " +
           describe(*value_);
  };
  std::optional<std::uint64_t> v;
  if (value_->is_number_unsigned())
    v = value_->get<std::uint64_t>();
  else if (value_->is_number_float())
    v = parse_count(value_->dump());
  if (!v || *v < lo || *v > hi) fail(message());
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
