// A thin RAII layer over the HDF5 C API: the few calls dicesim needs to write
// and read its results, with errors turned into exceptions.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace dicesim::h5 {

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Owns one HDF5 identifier and closes it with the matching call.
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle(hid_t id, Closer closer, const std::string& what);
  Handle(Handle&& other) noexcept : id_(other.id_), closer_(other.closer_) { other.id_ = -1; }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle();
  hid_t get() const { return id_; }

 private:
  hid_t id_;
  Closer closer_;
};

using Dims = std::vector<hsize_t>;

// Numeric data sets of at least this size are written chunked, shuffled and
// deflated at this level (HDF5's own filters, which every HDF5 reader has).
constexpr hsize_t kCompressFromBytes = 4096;
constexpr unsigned kDeflateLevel = 4;

// Builds the file in memory (HDF5's core driver without a backing store:
// HDF5 never opens the path) and writes it out only in close(), through
// write_file_atomically: a full disk or a file size limit then fails one
// plain write() with a clear errno, never inside the HDF5 library; a symbolic
// link is never followed; and nothing is written if close() is not reached.
class Writer {
 public:
  explicit Writer(const std::string& path);
  void close();  // writes the file to a temporary beside path, fsyncs it and renames it to path

  // Datasets; parent groups are created as needed. Empty dims = 1-D of data.size().
  void write(const std::string& path, const std::vector<std::int64_t>& data, Dims dims = {});
  void write(const std::string& path, const std::vector<double>& data, Dims dims = {});
  void write(const std::string& path, const std::vector<std::string>& data);
  void group(const std::string& path);

  // Makes the 1-D dataset at scale_path a dimension scale (named after the
  // dataset) and attaches it to dimension dim of each listed dataset, so that
  // generic tools (h5netcdf, xarray, HDFView) label that axis.
  void dimension_scale(const std::string& scale_path, const std::vector<std::string>& datasets, unsigned dim);

  // The `description` attribute of an object, and its `units` unless empty:
  // generic tools show them beside the numbers.
  void describe(const std::string& path, const std::string& units, const std::string& description);

  // Attributes on an existing object ("/" for the root).
  void attribute(const std::string& object, const std::string& name, const std::string& value);
  void attribute(const std::string& object, const std::string& name, std::int64_t value);
  void attribute(const std::string& object, const std::string& name, double value);
  void attribute(const std::string& object, const std::string& name, const std::vector<std::int64_t>& value);

 private:
  void write_raw(const std::string& path, hid_t file_type, hid_t memory_type, const void* data, Dims dims);
  void attribute_raw(const std::string& object, const std::string& name, hid_t file_type, hid_t memory_type,
                     const void* data, hsize_t count, bool scalar);
  std::string path_;
  Handle file_;
};

class Reader {
 public:
  explicit Reader(const std::string& path);

  bool exists(const std::string& path) const;
  bool has_attribute(const std::string& object, const std::string& name) const;
  std::vector<std::int64_t> int64s(const std::string& path, Dims* dims = nullptr) const;
  std::vector<double> doubles(const std::string& path, Dims* dims = nullptr) const;
  std::vector<std::string> strings(const std::string& path) const;
  std::string string_attribute(const std::string& object, const std::string& name) const;
  std::int64_t int_attribute(const std::string& object, const std::string& name) const;
  double double_attribute(const std::string& object, const std::string& name) const;
  std::vector<std::int64_t> int_array_attribute(const std::string& object, const std::string& name) const;

 private:
  template <class T>
  std::vector<T> read_numeric(const std::string& path, hid_t memory_type, Dims* dims) const;
  Handle file_;
};

}  // namespace dicesim::h5
