#include "games/tenk/tenk_win_cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <type_traits>

#include "engine/files.h"
#include "engine/rng.h"

namespace dicesim::tenk {
namespace {

constexpr char kMagic[] = "dicesim tenk win cache\n";

// Appends members as raw bytes; vectors as a count then their elements.
struct Writer {
  std::string bytes;
  template <class T>
  void operator()(const T& value) {
    if constexpr (std::is_trivially_copyable_v<T>) {
      bytes.append(reinterpret_cast<const char*>(&value), sizeof value);
    } else {
      const std::uint64_t n = value.size();
      (*this)(n);
      if (n > 0) bytes.append(reinterpret_cast<const char*>(value.data()), n * sizeof(typename T::value_type));
    }
  }
};

// Reads what Writer wrote; `ok` turns false past the end (never reads beyond).
struct Reader {
  const std::string& bytes;
  std::size_t at = 0;
  bool ok = true;
  bool take(void* out, std::size_t n) {
    if (!ok || n > bytes.size() - at) return ok = false;
    if (n > 0) std::memcpy(out, bytes.data() + at, n);  // an empty vector's data() may be null
    at += n;
    return true;
  }
  template <class T>
  void operator()(T& value) {
    if constexpr (std::is_trivially_copyable_v<T>) {
      take(&value, sizeof value);
    } else {
      std::uint64_t n = 0;
      if (!take(&n, sizeof n) || n > (bytes.size() - at) / sizeof(typename T::value_type)) {
        ok = false;
        return;
      }
      value.resize(n);
      take(value.data(), n * sizeof(typename T::value_type));
    }
  }
};

std::string rules_key(const Rules& rules) { return rules_json(rules).dump(); }

std::uint64_t checksum(std::string_view bytes) { return stable_hash(bytes); }

// No solution optimal_win plays comes near this (target 10,000: a few tens of
// MiB); anything larger is not read, so that memory stays bounded.
constexpr off_t kMostCacheBytes = off_t{512} << 20;

// The file's bytes if it is a regular file (a symbolic link to one is fine)
// of plausible size; else nothing, and why. A FIFO, a device or a directory
// is never read: it could block forever or never end.
std::optional<std::string> read_cache_bytes(const std::string& path, std::string& why, std::int64_t& written_at) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    why = errno == ENOENT ? "no cached solution" : "cannot be read (" + std::string(std::strerror(errno)) + ")";
    return std::nullopt;
  }
  std::string bytes;
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    why = "not a regular file";
  } else if (st.st_size > kMostCacheBytes) {
    why = "larger than any solution (" + std::to_string(st.st_size) + " bytes)";
  } else {
    written_at = static_cast<std::int64_t>(st.st_mtime);
    bytes.resize(static_cast<std::size_t>(st.st_size));
    std::size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    if (done == bytes.size())
      why.clear();
    else
      why = "cannot be read (it shrank while read, or a read failed)";
  }
  ::close(fd);
  if (!why.empty()) return std::nullopt;
  return bytes;
}

}  // namespace

std::string win_cache_dir() {
  if (const char* dir = std::getenv("DICESIM_CACHE_DIR"); dir && *dir) return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::string(xdg) + "/dicesim";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/dicesim";
  return ".dicesim-cache";
}

std::string win_cache_path(const Rules& rules) {
  std::ostringstream name;
  name << "tenk-win-v" << kWinSolverVersion << "-" << std::hex << std::setw(16) << std::setfill('0')
       << stable_hash(rules_key(rules)) << ".bin";
  return win_cache_dir() + "/" + name.str();
}

std::optional<WinSolution> read_win_cache(const std::string& path, const Rules& rules, std::string& why) {
  std::int64_t written_at = 0;
  const std::optional<std::string> file = read_cache_bytes(path, why, written_at);
  if (!file) return std::nullopt;
  const std::string& bytes = *file;
  const std::size_t magic = sizeof kMagic - 1;
  if (bytes.size() < magic + sizeof(std::uint64_t) || bytes.compare(0, magic, kMagic) != 0) {
    why = "not a dicesim cache file";
    return std::nullopt;
  }
  const std::string_view body(bytes.data(), bytes.size() - sizeof(std::uint64_t));
  std::uint64_t stored = 0;
  std::memcpy(&stored, bytes.data() + body.size(), sizeof stored);
  if (stored != checksum(body)) {
    why = "damaged (checksum mismatch)";
    return std::nullopt;
  }
  const std::string payload(body.substr(magic));
  Reader read{payload};
  int version = 0;
  std::string key;
  read(version);
  read(key);
  if (!read.ok || version != kWinSolverVersion) {
    why = "written by another solver version";
    return std::nullopt;
  }
  if (key != rules_key(rules)) {
    why = "written for other rules";
    return std::nullopt;
  }
  WinSolution solution(rules);
  WinSolution::transfer(solution, read);
  const int units = rules.target / kPoint;  // as WinSolution(rules) has
  if (!read.ok || read.at != payload.size() || !solution.consistent(units) ||
      !solution.policy.consistent(units, Landings(rules).count())) {
    why = "damaged (inconsistent sizes)";
    return std::nullopt;
  }
  solution.stats.cached_at = std::max<std::int64_t>(1, written_at);
  return solution;
}

std::string win_solution_bytes(const WinSolution& solution) {
  Writer write;
  WinSolution::transfer(solution, write);
  return std::move(write.bytes);
}

void write_win_cache(const std::string& path, const Rules& rules, const WinSolution& solution) {
  Writer write;
  write.bytes = kMagic;
  const int version = kWinSolverVersion;
  write(version);
  write(rules_key(rules));
  write.bytes += win_solution_bytes(solution);
  const std::uint64_t sum = checksum(write.bytes);
  write(sum);
  std::error_code error;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), error);
  if (error) throw FileError("cannot create its directory: " + error.message());
  write_file_atomically(path, write.bytes);
}

std::shared_ptr<const WinSolution> cached_win_solution(const Scoring& scoring, std::ostream& log) {
  const Rules& rules = scoring.rules();
  const std::string path = win_cache_path(rules);
  std::string why;
  if (std::optional<WinSolution> cached = read_win_cache(path, rules, why))
    return std::make_shared<const WinSolution>(std::move(*cached));
  struct stat st;
  if (::lstat(path.c_str(), &st) == 0) log << "warning: " << path << ": " << why << "; solving again\n";
  auto solution = std::make_shared<WinSolution>(solve_win(scoring));
  try {
    write_win_cache(path, rules, *solution);
  } catch (const std::exception& e) {
    log << "warning: the solution is not cached: " << path << ": " << e.what() << "\n";
  }
  return solution;
}

}  // namespace dicesim::tenk
