#include "engine/memory_budget.h"

#include <malloc.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>

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

// A number read from a cgroup file; "max" (v2) and v1's "no limit" (a
// value near 2^63) are none.
std::optional<std::uint64_t> limit_in(const std::string& file) {
  std::ifstream in(file);
  std::string text;
  if (!(in >> text) || text == "max") return std::nullopt;
  const std::uint64_t bytes = std::strtoull(text.c_str(), nullptr, 10);
  if (bytes == 0 || bytes >= (std::uint64_t(1) << 62)) return std::nullopt;
  return bytes;
}

// The lowest memory limit of this process's cgroup and the groups above it,
// as /proc/self/cgroup names them: v2 ("0::/path", memory.max) or v1
// ("N:memory:/path", memory.limit_in_bytes), as Slurm and containers set.
std::optional<std::uint64_t> cgroup_limit() {
  std::ifstream groups("/proc/self/cgroup");
  std::optional<std::uint64_t> lowest;
  std::string line;
  while (std::getline(groups, line)) {
    const std::size_t first = line.find(':'), second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    std::string path = line.substr(second + 1);
    std::string root, file;
    if (controllers.empty()) {
      root = "/sys/fs/cgroup", file = "/memory.max";
    } else if (controllers == "memory") {
      root = "/sys/fs/cgroup/memory", file = "/memory.limit_in_bytes";
    } else {
      continue;
    }
    for (;;) {  // the group, then each group above it
      if (const std::optional<std::uint64_t> limit = limit_in(root + (path == "/" ? "" : path) + file))
        lowest = lowest ? std::min(*lowest, *limit) : *limit;
      if (path.empty() || path == "/") break;
      path = path.substr(0, std::max<std::size_t>(1, path.rfind('/')));
    }
  }
  return lowest;
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
  if (mib < 1)
    std::snprintf(text, sizeof text, "%.1f KiB", double(bytes) / 1024);
  else if (mib >= 1024)
    std::snprintf(text, sizeof text, "%.2f GiB", mib / 1024);
  else
    std::snprintf(text, sizeof text, "%.1f MiB", mib);
  return text;
}

std::optional<std::uint64_t> parse_memory(std::string_view text) {
  // A decimal number (no sign, no hexadecimal) and a unit: K, M, G or T
  // (binary multiples, any case, with an optional "B" or "iB"), or none: bytes.
  if (text.empty() || text.size() > 32 || !std::isdigit(static_cast<unsigned char>(text.front()))) return std::nullopt;
  const std::string digits(text);
  if (digits.find_first_of("xXpP") != std::string::npos) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(digits.c_str(), &end);
  std::string unit(end);
  for (char& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (unit.size() > 1 && (unit.substr(1) == "B" || unit.substr(1) == "IB")) unit.resize(1);
  const std::string units = "KMGT";
  double scale = 1;
  if (unit == "B" || unit.empty()) {
    scale = 1;
  } else if (unit.size() == 1 && units.find(unit) != std::string::npos) {
    scale = std::pow(1024.0, double(units.find(unit) + 1));
  } else {
    return std::nullopt;
  }
  const double bytes = value * scale;
  if (!std::isfinite(bytes) || bytes < 1 || bytes > 1.8e19) return std::nullopt;
  return static_cast<std::uint64_t>(bytes);
}

void MemoryBudget::start(std::uint64_t limit) {
  *this = MemoryBudget();
  limit_ = limit;
  baseline_ = resident_bytes();
}

void MemoryBudget::restart() {
  const std::uint64_t limit = limit_, baseline = baseline_;
  *this = MemoryBudget();
  limit_ = limit;
  baseline_ = baseline;
}

namespace {
std::mutex& budget_mutex() {
  static std::mutex mutex;
  return mutex;
}
}  // namespace

void MemoryBudget::charge(std::uint64_t bytes, const std::string& what) {
  const std::lock_guard lock(budget_mutex());
  const std::uint64_t total = estimate() + std::min(bytes, UINT64_MAX - estimate());
  if (total > limit_)
    throw MemoryRefused(what + ": needs about " + memory_text(bytes) + ", which would bring this command to " +
                        memory_text(total) + ", more than its limit of " + memory_text(limit_) +
                        " (--memory-limit; by default the machine's memory)");
  charged_ += bytes;
  by_what_[what] += bytes;
}

void MemoryBudget::charge_once(const std::string& key, std::uint64_t bytes, const std::string& what) {
  {
    const std::lock_guard lock(budget_mutex());
    if (!once_.emplace(key, true).second) return;
  }
  try {
    charge(bytes, what);
  } catch (const MemoryRefused&) {
    const std::lock_guard lock(budget_mutex());
    once_.erase(key);  // refused: not charged
    throw;
  }
}

void MemoryBudget::release(std::uint64_t bytes, const std::string& what) {
  const std::lock_guard lock(budget_mutex());
  charged_ -= std::min(bytes, charged_);
  const auto it = by_what_.find(what);
  if (it == by_what_.end()) return;
  it->second -= std::min(bytes, it->second);
  if (it->second == 0) by_what_.erase(it);
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
