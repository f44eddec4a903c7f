// Random streams: one independent PCG stream per (seed, table, block), so
// results never depend on which thread or rank plays a block.
#pragma once

#include <cstdint>
#include <string_view>

#include "engine/device.h"
#include "engine/pcg64.h"

namespace dicesim {

using Rng = Pcg64;  // pcg64: 128-bit state, selectable stream; host and device

// FNV-1a, fed piece by piece: the one hash of dicesim (table ids,
// checksums of results files, the bench signature).
class Fnv1a {
 public:
  constexpr void add_bytes(std::string_view bytes) {
    for (char c : bytes) add_byte(static_cast<unsigned char>(c));
  }
  // A 64-bit word as its 8 bytes, least significant first.
  constexpr void add_word(std::uint64_t word) {
    for (int byte = 0; byte < 8; ++byte) add_byte(static_cast<unsigned char>(word >> (8 * byte)));
  }
  constexpr std::uint64_t value() const { return hash_; }

 private:
  constexpr void add_byte(unsigned char byte) { hash_ = (hash_ ^ byte) * 0x100000001b3ULL; }
  std::uint64_t hash_ = 0xcbf29ce484222325ULL;
};

// A stable 64-bit id for a table's key, so adding or reordering tables
// in a config never changes the random numbers of the others.
constexpr std::uint64_t stable_hash(std::string_view text) {
  Fnv1a h;
  h.add_bytes(text);
  return h.value();
}

// SplitMix64's finaliser: a bijection that scatters every input bit.
DICESIM_HD constexpr std::uint64_t mix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// The stream of one block: (table, block) picks one of PCG's 2^127
// distinct streams, and (seed, table, block), mixed, fill the whole
// 128-bit starting state. Related seeds, or one state shared by several
// streams, would give visibly correlated dice.
DICESIM_HD inline Rng block_rng(std::uint64_t seed, std::uint64_t table_id, std::uint64_t block) {
  const std::uint64_t high = mix64(mix64(mix64(seed) ^ table_id) ^ block);
  const std::uint64_t low = mix64(high ^ 0x6a09e667f3bcc909ULL);
  const Pcg64::uint128 state = (Pcg64::uint128(high) << 64) | low;
  // PCG drops the stream's top bit, so the table id keeps 63 bits.
  const Pcg64::uint128 stream = (Pcg64::uint128(table_id & 0x7fffffffffffffffULL) << 64) | block;
  return Rng(state, stream);
}

// Lemire's multiply-shift: a uniform integer in [0, range) from one random
// word, unbiased by rejecting the few low products that would skew it.
// Returns false on a rejection; the caller draws again. Any word width
// (Wide holds twice Word's bits), so that a test can check every input of a
// small word; the 32- and 64-bit draws of the games are this one function.
template <class Word, class Wide>
DICESIM_HD constexpr bool lemire_below(Word random, Word range, Word& out) {
  const Wide product = Wide(random) * range;
  const auto low = static_cast<Word>(product);
  if (low < range && low < static_cast<Word>(static_cast<Word>(Word(0) - range) % range)) return false;
  out = static_cast<Word>(product >> (8 * sizeof(Word)));
  return true;
}

// The 32-bit draw, from the low 32 bits of `random`.
DICESIM_HD constexpr bool lemire_below(std::uint32_t random, std::uint32_t range, std::uint32_t& out) {
  return lemire_below<std::uint32_t, std::uint64_t>(random, range, out);
}

// Uniform in [0, range) from 32-bit draws of the stream.
DICESIM_HD inline std::uint32_t uniform_below(Rng& rng, std::uint32_t range) {
  std::uint32_t out;
  while (!lemire_below(static_cast<std::uint32_t>(rng()), range, out)) {
  }
  return out;
}

// Uniform in [0, range) from whole 64-bit draws of the stream.
DICESIM_HD inline std::uint64_t uniform_below64(Rng& rng, std::uint64_t range) {
  std::uint64_t out;
  while (!lemire_below<std::uint64_t, unsigned __int128>(rng(), range, out)) {
  }
  return out;
}

// The same with Lemire's bound (2^64 mod range) worked out once, for a
// range drawn from again and again: the same numbers, and never a division
// (a range near 2^64 would divide on most draws).
DICESIM_HD inline std::uint64_t uniform_below64(Rng& rng, std::uint64_t range, std::uint64_t reject_below) {
  for (;;) {
    const unsigned __int128 product = static_cast<unsigned __int128>(rng()) * range;
    if (static_cast<std::uint64_t>(product) >= reject_below) [[likely]]
      return static_cast<std::uint64_t>(product >> 64);
  }
}

}  // namespace dicesim
