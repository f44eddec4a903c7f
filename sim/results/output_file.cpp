#include "results/output_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "config/json_input.h"
#include "engine/files.h"

namespace dicesim {
namespace {

[[noreturn]] void refuse(const std::string& path, const std::string& why) { throw InputError(path + ": " + why); }

std::string cannot_write(const std::string& why) { return "cannot write the results file here (" + why + ")"; }
std::string cannot_write(int error) { return cannot_write(std::string(std::strerror(error))); }

// Only a missing file or a regular file may become the results file: the
// rename that completes a write would replace a device, a FIFO or a symbolic
// link by a plain file.
void require_replaceable(const std::string& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno != ENOENT) refuse(path, cannot_write(errno));
    return;
  }
  if (S_ISDIR(st.st_mode)) refuse(path, "is a directory, not a results file");
  if (!S_ISREG(st.st_mode))
    refuse(path, "exists and is not a regular file (a symbolic link, device, FIFO or socket); refusing to replace it");
}

}  // namespace

OutputLock::OutputLock(const std::string& path, const std::vector<std::string>& inputs) : lock_path_(path + ".lock") {
  require_replaceable(path);
  for (const std::string& input : inputs) {
    std::error_code ignored;
    if (std::filesystem::equivalent(path, input, ignored))
      refuse(path, "is the input " + input + "; refusing to overwrite it");
  }
  // The longest name the write creates is its temporary, longer than the
  // lock's: a name too long for the file system fails here, before the run.
  try {
    check_temporary_creatable(path);
  } catch (const FileError& e) {
    refuse(path, cannot_write(e.what()));
  }
  // The lock file may be removed by its holder between our open and our
  // flock: then we hold a lock on a name nobody sees, so try again.
  for (;;) {
    fd_ = ::open(lock_path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd_ < 0) refuse(path, cannot_write(errno));
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      ::close(fd_);
      if (error == EWOULDBLOCK)
        refuse(path, "another dicesim is writing this results file (it holds " + lock_path_ + ")");
      refuse(path, cannot_write(error));
    }
    struct stat held, named;
    if (::fstat(fd_, &held) == 0 && ::stat(lock_path_.c_str(), &named) == 0 && held.st_dev == named.st_dev &&
        held.st_ino == named.st_ino)
      return;
    ::close(fd_);
  }
}

OutputLock::~OutputLock() {
  ::unlink(lock_path_.c_str());  // before the unlock, so that a waiting dicesim retries on a fresh file
  ::close(fd_);
}

}  // namespace dicesim
