// Random streams: one independent PCG stream per (seed, contest, block), so
// results never depend on which thread or rank plays a block.
#pragma once

#include <cstdint>
#include <pcg_random.hpp>
#include <string_view>

namespace dicesim {

using Rng = pcg64;  // 128-bit state, selectable stream

// FNV-1a: a stable 64-bit id for a contest's key, so adding or reordering
// contests in a config never changes the random numbers of the others.
constexpr std::uint64_t stable_hash(std::string_view text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

// The stream of one block: the seed picks the starting state, and
// (contest, block) picks one of PCG's 2^127 distinct streams.
inline Rng block_rng(std::uint64_t seed, std::uint64_t contest_id, std::uint64_t block) {
  const pcg_extras::pcg128_t state = (pcg_extras::pcg128_t(seed) << 64) | 0x853c49e6748fea9bULL;
  // PCG drops the stream's top bit, so the contest id keeps 63 bits.
  const pcg_extras::pcg128_t stream = (pcg_extras::pcg128_t(contest_id & 0x7fffffffffffffffULL) << 64) | block;
  return Rng(state, stream);
}

// Lemire's multiply-shift: a uniform integer in [0, range) from 32 random
// bits, unbiased by rejecting the few low products that would skew it.
// Returns false on a rejection; the caller draws again.
inline bool lemire_below(std::uint32_t random, std::uint32_t range, std::uint32_t& out) {
  const std::uint64_t product = std::uint64_t(random) * range;
  const auto low = static_cast<std::uint32_t>(product);
  if (low < range) {
    const std::uint32_t threshold = -range % range;
    if (low < threshold) return false;
  }
  out = static_cast<std::uint32_t>(product >> 32);
  return true;
}

inline std::uint32_t uniform_below(Rng& rng, std::uint32_t range) {
  std::uint32_t out;
  while (!lemire_below(static_cast<std::uint32_t>(rng()), range, out)) {
  }
  return out;
}

}  // namespace dicesim
