// The HDF5 writer (class Writer of h5.h): a results file built in memory in
// HDF5's 1.8 format, compact and compressed as h5.h describes, its content
// checksum added and its superblock sealed in close(), then written out
// atomically.
#include <hdf5_hl.h>
#include <sys/types.h>

#include <algorithm>

#include "engine/files.h"
#include "results/content_checksum.h"
#include "results/h5.h"
#include "results/h5_internal.h"
#include "results/superblock.h"

namespace dicesim::h5 {
namespace {

// Fixed-length UTF-8 strings of `size` bytes, padded with NULs.
Handle fixed_string_type(std::size_t size) {
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose, "string type");
  check(H5Tset_size(type.get(), std::max<std::size_t>(size, 1)), "string size");
  check(H5Tset_strpad(type.get(), H5T_STR_NULLPAD), "string padding");
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "string charset");
  return type;
}

Handle space(const Dims& dims) {
  return Handle(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose, "dataspace");
}

Handle intermediate_groups() {
  Handle list(H5Pcreate(H5P_LINK_CREATE), H5Pclose, "link property list");
  check(H5Pset_create_intermediate_group(list.get(), 1), "intermediate groups");
  return list;
}

hsize_t element_count(hid_t dataspace) {
  const hssize_t n = H5Sget_simple_extent_npoints(dataspace);
  if (n < 0) throw Error("HDF5: dataspace size");
  return static_cast<hsize_t>(n);
}

// Attributes stay in their object's header (compact storage), and so do a
// group's links up to kMostCompactLinks, rather than in the fractal heaps
// and v2 B-trees of dense storage, whose parsing of a damaged file is where
// libhdf5 crashes most. A group of more links (the distributions of many
// strategies, many n-way tables) is dense: finding a link among compact
// ones scans them all, and moving a thousand of them to dense storage at
// once takes seconds.
constexpr unsigned kMostCompactAttributes = 65535;
constexpr unsigned kMostCompactLinks = 64;

// Keeps an object's attributes (and a group's links) compact.
void keep_compact(hid_t list, bool links) {
  check(H5Pset_attr_phase_change(list, kMostCompactAttributes, kMostCompactAttributes), "compact attributes");
  if (links) check(H5Pset_link_phase_change(list, kMostCompactLinks, kMostCompactLinks), "compact links");
}

Handle group_creation() {
  Handle list(H5Pcreate(H5P_GROUP_CREATE), H5Pclose, "group creation list");
  keep_compact(list.get(), true);
  return list;
}

// The 1.8 format (every HDF5 reader since 2008): its object headers carry
// checksums, so that libhdf5 refuses a damaged header instead of parsing it,
// and it holds a fixed-length string attribute past 64 KiB.
Handle in_memory_file(const std::string& path) {
  Handle access(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "file access list");
  check(H5Pset_fapl_core(access.get(), 1 << 20, 0), "in-memory driver");
  check(H5Pset_libver_bounds(access.get(), H5F_LIBVER_V18, H5F_LIBVER_V18), "file format version");
  Handle creation(H5Pcreate(H5P_FILE_CREATE), H5Pclose, "file creation list");
  keep_compact(creation.get(), true);
  return Handle(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, creation.get(), access.get()), H5Fclose, "file " + path);
}

// Creates the groups along `path` that do not exist yet, compact.
void make_parents(hid_t file, const std::string& path) {
  for (std::size_t at = path.find('/', 1); at != std::string::npos; at = path.find('/', at + 1)) {
    const std::string parent = path.substr(0, at);
    if (H5Lexists(file, parent.c_str(), H5P_DEFAULT) > 0) continue;
    Handle creation = group_creation();
    Handle group(H5Gcreate2(file, parent.c_str(), H5P_DEFAULT, creation.get(), H5P_DEFAULT), H5Gclose,
                 "group " + parent);
  }
}

// Chunks of at most about kChunkBytes (or one innermost row if that is
// larger): the innermost dimensions whole and as many entries of the next as
// fit, so that a reader of one row (a strategy's pairs, a seat's histogram)
// inflates little more than it reads.
constexpr hsize_t kChunkBytes = hsize_t(1) << 20;

Dims chunk_shape(const Dims& dims, hsize_t element_bytes) {
  Dims chunk = dims;
  hsize_t trailing = element_bytes;
  for (std::size_t d = dims.size(); d-- > 0;) {
    if (trailing * dims[d] <= kChunkBytes) {
      trailing *= dims[d];
      continue;
    }
    chunk[d] = std::max<hsize_t>(1, kChunkBytes / trailing);
    for (std::size_t outer = 0; outer < d; ++outer) chunk[outer] = 1;
    break;
  }
  return chunk;
}

// Histograms and matrices are mostly zeros and small counts: byte shuffle
// then deflate shrinks them many times over. Small data sets stay
// contiguous, where a chunk index would cost more than compression saves.
Handle creation_list(const Dims& dims, hsize_t element_bytes, bool numeric) {
  Handle list(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "dataset creation list");
  keep_compact(list.get(), false);
  hsize_t bytes = element_bytes;
  for (hsize_t d : dims) bytes *= d;
  if (!numeric || bytes < kCompressFromBytes) return list;
  const Dims chunk = chunk_shape(dims, element_bytes);
  check(H5Pset_chunk(list.get(), static_cast<int>(chunk.size()), chunk.data()), "chunked layout");
  check(H5Pset_shuffle(list.get()), "shuffle filter");
  check(H5Pset_deflate(list.get(), kDeflateLevel), "deflate filter");
  return list;
}

}  // namespace

Writer::Writer(const std::string& path) : path_(path), file_(in_memory_file(path)) {}

void Writer::close() {
  const std::string sum = checksum_of(entries_);
  Handle type = fixed_string_type(sum.size());
  attribute_raw("/", kContentChecksum, type.get(), type.get(), sum.data(), 1, true);
  check(H5Fflush(file_.get(), H5F_SCOPE_GLOBAL), "flush");
  const ssize_t size = H5Fget_file_image(file_.get(), nullptr, 0);
  if (size < 0) throw Error("HDF5: file image");
  std::vector<char> image(static_cast<std::size_t>(size));
  if (H5Fget_file_image(file_.get(), image.data(), image.size()) < 0) throw Error("HDF5: file image");
  Handle closed = std::move(file_);
  seal_superblock(image);
  write_file_atomically(path_, std::string_view(image.data(), image.size()));
}

void Writer::write_raw(const std::string& path, hid_t file_type, hid_t memory_type, const void* data, Dims dims) {
  Handle dataspace = space(dims);
  make_parents(file_.get(), path);
  Handle links = intermediate_groups();
  const bool numeric = H5Tget_class(file_type) != H5T_STRING;
  Handle creation = creation_list(dims, H5Tget_size(file_type), numeric);
  Handle dataset(
      H5Dcreate2(file_.get(), path.c_str(), file_type, dataspace.get(), links.get(), creation.get(), H5P_DEFAULT),
      H5Dclose, "dataset " + path);
  if (element_count(dataspace.get()) > 0)
    check(H5Dwrite(dataset.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), "write " + path);
}

void Writer::write(const std::string& path, const std::vector<std::int64_t>& data, Dims dims) {
  if (dims.empty()) dims = {data.size()};
  write_raw(path, H5T_STD_I64LE, H5T_NATIVE_INT64, data.data(), dims);
  ValueHash value('i', dims);
  value.numbers(data.data(), data.size());
  entries_.push_back(value.entry(dataset_header(path)));
}

void Writer::write(const std::string& path, const std::vector<double>& data, Dims dims) {
  if (dims.empty()) dims = {data.size()};
  write_raw(path, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, data.data(), dims);
  ValueHash value('f', dims);
  value.numbers(data.data(), data.size());
  entries_.push_back(value.entry(dataset_header(path)));
}

void Writer::write(const std::string& path, const std::vector<std::string>& data) {
  std::size_t size = 1;
  for (const std::string& s : data) size = std::max(size, s.size());
  if (size > kMaxStringBytes) throw Error("HDF5: a string of " + path + " is too long");
  std::string packed(data.size() * size, '\0');
  ValueHash value('s', {data.size()});
  for (std::size_t i = 0; i < data.size(); ++i) {
    std::copy(data[i].begin(), data[i].end(), packed.begin() + std::ptrdiff_t(i * size));
    value.text(data[i]);
  }
  Handle type = fixed_string_type(size);
  write_raw(path, type.get(), type.get(), packed.data(), {data.size()});
  entries_.push_back(value.entry(dataset_header(path)));
  // netCDF's convention for text stored as bytes: xarray then shows str.
  attribute(path, "_Encoding", std::string("utf-8"));
}

void Writer::group(const std::string& path) {
  make_parents(file_.get(), path);
  Handle creation = group_creation();
  Handle group(H5Gcreate2(file_.get(), path.c_str(), H5P_DEFAULT, creation.get(), H5P_DEFAULT), H5Gclose,
               "group " + path);
}

void Writer::dimension_scale(const std::string& scale_path, const std::vector<std::string>& datasets, unsigned dim) {
  Handle scale(H5Dopen2(file_.get(), scale_path.c_str(), H5P_DEFAULT), H5Dclose, "dataset " + scale_path);
  if (H5DSis_scale(scale.get()) <= 0) {
    const std::string name = scale_path.substr(scale_path.rfind('/') + 1);
    check(H5DSset_scale(scale.get(), name.c_str()), "dimension scale " + scale_path);
  }
  for (const std::string& path : datasets) {
    Handle dataset(H5Dopen2(file_.get(), path.c_str(), H5P_DEFAULT), H5Dclose, "dataset " + path);
    check(H5DSattach_scale(dataset.get(), scale.get(), dim), "attach " + scale_path + " to " + path);
  }
}

void Writer::describe(const std::string& path, const std::string& units, const std::string& description) {
  if (!units.empty()) attribute(path, "units", units);
  attribute(path, "description", description);
}

void Writer::attribute_raw(const std::string& object, const std::string& name, hid_t file_type, hid_t memory_type,
                           const void* data, hsize_t count, bool scalar) {
  if (outside_checksum(object, name) && !(object == "/" && name == kContentChecksum))
    throw Error("HDF5: the attribute name " + name + " is HDF5's own (dimension scales)");
  Handle target(H5Oopen(file_.get(), object.c_str(), H5P_DEFAULT), H5Oclose, "object " + object);
  Handle dataspace = scalar ? Handle(H5Screate(H5S_SCALAR), H5Sclose, "scalar space") : space({count});
  Handle attr(H5Acreate2(target.get(), name.c_str(), file_type, dataspace.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
              "attribute " + name);
  check(H5Awrite(attr.get(), memory_type, data), "write attribute " + name);
}

void Writer::attribute(const std::string& object, const std::string& name, const std::string& value) {
  if (value.size() > kMaxStringBytes) throw Error("HDF5: attribute " + name + " is too long");
  Handle type = fixed_string_type(value.size());
  std::string padded = value;
  padded.resize(std::max<std::size_t>(value.size(), 1), '\0');
  attribute_raw(object, name, type.get(), type.get(), padded.data(), 1, true);
  ValueHash hash('s', {});
  hash.text(value);
  entries_.push_back(hash.entry(attribute_header(object, name)));
}

void Writer::attribute(const std::string& object, const std::string& name, std::int64_t value) {
  attribute_raw(object, name, H5T_STD_I64LE, H5T_NATIVE_INT64, &value, 1, true);
  ValueHash hash('i', {});
  hash.numbers(&value, 1);
  entries_.push_back(hash.entry(attribute_header(object, name)));
}

void Writer::attribute(const std::string& object, const std::string& name, double value) {
  attribute_raw(object, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &value, 1, true);
  ValueHash hash('f', {});
  hash.numbers(&value, 1);
  entries_.push_back(hash.entry(attribute_header(object, name)));
}

void Writer::attribute(const std::string& object, const std::string& name, const std::vector<std::int64_t>& value) {
  attribute_raw(object, name, H5T_STD_I64LE, H5T_NATIVE_INT64, value.data(), value.size(), false);
  ValueHash hash('i', {value.size()});
  hash.numbers(value.data(), value.size());
  entries_.push_back(hash.entry(attribute_header(object, name)));
}

}  // namespace dicesim::h5
