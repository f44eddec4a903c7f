// Internal to the HDF5 layer (h5_handle.cpp, h5_writer.cpp, h5_reader.cpp,
// content_checksum.cpp): the low-level bits the writer, the reader and the
// content checksum share. Not for use outside results/h5*.
#pragma once

#include <string>
#include <string_view>

#include "results/h5.h"

namespace dicesim::h5 {

// An HDF5 status below zero is an Error: "HDF5: what".
void check(herr_t status, const std::string& what);

// A string as the readers see it: fixed-length storage pads with NULs, which
// every reader (this one, numpy) strips from the end.
std::string_view without_padding(std::string_view s);

}  // namespace dicesim::h5
