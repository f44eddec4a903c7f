// Where a command writes its results file: checked before anything is played,
// and locked for as long as the command runs, so that no two dicesim write
// the same file at once.
#pragma once

#include <string>
#include <vector>

namespace dicesim {

class OutputLock {
 public:
  // Refuses (InputError) a path that exists and is not a regular file (a
  // directory, device, FIFO, socket or symbolic link), a path that is one of
  // `inputs` (the config being read, a merge's inputs: the same file under
  // any name), a path in a directory where no file can be created or whose
  // temporary name would be too long, and a path that another dicesim holds: it locks `<path>.lock`
  // (flock), which it removes when done.
  OutputLock(const std::string& path, const std::vector<std::string>& inputs);
  ~OutputLock();
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

 private:
  std::string lock_path_;
  int fd_ = -1;
};

}  // namespace dicesim
