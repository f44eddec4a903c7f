// One stop flag for the whole process: set by SIGINT/SIGTERM, polled by the
// engine between chunks and by long exact solves, so that an interrupted
// command can still write what it has and exit 130.
#pragma once

#include <atomic>
#include <stdexcept>

namespace dicesim {

// The process-wide flag (signal-safe: lock-free atomic).
inline std::atomic<bool>& stop_requested() {
  static std::atomic<bool> flag{false};
  return flag;
}

// Thrown by a long computation that saw the flag; the command that started it
// catches it and writes what was finished.
struct Interrupted : std::runtime_error {
  Interrupted() : std::runtime_error("interrupted") {}
};

inline void throw_if_interrupted() {
  if (stop_requested().load(std::memory_order_relaxed)) throw Interrupted();
}

}  // namespace dicesim
