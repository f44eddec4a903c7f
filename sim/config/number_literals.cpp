// Number literals as a JSON text wrote them (number_literals.h): the scan
// that lists them, their reading as the parser reports each number, and the
// bounded store of the texts kept for messages and integer keys.
#include "config/number_literals.h"

#include <algorithm>
#include <cctype>
#include <mutex>

#include "config/json_scan_internal.h"

namespace dicesim {
namespace {

// The numbers a JSON text wrote otherwise than json::dump() prints them back
// ("-1e1", "1000000000000000.0", "1e6"), by source name and JSON path: error
// messages echo what the user wrote, and an integer key reads a floating
// literal exactly. Bounded: at most kMaxNumberTexts numbers of at most
// kMaxNumberTextLength characters (a longer one is kept cut, which no integer
// key accepts); past that, the parsed value is what is echoed.
class WrittenNumbers {
 public:
  static constexpr std::size_t kMaxNumberTexts = 100'000;
  static constexpr std::size_t kMaxNumberTextLength = 64;
  static constexpr std::size_t kMaxPathLength = 256;

  void replace(const std::string& source, std::map<std::string, std::pair<json, std::string>> numbers) {
    const std::lock_guard<std::mutex> guard(mutex_);
    if (const auto old = by_source_.find(source); old != by_source_.end()) {
      count_ -= old->second.size();
      by_source_.erase(old);
    }
    count_ += numbers.size();
    by_source_[source] = std::move(numbers);
  }
  bool has_room(std::size_t pending) const {
    const std::lock_guard<std::mutex> guard(mutex_);
    return count_ + pending < kMaxNumberTexts;
  }
  // The text written for `value` at source and path, if it was kept.
  std::optional<std::string> find(const std::string& source, const std::string& path, const json& value) const {
    const std::lock_guard<std::mutex> guard(mutex_);
    const auto in_source = by_source_.find(source);
    if (in_source == by_source_.end()) return std::nullopt;
    const auto number = in_source->second.find(path);
    if (number == in_source->second.end() || number->second.first != value) return std::nullopt;
    return number->second.second;
  }

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::map<std::string, std::pair<json, std::string>>> by_source_;
  std::size_t count_ = 0;
};

WrittenNumbers& written_numbers() {
  static WrittenNumbers numbers;
  return numbers;
}

// The number literals of a JSON text, in document order (the order in which
// the parser reports its values).
std::vector<std::string_view> number_literals(std::string_view text) {
  std::vector<std::string_view> out;
  scan_outside_strings(text, [&](std::size_t i) -> std::size_t {
    const char c = text[i];
    if (c != '-' && !std::isdigit(static_cast<unsigned char>(c))) return 0;
    const std::size_t end = std::min(text.find_first_not_of("0123456789+-.eE", i), text.size());
    out.push_back(text.substr(i, end - i));
    return end - i - 1;
  });
  return out;
}

}  // namespace

NumberLiterals::NumberLiterals(std::string_view text) : numbers_(number_literals(text)) {}

void NumberLiterals::read_number(json& parsed, const std::function<std::string()>& path) {
  if (next_number_ >= numbers_.size()) return;
  const std::string_view literal = numbers_[next_number_++];
  if (parsed.is_number_float() && literal.find_first_of("eE") != std::string_view::npos)
    if (const std::optional<std::uint64_t> value = parse_count(literal)) parsed = *value;
  if (literal == parsed.dump() || !written_numbers().has_room(written_.size())) return;
  const std::string where = path();
  if (where.size() > WrittenNumbers::kMaxPathLength) return;
  std::string text(literal.substr(0, WrittenNumbers::kMaxNumberTextLength));
  if (text.size() < literal.size()) text += "...";
  written_[where] = {parsed, std::move(text)};
}

void NumberLiterals::keep(const std::string& source_name) && {
  written_numbers().replace(source_name, std::move(written_));
}

std::optional<std::string> written_number_text(const std::string& source, const std::string& path, const json& value) {
  return written_numbers().find(source, path, value);
}

}  // namespace dicesim
