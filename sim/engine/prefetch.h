// Starting a load that nothing waits on yet (a cache line the hot loop
// will read a little later).
#pragma once

#include <cstdint>

namespace dicesim {

// An asm statement on x86: GCC drops __builtin_prefetch in code it deems
// cold (10,000's turns left to decide), which is where it is needed.
inline void prefetch(const void* address) {
#if defined(__x86_64__) || defined(__i386__)
  asm volatile("prefetcht0 %0" : : "m"(*static_cast<const char*>(address)));
#else
  __builtin_prefetch(address);
#endif
}

// Every cache line from the one holding `first` to the one holding `last`.
inline void prefetch_lines(const void* first, const void* last) {
  constexpr std::uintptr_t kLine = 64;
  const auto end = reinterpret_cast<std::uintptr_t>(last);
  for (std::uintptr_t line = reinterpret_cast<std::uintptr_t>(first) & ~(kLine - 1); line <= end; line += kLine)
    prefetch(reinterpret_cast<const void*>(line));
}

}  // namespace dicesim
