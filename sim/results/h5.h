// A thin RAII layer over the HDF5 C API: the few calls dicesim needs to write
// and read its results, with errors turned into exceptions. Implemented in
// h5_handle.cpp (Handle), h5_writer.cpp (Writer), h5_reader.cpp (Reader),
// content_checksum.cpp (the content checksum) and superblock.cpp.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace dicesim::h5 {

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A file another program holds open for writing (h5py, HDF5 tools): not a
// damaged file, and said so. The message says how it was told.
struct HeldForWriting : Error {
  using Error::Error;
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

// The most bytes one string (an attribute, or an element of a dataset) may
// hold, written or read.
constexpr hsize_t kMaxStringBytes = hsize_t(16) << 20;

// The root attribute holding the content checksum: SHA-256 over every
// dataset and attribute the Writer wrote (sim/README.md, Results file:
// checksums), which Reader::content_sha256 recomputes.
constexpr const char* kContentChecksum = "content_sha256";

// Builds the file in memory (HDF5's core driver without a backing store:
// HDF5 never opens the path) and writes it out only in close(), through
// write_file_atomically: a full disk or a file size limit then fails one
// plain write() with a clear errno, never inside the HDF5 library; a symbolic
// link is never followed; and nothing is written if close() is not reached. The file is in HDF5's 1.8 format
// (checksummed object headers), its attributes and small groups' links compact; every string is written fixed-length (a
// reader then finds it in the object itself, never following an id into the file's global heap); close() stores the
// content checksum (sim/README.md, Checksums and trust).
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
  std::vector<std::string> entries_;  // of the content checksum, one per dataset and attribute
};

// What a read expects of a dataset: its rank and at most how many values, a
// bound the caller takes from the plan or the format. Checked, with the
// dataset's type and stored size, before anything is allocated.
struct Expected {
  int rank = 1;  // -1: any
  hsize_t most = 0;
};
// Any shape, bounded by the file alone: for tests and tools reading a file
// they wrote themselves.
constexpr Expected kAnyShape{-1, hsize_t(1) << 40};

// Every read goes through one guarded path: the stored type must be the one
// asked for (an integer for int64s, a float for doubles, a fixed-length
// string for strings), the shape as expected, and the data no larger than
// the file can hold (its stored bytes within the file, and at most what
// deflate can inflate them to); anything else is an Error naming the object.
class Reader {
 public:
  // Opens a regular file (never a FIFO, device or directory) read-only;
  // HeldForWriting when another program has it open for writing.
  explicit Reader(const std::string& path);

  bool exists(const std::string& path) const;
  bool has_attribute(const std::string& object, const std::string& name) const;
  std::vector<std::int64_t> int64s(const std::string& path, Expected expected, Dims* dims = nullptr) const;
  std::vector<double> doubles(const std::string& path, Expected expected, Dims* dims = nullptr) const;
  std::vector<std::string> strings(const std::string& path, Expected expected) const;
  // The int64s of a 1-D dataset, handed to `take` a slab at a time: memory
  // stays small whatever the dataset declares.
  void int64_slabs(const std::string& path, hsize_t most,
                   const std::function<void(const std::vector<std::int64_t>&)>& take) const;
  std::string string_attribute(const std::string& object, const std::string& name) const;
  std::int64_t int_attribute(const std::string& object, const std::string& name) const;
  double double_attribute(const std::string& object, const std::string& name) const;
  // Exactly `count` values (format_version: 2).
  std::vector<std::int64_t> int_array_attribute(const std::string& object, const std::string& name,
                                                std::size_t count) const;

  // The content checksum of the file as it is (kContentChecksum): every
  // dataset and attribute read through the guarded path, a slab at a time.
  // An object that no Writer makes (a soft or external link, a named type,
  // a variable-length string) is an Error.
  std::string content_sha256() const;

 private:
  template <class T>
  std::vector<T> read_numeric(const std::string& path, hid_t memory_type, H5T_class_t type_class, Expected expected,
                              Dims* dims) const;
  hsize_t file_bytes_;  // the bound of every read
  Handle file_;
};

}  // namespace dicesim::h5
