#include "engine/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <random>

namespace dicesim {
namespace {

std::string reason(int error) { return std::string(std::strerror(error)); }

// "<path>.tmp.<16 random hex digits>": unpredictable, so that nobody can
// plant a file under the name in advance, and of a fixed length, so that
// check_temporary_creatable tests the longest name a write creates.
std::string temporary_name(const std::string& path) {
  static std::random_device device;
  const std::uint64_t bits = (std::uint64_t(device()) << 32) ^ device();
  char digits[17];
  std::snprintf(digits, sizeof digits, "%016llx", static_cast<unsigned long long>(bits));
  return path + ".tmp." + digits;
}

// A temporary file beside its final name, removed unless renamed over it.
class Temporary {
 public:
  explicit Temporary(const std::string& path) {
    for (int attempt = 0; attempt < 100; ++attempt) {
      name_ = temporary_name(path);
      fd_ = ::open(name_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
      if (fd_ >= 0) return;
      if (errno != EEXIST) break;
    }
    const int error = errno;
    name_.clear();
    throw FileError("cannot create a temporary file beside it: " + reason(error));
  }
  ~Temporary() {
    if (fd_ >= 0) ::close(fd_);
    if (!name_.empty()) ::unlink(name_.c_str());
  }
  Temporary(const Temporary&) = delete;
  Temporary& operator=(const Temporary&) = delete;

  void write(std::string_view bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) fail(n < 0 ? errno : EIO);
      done += static_cast<std::size_t>(n);
    }
    if (::fsync(fd_) != 0) fail(errno);
    const int closed = ::close(fd_);
    fd_ = -1;
    if (closed != 0) fail(errno);
  }

  // Renames the complete temporary to `path` and syncs the directory, so
  // that the rename survives a power cut.
  void commit(const std::string& path) {
    struct stat st;
    if (::lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
      throw FileError("it exists and is not a regular file; refusing to replace it");
    if (::rename(name_.c_str(), path.c_str()) != 0) fail(errno);
    name_.clear();
    const std::size_t slash = path.rfind('/');
    const std::string directory = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
    if (const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); fd >= 0) {
      ::fsync(fd);  // best effort: the data itself is already synced
      ::close(fd);
    }
  }

 private:
  [[noreturn]] static void fail(int error) { throw FileError("writing failed: " + reason(error)); }
  std::string name_;
  int fd_ = -1;
};

}  // namespace

void write_file_atomically(const std::string& path, std::string_view bytes) {
  Temporary temporary(path);
  temporary.write(bytes);
  temporary.commit(path);
}

void check_temporary_creatable(const std::string& path) { const Temporary probe(path); }

}  // namespace dicesim
