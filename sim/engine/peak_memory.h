// The most memory this process has held, which the exact solvers report
// beside their time (VmHWM of /proc/self/status; 0 where there is no /proc).
#pragma once

#include <cstdint>
#include <fstream>
#include <string>

namespace dicesim {

inline std::uint64_t peak_resident_bytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
  return 0;
}

}  // namespace dicesim
