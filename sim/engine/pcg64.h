// pcg64 (PCG XSL-RR 128/64 with a selectable stream), the generator behind
// every game's dice, written out so that one class runs on the host and on a
// GPU: pcg-cpp's engines are host-only. It is pcg-cpp's pcg64 bit for bit
// in what dicesim uses: the constructors from a seed and from a seed and a
// stream, the outputs, equality, and the distance between two generators
// of one stream (tests/engine/pcg64_test.cpp checks each against pcg-cpp).
#pragma once

#include <cstdint>

#include "engine/device.h"

namespace dicesim {

class Pcg64 {
 public:
  using uint128 = unsigned __int128;
  using result_type = std::uint64_t;

  static constexpr uint128 kMultiplier = (uint128(2549297995355413924ULL) << 64) | 4865540595714422341ULL;
  static constexpr uint128 kDefaultIncrement = (uint128(6364136223846793005ULL) << 64) | 1442695040888963407ULL;

  // The default stream from `seed`, as pcg64(seed).
  DICESIM_HD constexpr explicit Pcg64(uint128 seed = 0xcafef00dd15ea5e5ULL)
      : increment_(kDefaultIncrement), state_(bump(seed + increment_)) {}
  // Stream `stream` (its top bit is dropped: 2^127 streams), as pcg64(seed, stream).
  DICESIM_HD constexpr Pcg64(uint128 seed, uint128 stream)
      : increment_((stream << 1) | 1), state_(bump(seed + increment_)) {}  // increment_ is set first

  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return ~result_type(0); }

  // The next 64 bits: step the state, then output it (XSL-RR: the two halves
  // xor-ed, rotated by the state's top six bits).
  DICESIM_HD constexpr result_type operator()() {
    state_ = bump(state_);
    const auto rotate = static_cast<unsigned>(state_ >> 122);
    const auto folded = static_cast<std::uint64_t>(state_ ^ (state_ >> 64));
    return (folded >> rotate) | (folded << ((64 - rotate) & 63));
  }

  // How many draws lead from `earlier` to this generator (same stream):
  // pcg-cpp's `later - earlier`, found bit by bit from the lowest.
  DICESIM_HD constexpr uint128 operator-(const Pcg64& earlier) const {
    uint128 state = earlier.state_, multiplier = kMultiplier, plus = increment_, distance = 0, bit = 1;
    while (state != state_) {
      if ((state & bit) != (state_ & bit)) {
        state = state * multiplier + plus;
        distance |= bit;
      }
      bit <<= 1;
      plus = (multiplier + 1) * plus;
      multiplier *= multiplier;
    }
    return distance;
  }

  DICESIM_HD constexpr bool operator==(const Pcg64& other) const {
    return state_ == other.state_ && increment_ == other.increment_;
  }
  DICESIM_HD constexpr uint128 state() const { return state_; }
  DICESIM_HD constexpr uint128 increment() const { return increment_; }

 private:
  DICESIM_HD constexpr uint128 bump(uint128 state) const { return state * kMultiplier + increment_; }

  uint128 increment_;  // odd: the stream
  uint128 state_;
};

}  // namespace dicesim
