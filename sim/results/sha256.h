// SHA-256 (FIPS 180-4), fed piece by piece: the content checksum of a results
// file (sim/results/README.md, Checksums and trust), which Python's hashlib
// recomputes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace dicesim {

class Sha256 {
 public:
  Sha256();
  void add(const void* data, std::size_t size);
  void add(std::string_view bytes) { add(bytes.data(), bytes.size()); }
  void add_word(std::uint64_t word);      // its 8 bytes, least significant first
  std::array<std::uint8_t, 32> digest();  // ends the hash
  std::string hex();                      // the digest as 64 lowercase hex digits

 private:
  void block(const std::uint8_t* data);
  std::array<std::uint32_t, 8> state_;
  std::array<std::uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t length_ = 0;  // bytes added
};

}  // namespace dicesim
