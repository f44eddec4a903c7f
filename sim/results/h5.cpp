#include "results/h5.h"

#include <fcntl.h>
#include <hdf5_hl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>

#include "engine/files.h"
#include "results/results_layout.h"
#include "results/sha256.h"

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

// Fixed-length UTF-8 strings of `size` bytes, padded with NULs.
Handle fixed_string_type(std::size_t size) {
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose, "string type");
  check(H5Tset_size(type.get(), std::max<std::size_t>(size, 1)), "string size");
  check(H5Tset_strpad(type.get(), H5T_STR_NULLPAD), "string padding");
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "string charset");
  return type;
}

// A string as the readers see it: fixed-length storage pads with NULs, which
// every reader (this one, numpy) strips from the end.
std::string_view without_padding(std::string_view s) {
  while (!s.empty() && s.back() == '\0') s.remove_suffix(1);
  return s;
}

// The content checksum (sim/README.md, Results file: checksums). Each
// dataset and attribute is an entry: a header ("D" path NUL for a dataset,
// "A" object NUL name NUL for an attribute) followed by the SHA-256 of its
// value: a tag (i: int64, f: float64, s: string), the rank and each
// dimension as 8-byte words, then every value, numbers as their 8 bytes,
// strings as an 8-byte length and their bytes (words least significant byte
// first). The checksum is the SHA-256 of the entries in byte order.
static_assert(std::endian::native == std::endian::little, "the checksum hashes numbers as stored in memory");

std::string dataset_header(const std::string& path) { return "D" + path + std::string(1, '\0'); }
std::string attribute_header(const std::string& object, const std::string& name) {
  return "A" + object + std::string(1, '\0') + name + std::string(1, '\0');
}

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

std::string checksum_of(std::vector<std::string> entries) {
  std::sort(entries.begin(), entries.end());
  Sha256 hash;
  for (const std::string& e : entries) hash.add(e);
  return hash.hex();
}

// Attributes that the HDF5 dimension-scale calls write for themselves (and
// the checksum itself, on the root): outside the content checksum, and
// never read by dicesim.
bool outside_checksum(const std::string& object, const std::string& name) {
  return name == "CLASS" || name == "NAME" || name == "DIMENSION_LIST" || name == "REFERENCE_LIST" ||
         (object == "/" && name == kContentChecksum);
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

// HDF5 1.10 copies a file image with the superblock's "open for writing"
// flag cleared but its checksum as computed with the flag set, which no
// reader then opens: the superblock (versions 2 and 3: flags at byte 11,
// then four addresses, then the checksum) is checksummed again.
void seal_superblock(std::vector<char>& image) {
  if (image.size() < 12 || std::memcmp(image.data(), "\x89HDF\r\n\x1a\n", 8) != 0) return;
  const int version = image[8];
  const std::size_t offsets = static_cast<unsigned char>(image[9]), at = 12 + 4 * offsets;
  if ((version != 2 && version != 3) || image.size() < at + 4) return;
  image[11] = 0;
  const std::uint32_t sum = lookup3(reinterpret_cast<const unsigned char*>(image.data()), at);
  for (int i = 0; i < 4; ++i) image[at + i] = static_cast<char>(sum >> (8 * i));
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

namespace {

// Values read at once when a dataset is streamed.
constexpr hsize_t kSlabValues = hsize_t(1) << 20;
// The bound of a dataset read for the content checksum: the file's size
// bounds it anyway, and it is read a slab at a time.
constexpr hsize_t kAnySize = hsize_t(1) << 62;

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

Dims dims_of(hid_t dataspace, const std::string& what) {
  const int rank = H5Sget_simple_extent_ndims(dataspace);
  if (rank < 0 || rank > H5S_MAX_RANK) throw Error("HDF5: the shape of " + what);
  Dims dims(static_cast<std::size_t>(rank));
  if (rank > 0 && H5Sget_simple_extent_dims(dataspace, dims.data(), nullptr) < 0)
    throw Error("HDF5: the shape of " + what);
  return dims;
}

std::string shape_text(const Dims& dims) {
  std::string text = "[";
  for (std::size_t i = 0; i < dims.size(); ++i) text += (i ? ", " : "") + std::to_string(dims[i]);
  return text + "]";
}

// The values of `dims`, or an Error: a rank other than `rank`, more than `most`.
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

// The bytes `count` values of `type` take in memory (variable-length
// strings: their ids), or an Error for a type of an odd size.
hsize_t element_bytes(hid_t type, const std::string& what) {
  const std::size_t size = H5Tget_size(type);
  if (size == 0 || size > kMaxStringBytes) throw Error(what + " has values of an odd size");
  return std::max<hsize_t>(size, 8);
}

// A string type dicesim reads: fixed-length of a bounded size, NUL-padded or
// NUL-terminated; never variable-length (read by following ids into the
// file, where a damaged file can make libhdf5 crash).
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

// Reads `count` fixed-length strings of `type` (checked) from an attribute or a dataset.
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

namespace {

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
