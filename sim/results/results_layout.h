// The results file's layout as its readers see it, declared once: the
// datasets and attributes the Python package reads, the type class and
// shape of each, and the bounds of every size. `dicesim schema
// --results-layout` prints it; the package ships that text
// (scripts/analysis/dicesim_analysis/results_layout.json) and checks every
// read against it; the reader here (run_state.cpp) takes its bounds from the
// same constants.
#pragma once

#include "config/parameters.h"
#include "results/h5.h"

namespace dicesim {

// The oldest results format any reader accepts: files before 3.0 hold
// variable-length strings, which libhdf5 reads by following ids into the
// file (a flipped byte there crashes it), and no content checksum.
constexpr std::int64_t kOldestReadableMajor = 3;

// The most bins of a measure's histogram: 10,000's turns with max_rounds
// at its limit (100,000) is the largest any game records.
constexpr hsize_t kMostBins = hsize_t(1) << 17;
// Block ranges a file may list: a merge of up to 10^6 shards, or a
// precision run's prefix per table, is far below.
constexpr hsize_t kMostRanges = hsize_t(1) << 24;
// The deepest nesting of stored JSON (the config, a strategy's spec): the
// config parser's own limit (config/json_input.cpp).
constexpr int kMostJsonDepth = 256;
// deflate inflates at most about 1032:1; a little more for HDF5's chunks.
constexpr hsize_t kMostInflation = 1100;

ordered_json results_layout();

}  // namespace dicesim
