// Helpers shared by the tests: temporary directories, config files, and
// running the dicesim binary as a user would.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

namespace dicesim::testing {

// A fresh directory, removed with everything in it at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() / ("dicesim-test-" + std::to_string(rd()) + std::to_string(rd()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(file(name)) << text;
    return file(name);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

struct CommandResult {
  int exit_code;
  std::string out;  // stdout and stderr together
};

// Runs a shell command line as it is.
inline CommandResult run_shell(const std::string& command) {
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  std::string out;
  std::array<char, 4096> buffer;
  std::size_t n;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out.append(buffer.data(), n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), out};
}

// Runs `dicesim ARGS` through the shell (ARGS is shell text), in the
// directory cwd if one is given.
inline CommandResult dicesim(const std::string& args, const std::string& cwd = "") {
  return run_shell((cwd.empty() ? "" : "cd \"" + cwd + "\" && ") + std::string(DICESIM_BINARY) + " " + args);
}

inline std::string source_path(const std::string& relative) { return std::string(DICESIM_SOURCE_DIR) + "/" + relative; }

}  // namespace dicesim::testing
