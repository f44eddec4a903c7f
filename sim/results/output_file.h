// The files a command writes, checked together before anything is played:
// no file written is a file read, or another file written (the same file
// under any name, or the same name), each may be replaced (a missing or
// regular file, in a directory where a temporary can be created), and the
// results files are locked for as long as the command runs, so that no two
// dicesim write the same file at once.
#pragma once

#include <string>
#include <vector>

namespace dicesim {

// A file a command reads or writes, and what it is to the command ("the
// config", "--json"), for the one-line refusal.
struct FileUse {
  std::string path;
  std::string what;
  bool locked = false;  // a results file: held through `<path>.lock` (flock) while the command runs
};

// Whether two paths name the same file: the same device and inode where
// both exist, else the same name once the links of their directories are
// resolved.
bool same_file(const std::string& a, const std::string& b);

// One rule for every command that writes. Refuses (InputError) before any
// work:
// - a path written that is one of the paths read, another path written, or
//   the lock `<path>.lock` of a locked one: the same file under any name
//   (device and inode), or the same name once resolved;
// - a path written that exists and is not a regular file (a directory,
//   device, FIFO, socket or symbolic link), has control characters in its
//   name, or lies where no temporary can be created or its temporary's name
//   would be too long;
// - a locked path that another dicesim holds.
// The locks are released, and their files removed, when it is destroyed.
class OutputFiles {
 public:
  OutputFiles(const std::vector<FileUse>& reads, const std::vector<FileUse>& writes);
  ~OutputFiles();
  OutputFiles(const OutputFiles&) = delete;
  OutputFiles& operator=(const OutputFiles&) = delete;

 private:
  void lock(const FileUse& file);
  void release();
  std::vector<std::string> lock_paths_;
  std::vector<int> fds_;
};

}  // namespace dicesim
