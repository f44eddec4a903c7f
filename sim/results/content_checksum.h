// The content checksum of a results file, in one place: what it hashes
// (ValueHash and the entry headers), which attributes it leaves out, and how
// the entries combine. The Writer adds an entry per dataset and attribute it
// writes; Reader::content_sha256 (content_checksum.cpp) recomputes them from
// the file. Internal to results/h5*.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "results/h5_internal.h"
#include "results/sha256.h"

namespace dicesim::h5 {

// The content checksum (sim/README.md, Results file: checksums). Each
// dataset and attribute is an entry: a header ("D" path NUL for a dataset,
// "A" object NUL name NUL for an attribute) followed by the SHA-256 of its
// value: a tag (i: int64, f: float64, s: string), the rank and each
// dimension as 8-byte words, then every value, numbers as their 8 bytes,
// strings as an 8-byte length and their bytes (words least significant byte
// first). The checksum is the SHA-256 of the entries in byte order.
static_assert(std::endian::native == std::endian::little, "the checksum hashes numbers as stored in memory");

std::string dataset_header(const std::string& path);
std::string attribute_header(const std::string& object, const std::string& name);

class ValueHash {
 public:
  ValueHash(char tag, const Dims& dims) {
    hash_.add(&tag, 1);
    hash_.add_word(dims.size());
    for (hsize_t d : dims) hash_.add_word(d);
  }
  template <class T>
  void numbers(const T* values, std::size_t n) {
    static_assert(sizeof(T) == 8);
    hash_.add(values, n * sizeof(T));
  }
  void text(std::string_view s) {
    s = without_padding(s);
    hash_.add_word(s.size());
    hash_.add(s);
  }
  std::string entry(const std::string& header) {
    const std::array<std::uint8_t, 32> digest = hash_.digest();
    return header + std::string(digest.begin(), digest.end());
  }

 private:
  Sha256 hash_;
};

// The checksum of the entries: the SHA-256 of them sorted, as hex.
std::string checksum_of(std::vector<std::string> entries);

// Attributes that the HDF5 dimension-scale calls write for themselves (and
// the checksum itself, on the root): outside the content checksum, and
// never read by dicesim.
bool outside_checksum(const std::string& object, const std::string& name);

}  // namespace dicesim::h5
