// Writing a file so that nothing is lost: the bytes go to a temporary file
// created exclusively beside the final name (O_EXCL | O_NOFOLLOW under a name
// nobody can predict, so that a symbolic link planted there is never
// followed), and the temporary is renamed over the final name only once it is
// complete and synced. Every file dicesim writes goes through here.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace dicesim {

// A file that could not be written: the message says why (strerror), not
// which file: the caller names it and what it is.
struct FileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Writes `bytes` as `path`. Refuses to replace anything but a regular file
// (the rename would replace a symbolic link, device or FIFO by a plain file).
// On any failure the temporary is removed and `path` is left as it was.
void write_file_atomically(const std::string& path, std::string_view bytes);

// Creates and removes a temporary beside `path` as write_file_atomically
// does, so that a name too long for the file system or a directory where
// nothing can be created fails before any work rather than after it.
void check_temporary_creatable(const std::string& path);

}  // namespace dicesim
