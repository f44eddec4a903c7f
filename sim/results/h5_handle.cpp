// The HDF5 layer's shared low-level bits (h5_internal.h): Handle, HDF5's
// error stack silenced, check() and the padding of fixed-length strings, used
// by the writer, the reader and the content checksum alike.
#include "results/h5.h"
#include "results/h5_internal.h"

namespace dicesim::h5 {
namespace {

// HDF5 prints its own error stack by default; dicesim reports one line instead.
const bool kQuietErrors = [] {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  return true;
}();

}  // namespace

void check(herr_t status, const std::string& what) {
  if (status < 0) throw Error("HDF5: " + what);
}

std::string_view without_padding(std::string_view s) {
  while (!s.empty() && s.back() == '\0') s.remove_suffix(1);
  return s;
}

Handle::Handle(hid_t id, Closer closer, const std::string& what) : id_(id), closer_(closer) {
  (void)kQuietErrors;
  if (id_ < 0) throw Error("HDF5: cannot open " + what);
}

Handle::~Handle() {
  if (id_ >= 0) closer_(id_);
}

}  // namespace dicesim::h5
