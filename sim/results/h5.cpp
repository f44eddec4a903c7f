#include "results/h5.h"

#include <hdf5_hl.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "engine/files.h"

namespace dicesim::h5 {
namespace {

// HDF5 prints its own error stack by default; dicesim reports one line instead.
const bool kQuietErrors = [] {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  return true;
}();

void check(herr_t status, const std::string& what) {
  if (status < 0) throw Error("HDF5: " + what);
}

Handle string_type() {
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose, "string type");
  check(H5Tset_size(type.get(), H5T_VARIABLE), "string size");
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

}  // namespace

Handle::Handle(hid_t id, Closer closer, const std::string& what) : id_(id), closer_(closer) {
  (void)kQuietErrors;
  if (id_ < 0) throw Error("HDF5: cannot open " + what);
}

Handle::~Handle() {
  if (id_ >= 0) closer_(id_);
}

namespace {

Handle in_memory_file(const std::string& path) {
  Handle access(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "file access list");
  check(H5Pset_fapl_core(access.get(), 1 << 20, 0), "in-memory driver");
  return Handle(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.get()), H5Fclose, "file " + path);
}

}  // namespace

Writer::Writer(const std::string& path) : path_(path), file_(in_memory_file(path)) {}

void Writer::close() {
  check(H5Fflush(file_.get(), H5F_SCOPE_GLOBAL), "flush");
  const ssize_t size = H5Fget_file_image(file_.get(), nullptr, 0);
  if (size < 0) throw Error("HDF5: file image");
  std::vector<char> image(static_cast<std::size_t>(size));
  if (H5Fget_file_image(file_.get(), image.data(), image.size()) < 0) throw Error("HDF5: file image");
  Handle closed = std::move(file_);
  write_file_atomically(path_, std::string_view(image.data(), image.size()));
}

namespace {

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

void Writer::write_raw(const std::string& path, hid_t file_type, hid_t memory_type, const void* data, Dims dims) {
  Handle dataspace = space(dims);
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
}

void Writer::write(const std::string& path, const std::vector<double>& data, Dims dims) {
  if (dims.empty()) dims = {data.size()};
  write_raw(path, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, data.data(), dims);
}

void Writer::write(const std::string& path, const std::vector<std::string>& data) {
  std::vector<const char*> pointers;
  for (const std::string& s : data) pointers.push_back(s.c_str());
  Handle type = string_type();
  write_raw(path, type.get(), type.get(), pointers.data(), {data.size()});
}

void Writer::group(const std::string& path) {
  Handle links = intermediate_groups();
  Handle group(H5Gcreate2(file_.get(), path.c_str(), links.get(), H5P_DEFAULT, H5P_DEFAULT), H5Gclose, "group " + path);
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
  Handle target(H5Oopen(file_.get(), object.c_str(), H5P_DEFAULT), H5Oclose, "object " + object);
  Handle dataspace = scalar ? Handle(H5Screate(H5S_SCALAR), H5Sclose, "scalar space") : space({count});
  Handle attr(H5Acreate2(target.get(), name.c_str(), file_type, dataspace.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
              "attribute " + name);
  check(H5Awrite(attr.get(), memory_type, data), "write attribute " + name);
}

void Writer::attribute(const std::string& object, const std::string& name, const std::string& value) {
  Handle type = string_type();
  const char* pointer = value.c_str();
  attribute_raw(object, name, type.get(), type.get(), &pointer, 1, true);
}

void Writer::attribute(const std::string& object, const std::string& name, std::int64_t value) {
  attribute_raw(object, name, H5T_STD_I64LE, H5T_NATIVE_INT64, &value, 1, true);
}

void Writer::attribute(const std::string& object, const std::string& name, double value) {
  attribute_raw(object, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &value, 1, true);
}

void Writer::attribute(const std::string& object, const std::string& name, const std::vector<std::int64_t>& value) {
  attribute_raw(object, name, H5T_STD_I64LE, H5T_NATIVE_INT64, value.data(), value.size(), false);
}

Reader::Reader(const std::string& path)
    : file_(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose, "file " + path) {}

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
std::vector<T> Reader::read_numeric(const std::string& path, hid_t memory_type, Dims* dims) const {
  Handle dataset(H5Dopen2(file_.get(), path.c_str(), H5P_DEFAULT), H5Dclose, "dataset " + path);
  Handle dataspace(H5Dget_space(dataset.get()), H5Sclose, "dataspace of " + path);
  if (dims) {
    dims->assign(static_cast<std::size_t>(H5Sget_simple_extent_ndims(dataspace.get())), 0);
    H5Sget_simple_extent_dims(dataspace.get(), dims->data(), nullptr);
  }
  std::vector<T> data(element_count(dataspace.get()));
  if (!data.empty())
    check(H5Dread(dataset.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()), "read " + path);
  return data;
}

std::vector<std::int64_t> Reader::int64s(const std::string& path, Dims* dims) const {
  return read_numeric<std::int64_t>(path, H5T_NATIVE_INT64, dims);
}

std::vector<double> Reader::doubles(const std::string& path, Dims* dims) const {
  return read_numeric<double>(path, H5T_NATIVE_DOUBLE, dims);
}

std::vector<std::string> Reader::strings(const std::string& path) const {
  Handle dataset(H5Dopen2(file_.get(), path.c_str(), H5P_DEFAULT), H5Dclose, "dataset " + path);
  Handle dataspace(H5Dget_space(dataset.get()), H5Sclose, "dataspace of " + path);
  Handle type = string_type();
  std::vector<char*> pointers(element_count(dataspace.get()), nullptr);
  check(H5Dread(dataset.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, pointers.data()), "read " + path);
  std::vector<std::string> out(pointers.begin(), pointers.end());
  H5Dvlen_reclaim(type.get(), dataspace.get(), H5P_DEFAULT, pointers.data());
  return out;
}

// An attribute holding exactly one value of the given class, or an Error:
// reading more values than expected would overrun the destination.
static Handle open_single(hid_t file, const std::string& object, const std::string& name, H5T_class_t type_class) {
  Handle attr(H5Aopen_by_name(file, object.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
              "attribute " + name);
  Handle dataspace(H5Aget_space(attr.get()), H5Sclose, "attribute space");
  Handle type(H5Aget_type(attr.get()), H5Tclose, "attribute type");
  if (element_count(dataspace.get()) != 1 || H5Tget_class(type.get()) != type_class)
    throw Error("HDF5: attribute " + name + " of " + object + " is not a single value of the expected type");
  if (type_class == H5T_STRING && H5Tis_variable_str(type.get()) <= 0)
    throw Error("HDF5: attribute " + name + " of " + object + " is not a variable-length string");
  return attr;
}

std::string Reader::string_attribute(const std::string& object, const std::string& name) const {
  Handle attr = open_single(file_.get(), object, name, H5T_STRING);
  Handle type = string_type();
  char* pointer = nullptr;
  check(H5Aread(attr.get(), type.get(), &pointer), "read attribute " + name);
  std::string value = pointer ? pointer : "";
  H5free_memory(pointer);
  return value;
}

std::int64_t Reader::int_attribute(const std::string& object, const std::string& name) const {
  std::vector<std::int64_t> values = int_array_attribute(object, name);
  if (values.size() != 1) throw Error("HDF5: attribute " + name + " is not a scalar");
  return values[0];
}

double Reader::double_attribute(const std::string& object, const std::string& name) const {
  Handle attr = open_single(file_.get(), object, name, H5T_FLOAT);
  double value = 0;
  check(H5Aread(attr.get(), H5T_NATIVE_DOUBLE, &value), "read attribute " + name);
  return value;
}

std::vector<std::int64_t> Reader::int_array_attribute(const std::string& object, const std::string& name) const {
  Handle attr(H5Aopen_by_name(file_.get(), object.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
              "attribute " + name);
  Handle dataspace(H5Aget_space(attr.get()), H5Sclose, "attribute space");
  std::vector<std::int64_t> values(element_count(dataspace.get()));
  check(H5Aread(attr.get(), H5T_NATIVE_INT64, values.data()), "read attribute " + name);
  return values;
}

}  // namespace dicesim::h5
