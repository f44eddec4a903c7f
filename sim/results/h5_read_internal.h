// Internal to the HDF5 layer: the guarded read path that Reader
// (h5_reader.cpp) and the content checksum's recomputation
// (content_checksum.cpp) both read through: types, shapes and sizes checked
// before anything is allocated or read.
#pragma once

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "results/h5_internal.h"
#include "results/results_layout.h"

namespace dicesim::h5 {

// Values read at once when a dataset is streamed.
constexpr hsize_t kSlabValues = hsize_t(1) << 20;

// The shape of a dataspace, or an Error naming `what`.
Dims dims_of(hid_t dataspace, const std::string& what);

// The values of `dims`, or an Error: a rank other than `rank`, more than `most`.
hsize_t count_of(const Dims& dims, int rank, hsize_t most, const std::string& what);

// The bytes `count` values of `type` take in memory (variable-length
// strings: their ids), or an Error for a type of an odd size.
hsize_t element_bytes(hid_t type, const std::string& what);

// A string type dicesim reads: fixed-length of a bounded size, NUL-padded or
// NUL-terminated; never variable-length (read by following ids into the
// file, where a damaged file can make libhdf5 crash).
void check_string_type(hid_t type, const std::string& what);

// A number type dicesim reads: of `type_class`, at most 8 bytes.
void check_number_type(hid_t type, H5T_class_t type_class, const std::string& what);

// Reads `count` fixed-length strings of `type` (checked) from an attribute or a dataset.
std::vector<std::string> read_string_values(hid_t object, bool attribute, hid_t type, hsize_t count,
                                            const std::string& what);

// A dataset opened for a guarded read.
class DatasetRead {
 public:
  DatasetRead(hid_t file, const std::string& path)
      : path_(path),
        dataset_(H5Dopen2(file, path.c_str(), H5P_DEFAULT), H5Dclose, "dataset " + path),
        space_(H5Dget_space(dataset_.get()), H5Sclose, "dataspace of " + path),
        type_(H5Dget_type(dataset_.get()), H5Tclose, "type of " + path),
        dims_(dims_of(space_.get(), path)) {}
  hid_t id() const { return dataset_.get(); }
  hid_t type() const { return type_.get(); }
  const Dims& dims() const { return dims_; }

  // The number of values, checked against the expected rank and count and
  // against the file: the bytes stored lie within it, and deflate could
  // have inflated them to the values declared.
  hsize_t count(int rank, hsize_t most, hsize_t file_bytes) const {
    const hsize_t n = count_of(dims_, rank, most, path_);
    if (n == 0) return 0;
    const unsigned __int128 bytes = static_cast<unsigned __int128>(n) * element_bytes(type_.get(), path_);
    const hsize_t stored = H5Dget_storage_size(dataset_.get());
    if (stored > file_bytes) throw Error(path_ + " claims more bytes than the file has");
    if (H5Tis_variable_str(type_.get()) <= 0 && bytes > static_cast<unsigned __int128>(stored) * kMostInflation)
      throw Error(path_ + " declares " + std::to_string(n) + " values but stores " + std::to_string(stored) + " bytes");
    return n;
  }

  // Reads the values a slab of whole rows at a time (at least one row).
  template <class T>
  void slabs(hid_t memory_type, hsize_t n, const std::function<void(const T*, std::size_t)>& take) const {
    if (n == 0) return;
    if (dims_.empty()) {
      std::vector<T> value(1);
      check(H5Dread(id(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, value.data()), "read " + path_);
      take(value.data(), 1);
      return;
    }
    const hsize_t row = n / dims_[0];
    const hsize_t rows = std::max<hsize_t>(1, kSlabValues / row);
    std::vector<T> buffer;
    for (hsize_t first = 0; first < dims_[0]; first += rows) {
      Dims start(dims_.size(), 0), count = dims_;
      start[0] = first;
      count[0] = std::min(rows, dims_[0] - first);
      const hsize_t values = count[0] * row;
      buffer.resize(values);
      check(H5Sselect_hyperslab(space_.get(), H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr),
            "select " + path_);
      Handle memory(H5Screate_simple(1, &values, nullptr), H5Sclose, "dataspace");
      check(H5Dread(id(), memory_type, memory.get(), space_.get(), H5P_DEFAULT, buffer.data()), "read " + path_);
      take(buffer.data(), values);
    }
  }

 private:
  std::string path_;
  Handle dataset_, space_, type_;
  Dims dims_;
};

// An attribute opened for a guarded read.
class AttributeRead {
 public:
  AttributeRead(hid_t file, const std::string& object, const std::string& name)
      : what_("attribute " + name + " of " + object),
        attr_(H5Aopen_by_name(file, object.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose, what_),
        space_(H5Aget_space(attr_.get()), H5Sclose, "dataspace of " + what_),
        type_(H5Aget_type(attr_.get()), H5Tclose, "type of " + what_),
        dims_(dims_of(space_.get(), what_)) {}
  hid_t id() const { return attr_.get(); }
  hid_t type() const { return type_.get(); }
  const Dims& dims() const { return dims_; }
  const std::string& what() const { return what_; }

  // The number of values: `most` at most, and within the file (an
  // attribute is stored as it is).
  hsize_t count(hsize_t most, hsize_t file_bytes) const {
    const hsize_t n = count_of(dims_, -1, most, what_);
    const unsigned __int128 bytes = static_cast<unsigned __int128>(n) * element_bytes(type_.get(), what_);
    if (H5Tis_variable_str(type_.get()) <= 0 && bytes > file_bytes + 8)
      throw Error(what_ + " declares more bytes than the file has");
    return n;
  }

 private:
  std::string what_;
  Handle attr_, space_, type_;
  Dims dims_;
};

}  // namespace dicesim::h5
