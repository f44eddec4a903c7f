#include "engine/memory_budget.h"

#include <malloc.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace dicesim {
namespace {

// The first number after `key` in /proc/self/status or /proc/meminfo, in kB.
std::uint64_t proc_kilobytes(const char* file, const std::string& key) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(key, 0) == 0) return std::strtoull(line.c_str() + key.size(), nullptr, 10);
  return 0;
}

// cgroup v2's memory.max of this process's group ("max": none).
std::optional<std::uint64_t> cgroup_limit() {
  std::ifstream in("/sys/fs/cgroup/memory.max");
  std::string text;
  if (!(in >> text) || text == "max") return std::nullopt;
  const std::uint64_t bytes = std::strtoull(text.c_str(), nullptr, 10);
  return bytes > 0 ? std::optional<std::uint64_t>(bytes) : std::nullopt;
}

}  // namespace

std::uint64_t machine_memory_bytes() {
  std::uint64_t bytes = proc_kilobytes("/proc/meminfo", "MemTotal:") * 1024;
  if (const std::optional<std::uint64_t> limit = cgroup_limit(); limit && (bytes == 0 || *limit < bytes))
    bytes = *limit;
  return bytes > 0 ? bytes : UINT64_MAX;
}

std::uint64_t resident_bytes() { return proc_kilobytes("/proc/self/status", "VmRSS:") * 1024; }

std::uint64_t heap_bytes_in_use() {
  const struct mallinfo2 info = ::mallinfo2();
  return info.uordblks + info.hblkhd;
}

std::string memory_text(std::uint64_t bytes) {
  char text[32];
  const double mib = double(bytes) / (1 << 20);
  if (mib >= 1024)
    std::snprintf(text, sizeof text, "%.2f GiB", mib / 1024);
  else
    std::snprintf(text, sizeof text, "%.1f MiB", mib);
  return text;
}

std::optional<std::uint64_t> parse_memory(std::string_view text) {
  if (text.empty() || text.size() > 32) return std::nullopt;
  const std::string digits(text);
  char* end = nullptr;
  const double value = std::strtod(digits.c_str(), &end);
  double unit = 1;
  const std::string suffix(end);
  if (suffix == "K" || suffix == "KiB" || suffix == "k")
    unit = 1024.0;
  else if (suffix == "M" || suffix == "MiB")
    unit = 1024.0 * 1024;
  else if (suffix == "G" || suffix == "GiB")
    unit = 1024.0 * 1024 * 1024;
  else if (suffix == "T" || suffix == "TiB")
    unit = 1024.0 * 1024 * 1024 * 1024;
  else if (!suffix.empty())
    return std::nullopt;
  const double bytes = value * unit;
  if (end == digits.c_str() || !std::isfinite(bytes) || bytes < 1 || bytes > 1.8e19) return std::nullopt;
  return static_cast<std::uint64_t>(bytes);
}

void MemoryBudget::start(std::uint64_t limit) {
  *this = MemoryBudget();
  limit_ = limit;
  baseline_ = resident_bytes();
}

void MemoryBudget::charge(std::uint64_t bytes, const std::string& what) {
  const std::uint64_t total = estimate() + std::min(bytes, UINT64_MAX - estimate());
  if (total > limit_)
    throw MemoryRefused(what + ": needs about " + memory_text(bytes) + ", which would bring this command to " +
                        memory_text(total) + ", more than its limit of " + memory_text(limit_) +
                        " (--memory-limit; by default the machine's memory)");
  charged_ += bytes;
  by_what_[what] += bytes;
}

void MemoryBudget::charge_once(const std::string& key, std::uint64_t bytes, const std::string& what) {
  if (once_.count(key)) return;
  charge(bytes, what);
  once_[key] = true;
}

std::pair<std::string, std::uint64_t> MemoryBudget::largest() const {
  std::pair<std::string, std::uint64_t> out{"", 0};
  for (const auto& [what, bytes] : by_what_)
    if (bytes > out.second) out = {what, bytes};
  return out;
}

MemoryBudget& memory_budget() {
  static MemoryBudget budget;
  return budget;
}

}  // namespace dicesim
