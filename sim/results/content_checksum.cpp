// The content checksum (content_checksum.h): the entry headers, the sum of
// the entries, the attributes left out, and its recomputation from a file as
// it is (Reader::content_sha256), every object read through the guarded read
// path of h5_reader.cpp.
#include "results/content_checksum.h"

#include <algorithm>

#include "results/h5_read_internal.h"

namespace dicesim::h5 {

std::string dataset_header(const std::string& path) { return "D" + path + std::string(1, '\0'); }
std::string attribute_header(const std::string& object, const std::string& name) {
  return "A" + object + std::string(1, '\0') + name + std::string(1, '\0');
}

std::string checksum_of(std::vector<std::string> entries) {
  std::sort(entries.begin(), entries.end());
  Sha256 hash;
  for (const std::string& e : entries) hash.add(e);
  return hash.hex();
}

bool outside_checksum(const std::string& object, const std::string& name) {
  return name == "CLASS" || name == "NAME" || name == "DIMENSION_LIST" || name == "REFERENCE_LIST" ||
         (object == "/" && name == kContentChecksum);
}

namespace {

// The bound of a dataset read for the content checksum: the file's size
// bounds it anyway, and it is read a slab at a time.
constexpr hsize_t kAnySize = hsize_t(1) << 62;

// The names met by H5Lvisit and H5Aiterate; the callbacks only collect (an
// exception must not cross the HDF5 library).
struct Names {
  std::vector<std::string> names;
  bool foreign = false;  // a link other than a hard link
};

herr_t collect_link(hid_t, const char* name, const H5L_info_t* info, void* data) {
  auto* out = static_cast<Names*>(data);
  if (info->type != H5L_TYPE_HARD) {
    out->foreign = true;
    return 1;  // stop
  }
  try {
    out->names.emplace_back(name);
  } catch (...) {
    return -1;
  }
  return 0;
}

herr_t collect_attribute(hid_t, const char* name, const H5A_info_t*, void* data) {
  try {
    static_cast<Names*>(data)->names.emplace_back(name);
  } catch (...) {
    return -1;
  }
  return 0;
}

std::string dataset_entry(hid_t file, hsize_t file_bytes, const std::string& path) {
  const DatasetRead d(file, path);
  const int rank = static_cast<int>(d.dims().size());
  switch (H5Tget_class(d.type())) {
    case H5T_INTEGER: {
      check_number_type(d.type(), H5T_INTEGER, path);
      ValueHash value('i', d.dims());
      d.slabs<std::int64_t>(H5T_NATIVE_INT64, d.count(rank, kAnySize, file_bytes),
                            [&](const std::int64_t* v, std::size_t n) { value.numbers(v, n); });
      return value.entry(dataset_header(path));
    }
    case H5T_FLOAT: {
      check_number_type(d.type(), H5T_FLOAT, path);
      ValueHash value('f', d.dims());
      d.slabs<double>(H5T_NATIVE_DOUBLE, d.count(rank, kAnySize, file_bytes),
                      [&](const double* v, std::size_t n) { value.numbers(v, n); });
      return value.entry(dataset_header(path));
    }
    case H5T_STRING: {
      check_string_type(d.type(), path);
      ValueHash value('s', d.dims());
      for (const std::string& s :
           read_string_values(d.id(), false, d.type(), d.count(rank, kAnySize, file_bytes), path))
        value.text(s);
      return value.entry(dataset_header(path));
    }
    default:
      throw Error(path + " holds data of a type dicesim does not write");
  }
}

std::string attribute_entry(hid_t file, hsize_t file_bytes, const std::string& object, const std::string& name) {
  const AttributeRead a(file, object, name);
  const hsize_t n = a.count(kAnySize, file_bytes);
  const std::string header = attribute_header(object, name);
  switch (H5Tget_class(a.type())) {
    case H5T_INTEGER: {
      check_number_type(a.type(), H5T_INTEGER, a.what());
      std::vector<std::int64_t> values(n);
      if (n > 0) check(H5Aread(a.id(), H5T_NATIVE_INT64, values.data()), "read " + a.what());
      ValueHash value('i', a.dims());
      value.numbers(values.data(), n);
      return value.entry(header);
    }
    case H5T_FLOAT: {
      check_number_type(a.type(), H5T_FLOAT, a.what());
      std::vector<double> values(n);
      if (n > 0) check(H5Aread(a.id(), H5T_NATIVE_DOUBLE, values.data()), "read " + a.what());
      ValueHash value('f', a.dims());
      value.numbers(values.data(), n);
      return value.entry(header);
    }
    case H5T_STRING: {
      check_string_type(a.type(), a.what());
      ValueHash value('s', a.dims());
      for (const std::string& s : read_string_values(a.id(), true, a.type(), n, a.what())) value.text(s);
      return value.entry(header);
    }
    default:
      throw Error(a.what() + " holds data of a type dicesim does not write");
  }
}

}  // namespace

std::string Reader::content_sha256() const {
  Names links;
  if (H5Lvisit(file_.get(), H5_INDEX_NAME, H5_ITER_INC, collect_link, &links) < 0 && !links.foreign)
    throw Error("HDF5: cannot list the file's objects");
  if (links.foreign) throw Error("the file holds a soft or external link, which dicesim never writes");
  std::vector<std::string> objects{"/"};
  for (const std::string& name : links.names) objects.push_back("/" + name);
  std::vector<std::string> entries;
  for (const std::string& path : objects) {
    Handle object(H5Oopen(file_.get(), path.c_str(), H5P_DEFAULT), H5Oclose, "object " + path);
    const H5I_type_t type = H5Iget_type(object.get());
    if (type == H5I_DATASET)
      entries.push_back(dataset_entry(file_.get(), file_bytes_, path));
    else if (type != H5I_GROUP)
      throw Error(path + " is an object dicesim does not write");
    Names attributes;
    hsize_t at = 0;
    check(H5Aiterate2(object.get(), H5_INDEX_NAME, H5_ITER_INC, &at, collect_attribute, &attributes),
          "list the attributes of " + path);
    for (const std::string& name : attributes.names)
      if (!outside_checksum(path, name)) entries.push_back(attribute_entry(file_.get(), file_bytes_, path, name));
  }
  return checksum_of(std::move(entries));
}

}  // namespace dicesim::h5
