// The HDF5 superblock repair of Writer::close: HDF5 1.10 hands out a file
// image whose superblock checksum no reader accepts; seal_superblock
// recomputes it (with HDF5's own metadata checksum, lookup3). Internal to
// results/h5*.
#pragma once

#include <vector>

namespace dicesim::h5 {

// HDF5 1.10 copies a file image with the superblock's "open for writing"
// flag cleared but its checksum as computed with the flag set, which no
// reader then opens: the superblock (versions 2 and 3: flags at byte 11,
// then four addresses, then the checksum) is checksummed again.
void seal_superblock(std::vector<char>& image);

}  // namespace dicesim::h5
