// The HDF5 reader (class Reader of h5.h): a regular file opened read-only
// (or refused as held for writing by another program), and every dataset and
// attribute read through the guarded read path (h5_read_internal.h). The
// content checksum's recomputation, Reader::content_sha256, is in
// content_checksum.cpp.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "results/h5.h"
#include "results/h5_internal.h"
#include "results/h5_read_internal.h"

namespace dicesim::h5 {
namespace {

// The size of a regular file, which `path` must be: opening a FIFO, a device
// or a directory as HDF5 would could hang or read forever.
hsize_t regular_file_bytes(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw Error(std::string("cannot read the file (") + std::strerror(errno) + ")");
  struct stat st;
  const bool ok = ::fstat(fd, &st) == 0;
  const int error = errno;
  ::close(fd);
  if (!ok) throw Error(std::string("cannot read the file (") + std::strerror(error) + ")");
  if (!S_ISREG(st.st_mode)) throw Error("not a regular file (a directory, device, FIFO or socket)");
  return static_cast<hsize_t>(st.st_size);
}

std::string shape_text(const Dims& dims) {
  std::string text = "[";
  for (std::size_t i = 0; i < dims.size(); ++i) text += (i ? ", " : "") + std::to_string(dims[i]);
  return text + "]";
}

}  // namespace

Dims dims_of(hid_t dataspace, const std::string& what) {
  const int rank = H5Sget_simple_extent_ndims(dataspace);
  if (rank < 0 || rank > H5S_MAX_RANK) throw Error("HDF5: the shape of " + what);
  Dims dims(static_cast<std::size_t>(rank));
  if (rank > 0 && H5Sget_simple_extent_dims(dataspace, dims.data(), nullptr) < 0)
    throw Error("HDF5: the shape of " + what);
  return dims;
}

hsize_t count_of(const Dims& dims, int rank, hsize_t most, const std::string& what) {
  if (rank >= 0 && dims.size() != static_cast<std::size_t>(rank))
    throw Error(what + " has the shape " + shape_text(dims) + ", expected " + std::to_string(rank) + " dimensions");
  hsize_t n = 1;
  for (hsize_t d : dims) {
    if (d != 0 && n > most / d)
      n = most + 1;
    else
      n *= d;
  }
  if (n > most)
    throw Error(what + " has the shape " + shape_text(dims) + ", more than the " + std::to_string(most) +
                " values expected");
  return n;
}

hsize_t element_bytes(hid_t type, const std::string& what) {
  const std::size_t size = H5Tget_size(type);
  if (size == 0 || size > kMaxStringBytes) throw Error(what + " has values of an odd size");
  return std::max<hsize_t>(size, 8);
}

void check_string_type(hid_t type, const std::string& what) {
  if (H5Tget_class(type) != H5T_STRING) throw Error(what + " is not text");
  if (H5Tis_variable_str(type) > 0)
    throw Error(what + " is a variable-length string, which files of format 3.0 on never hold");
  const std::size_t size = H5Tget_size(type);
  const H5T_str_t pad = H5Tget_strpad(type);
  if (size == 0 || size > kMaxStringBytes || (pad != H5T_STR_NULLPAD && pad != H5T_STR_NULLTERM))
    throw Error(what + " is not text as dicesim writes it");
}

void check_number_type(hid_t type, H5T_class_t type_class, const std::string& what) {
  if (H5Tget_class(type) != type_class || H5Tget_size(type) == 0 || H5Tget_size(type) > 8)
    throw Error(what + (type_class == H5T_INTEGER ? " is not integers" : " is not floating-point numbers"));
}

std::vector<std::string> read_string_values(hid_t object, bool attribute, hid_t type, hsize_t count,
                                            const std::string& what) {
  std::vector<std::string> out;
  if (count == 0) return out;
  // Read as stored (size, padding and character set: HDF5 converts no
  // character set into another), the type checked already.
  const std::size_t size = H5Tget_size(type);
  Handle memory(H5Tcopy(type), H5Tclose, "string type of " + what);
  std::string packed(count * size, '\0');
  check(attribute ? H5Aread(object, memory.get(), packed.data())
                  : H5Dread(object, memory.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, packed.data()),
        "read " + what);
  for (hsize_t i = 0; i < count; ++i)
    out.emplace_back(without_padding(std::string_view(packed).substr(i * size, size)));
  return out;
}

namespace {

// A single value: a scalar or one element.
void require_single(const AttributeRead& a, hsize_t n) {
  if (n != 1) throw Error(a.what() + " is not a single value");
}

// Why a file HDF5 would not open is held for writing by another program, or
// "": HDF5 locks a file it writes (flock, exclusive), and marks the
// superblock (versions 2 and 3: flags at byte 11) open for writing, which
// stays where locking is off or the writer stopped.
std::string held_for_writing(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return "";
  const bool locked = ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  unsigned char head[12] = {};
  const bool flagged = ::pread(fd, head, sizeof head, 0) == sizeof head &&
                       std::memcmp(head, "\x89HDF\r\n\x1a\n", 8) == 0 && (head[8] == 2 || head[8] == 3) &&
                       (head[11] & 1) != 0;
  ::close(fd);  // and with it the shared lock, if it was taken
  if (locked) return "is open for writing by another program (HDF5 file lock): close it there first";
  if (flagged)
    return "is marked open for writing by another program (HDF5 superblock flag): close it there, or, if that "
           "program stopped while writing, check the file (h5clear -s clears the flag)";
  return "";
}

Handle open_for_reading(const std::string& path) {
  const hid_t id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (id < 0)
    if (const std::string why = held_for_writing(path); !why.empty()) throw HeldForWriting(why);
  return Handle(id, H5Fclose, "file " + path);
}

}  // namespace

Reader::Reader(const std::string& path) : file_bytes_(regular_file_bytes(path)), file_(open_for_reading(path)) {}

bool Reader::exists(const std::string& path) const {
  // Check each link along the path, as H5Lexists requires.
  std::size_t pos = 0;
  while ((pos = path.find('/', pos + 1)) != std::string::npos) {
    if (H5Lexists(file_.get(), path.substr(0, pos).c_str(), H5P_DEFAULT) <= 0) return false;
  }
  return H5Lexists(file_.get(), path.c_str(), H5P_DEFAULT) > 0;
}

bool Reader::has_attribute(const std::string& object, const std::string& name) const {
  return H5Aexists_by_name(file_.get(), object.c_str(), name.c_str(), H5P_DEFAULT) > 0;
}

template <class T>
std::vector<T> Reader::read_numeric(const std::string& path, hid_t memory_type, H5T_class_t type_class,
                                    Expected expected, Dims* dims) const {
  const DatasetRead d(file_.get(), path);
  check_number_type(d.type(), type_class, path);
  const hsize_t n = d.count(expected.rank, expected.most, file_bytes_);
  if (dims) *dims = d.dims();
  std::vector<T> data(n);
  if (n > 0) check(H5Dread(d.id(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()), "read " + path);
  return data;
}

std::vector<std::int64_t> Reader::int64s(const std::string& path, Expected expected, Dims* dims) const {
  return read_numeric<std::int64_t>(path, H5T_NATIVE_INT64, H5T_INTEGER, expected, dims);
}

std::vector<double> Reader::doubles(const std::string& path, Expected expected, Dims* dims) const {
  return read_numeric<double>(path, H5T_NATIVE_DOUBLE, H5T_FLOAT, expected, dims);
}

void Reader::int64_slabs(const std::string& path, hsize_t most,
                         const std::function<void(const std::vector<std::int64_t>&)>& take) const {
  const DatasetRead d(file_.get(), path);
  check_number_type(d.type(), H5T_INTEGER, path);
  std::vector<std::int64_t> slab;
  d.slabs<std::int64_t>(H5T_NATIVE_INT64, d.count(1, most, file_bytes_),
                        [&](const std::int64_t* values, std::size_t n) {
                          slab.assign(values, values + n);
                          take(slab);
                        });
}

std::vector<std::string> Reader::strings(const std::string& path, Expected expected) const {
  const DatasetRead d(file_.get(), path);
  check_string_type(d.type(), path);
  return read_string_values(d.id(), false, d.type(), d.count(expected.rank, expected.most, file_bytes_), path);
}

std::string Reader::string_attribute(const std::string& object, const std::string& name) const {
  const AttributeRead a(file_.get(), object, name);
  check_string_type(a.type(), a.what());
  const hsize_t n = a.count(1, file_bytes_);
  require_single(a, n);
  return read_string_values(a.id(), true, a.type(), n, a.what()).front();
}

std::int64_t Reader::int_attribute(const std::string& object, const std::string& name) const {
  return int_array_attribute(object, name, 1).front();
}

double Reader::double_attribute(const std::string& object, const std::string& name) const {
  const AttributeRead a(file_.get(), object, name);
  check_number_type(a.type(), H5T_FLOAT, a.what());
  require_single(a, a.count(1, file_bytes_));
  double value = 0;
  check(H5Aread(a.id(), H5T_NATIVE_DOUBLE, &value), "read " + a.what());
  return value;
}

std::vector<std::int64_t> Reader::int_array_attribute(const std::string& object, const std::string& name,
                                                      std::size_t count) const {
  const AttributeRead a(file_.get(), object, name);
  check_number_type(a.type(), H5T_INTEGER, a.what());
  const hsize_t n = a.count(count, file_bytes_);
  if (n != count) throw Error(a.what() + " holds " + std::to_string(n) + " values, expected " + std::to_string(count));
  std::vector<std::int64_t> values(n);
  check(H5Aread(a.id(), H5T_NATIVE_INT64, values.data()), "read " + a.what());
  return values;
}

}  // namespace dicesim::h5
