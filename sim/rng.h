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

// SplitMix64's finaliser: a bijection that scatters every input bit.
constexpr std::uint64_t mix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// The stream of one block: (contest, block) picks one of PCG's 2^127
// distinct streams, and (seed, contest, block), mixed, fill the whole
// 128-bit starting state. Related seeds, or one state shared by several
// streams, would give visibly correlated dice.
inline Rng block_rng(std::uint64_t seed, std::uint64_t contest_id, std::uint64_t block) {
  const std::uint64_t high = mix64(mix64(mix64(seed) ^ contest_id) ^ block);
  const std::uint64_t low = mix64(high ^ 0x6a09e667f3bcc909ULL);
  const pcg_extras::pcg128_t state = (pcg_extras::pcg128_t(high) << 64) | low;
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

// The same multiply-shift for any word width (Wide holds twice Word's
// bits), so that a test can check every input of a small word.
template <class Word, class Wide>
constexpr bool multiply_shift_below(Word random, Word range, Word& out) {
  const Wide product = Wide(random) * range;
  const auto low = static_cast<Word>(product);
  if (low < range && low < static_cast<Word>(static_cast<Word>(Word(0) - range) % range)) return false;
  out = static_cast<Word>(product >> (8 * sizeof(Word)));
  return true;
}

inline std::uint32_t uniform_below(Rng& rng, std::uint32_t range) {
  std::uint32_t out;
  while (!lemire_below(static_cast<std::uint32_t>(rng()), range, out)) {
  }
  return out;
}

}  // namespace dicesim
