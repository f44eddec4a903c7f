#include "results/output_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>

#include "config/json_input.h"
#include "engine/files.h"

namespace dicesim {
namespace {

// "<path>: <why>", `why` naming what the file is to the command.
[[noreturn]] void refuse(const FileUse& file, const std::string& why) { throw InputError(file.path + ": " + why); }

std::string cannot_write(const FileUse& file, const std::string& why) {
  return "cannot write " + file.what + " here (" + why + ")";
}
std::string cannot_write(const FileUse& file, int error) { return cannot_write(file, std::strerror(error)); }

// Only a missing file or a regular file may be written: the rename that
// completes a write would replace a device, a FIFO or a symbolic link by a
// plain file. A name with control characters is refused as every file name
// dicesim makes is (config/json_input.h, file_name_problem).
void require_replaceable(const FileUse& file) {
  if (file.path.empty()) refuse(file, "an empty name for " + file.what);
  if (has_control_character(file.path)) refuse(file, "control characters in the name of " + file.what);
  struct stat st;
  if (::lstat(file.path.c_str(), &st) != 0) {
    if (errno != ENOENT) refuse(file, cannot_write(file, errno));
    return;
  }
  if (S_ISDIR(st.st_mode)) refuse(file, "is a directory, not " + file.what);
  if (!S_ISREG(st.st_mode))
    refuse(file,
           "exists and is not a regular file (a symbolic link, device, FIFO or socket); refusing to replace it "
           "by " +
               file.what);
}

// What identifies a file: its device and inode where it exists (hard links
// and links to it are the same file), and its name resolved through the
// links of its directories (a file not yet there).
struct Identity {
  std::optional<std::pair<dev_t, ino_t>> inode;
  std::filesystem::path resolved;

  explicit Identity(const std::string& path) {
    struct stat st;
    if (::stat(path.c_str(), &st) == 0) inode = std::make_pair(st.st_dev, st.st_ino);
    std::error_code ignored;
    resolved = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ignored), ignored);
    if (resolved.empty()) resolved = std::filesystem::absolute(path, ignored).lexically_normal();
  }
  bool same(const Identity& other) const {
    if (inode && other.inode) return *inode == *other.inode;
    return resolved == other.resolved;
  }
};

// What `file` is, and its name where the clash is under another name
// ("the config (a.json)" for a write named b.json, its hard link).
std::string described(const FileUse& file, const FileUse& clashing) {
  return file.what + (file.path == clashing.path ? "" : " (" + file.path + ")");
}

}  // namespace

bool same_file(const std::string& a, const std::string& b) { return Identity(a).same(Identity(b)); }

OutputFiles::OutputFiles(const std::vector<FileUse>& given_reads, const std::vector<FileUse>& writes) {
  std::vector<FileUse> reads;  // "": no file (a preset instead of a config)
  for (const FileUse& file : given_reads)
    if (!file.path.empty()) reads.push_back(file);
  // Every name the command creates: each file written and the lock of each
  // locked one (temporaries have unpredictable names, created exclusively).
  std::vector<FileUse> created;
  for (const FileUse& file : writes) {
    require_replaceable(file);
    created.push_back(file);
    if (file.locked) created.push_back({file.path + ".lock", "the lock of " + file.what + " " + file.path});
  }
  std::vector<Identity> read_ids, created_ids;
  for (const FileUse& file : reads) read_ids.emplace_back(file.path);
  for (const FileUse& file : created) created_ids.emplace_back(file.path);
  for (std::size_t w = 0; w < created.size(); ++w) {
    for (std::size_t r = 0; r < reads.size(); ++r)
      if (created_ids[w].same(read_ids[r]))
        refuse(created[w], "is " + described(reads[r], created[w]) +
                               ", which this command reads; refusing to overwrite it with " + created[w].what);
    for (std::size_t other = 0; other < w; ++other)
      if (created_ids[w].same(created_ids[other]))
        refuse(created[w], "is " + described(created[other], created[w]) + " and " + created[w].what +
                               ": every file written needs a name of its own");
  }
  // The longest name a write creates is its temporary, longer than the
  // lock's: a name too long for the file system fails here, before the run.
  for (const FileUse& file : writes) try {
      check_temporary_creatable(file.path);
    } catch (const FileError& e) {
      refuse(file, cannot_write(file, e.what()));
    }
  try {
    for (const FileUse& file : writes)
      if (file.locked) lock(file);
  } catch (...) {
    release();  // the locks taken before the one refused
    throw;
  }
}

void OutputFiles::lock(const FileUse& file) {
  const std::string lock_path = file.path + ".lock";
  // The lock file may be removed by its holder between our open and our
  // flock: then we hold a lock on a name nobody sees, so try again.
  for (;;) {
    const int fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) refuse(file, cannot_write(file, errno));
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      ::close(fd);
      if (error == EWOULDBLOCK)
        refuse(file, "another dicesim is writing " + file.what + " (it holds " + lock_path + ")");
      refuse(file, cannot_write(file, error));
    }
    struct stat held, named;
    if (::fstat(fd, &held) == 0 && ::stat(lock_path.c_str(), &named) == 0 && held.st_dev == named.st_dev &&
        held.st_ino == named.st_ino) {
      lock_paths_.push_back(lock_path);
      fds_.push_back(fd);
      return;
    }
    ::close(fd);
  }
}

OutputFiles::~OutputFiles() { release(); }

void OutputFiles::release() {
  for (std::size_t i = 0; i < fds_.size(); ++i) {
    ::unlink(lock_paths_[i].c_str());  // before the unlock, so that a waiting dicesim retries on a fresh file
    ::close(fds_[i]);
  }
  fds_.clear();
  lock_paths_.clear();
}

}  // namespace dicesim
