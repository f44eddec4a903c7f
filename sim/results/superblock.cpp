// The HDF5 superblock repair (superblock.h): HDF5's metadata checksum
// (lookup3) and the re-sealing of a file image's superblock with it.
#include "results/superblock.h"

#include <cstdint>
#include <cstring>

namespace dicesim::h5 {
namespace {

// Bob Jenkins' lookup3 (hashlittle, public domain): HDF5's checksum of its
// metadata.
std::uint32_t lookup3(const unsigned char* k, std::size_t length) {
  const auto rot = [](std::uint32_t x, int n) { return (x << n) | (x >> (32 - n)); };
  std::uint32_t a, b, c;
  a = b = c = 0xdeadbeef + static_cast<std::uint32_t>(length);
  const auto word = [&](std::size_t i) {
    return std::uint32_t(k[i]) | std::uint32_t(k[i + 1]) << 8 | std::uint32_t(k[i + 2]) << 16 |
           std::uint32_t(k[i + 3]) << 24;
  };
  for (; length > 12; length -= 12, k += 12) {
    a += word(0);
    b += word(4);
    c += word(8);
    a -= c, a ^= rot(c, 4), c += b;
    b -= a, b ^= rot(a, 6), a += c;
    c -= b, c ^= rot(b, 8), b += a;
    a -= c, a ^= rot(c, 16), c += b;
    b -= a, b ^= rot(a, 19), a += c;
    c -= b, c ^= rot(b, 4), b += a;
  }
  if (length == 0) return c;
  unsigned char tail[12] = {};
  std::memcpy(tail, k, length);
  k = tail;
  a += word(0);
  b += word(4);
  c += word(8);
  c ^= b, c -= rot(b, 14);
  a ^= c, a -= rot(c, 11);
  b ^= a, b -= rot(a, 25);
  c ^= b, c -= rot(b, 16);
  a ^= c, a -= rot(c, 4);
  b ^= a, b -= rot(a, 14);
  c ^= b, c -= rot(b, 24);
  return c;
}

}  // namespace

void seal_superblock(std::vector<char>& image) {
  if (image.size() < 12 || std::memcmp(image.data(), "\x89HDF\r\n\x1a\n", 8) != 0) return;
  const int version = image[8];
  const std::size_t offsets = static_cast<unsigned char>(image[9]), at = 12 + 4 * offsets;
  if ((version != 2 && version != 3) || image.size() < at + 4) return;
  image[11] = 0;
  const std::uint32_t sum = lookup3(reinterpret_cast<const unsigned char*>(image.data()), at);
  for (int i = 0; i < 4; ++i) image[at + i] = static_cast<char>(sum >> (8 * i));
}

}  // namespace dicesim::h5
