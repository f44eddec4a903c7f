// Helpers shared by the tests: temporary directories, config files, and
// running the dicesim binary as a user would.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "results/h5.h"

namespace dicesim::testing {

// A fresh directory, removed with everything in it at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() / ("dicesim-test-" + std::to_string(rd()) + std::to_string(rd()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(file(name)) << text;
    return file(name);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

struct CommandResult {
  int exit_code;
  std::string out;  // stdout and stderr together
};

// Runs a shell command line as it is.
inline CommandResult run_shell(const std::string& command) {
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  std::string out;
  std::array<char, 4096> buffer;
  std::size_t n;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) out.append(buffer.data(), n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), out};
}

// Runs `dicesim ARGS` through the shell (ARGS is shell text), in the
// directory cwd if one is given.
inline CommandResult dicesim(const std::string& args, const std::string& cwd = "") {
  return run_shell((cwd.empty() ? "" : "cd \"" + cwd + "\" && ") + std::string(DICESIM_BINARY) + " " + args);
}

inline std::string source_path(const std::string& relative) { return std::string(DICESIM_SOURCE_DIR) + "/" + relative; }

// The strategy library of this checkout, for the tests' own reading of configs
// (a test binary is not beside strategies/ as build/dicesim is) and the
// dicesim they start, unless a test names another.
inline const bool kLibraryOfThisCheckout = setenv("DICESIM_STRATEGIES", source_path("strategies").c_str(), 0) == 0;

// Everything in a results file that (config, seed, games) decide: each
// dataset ("/path") and attribute ("/path@name") as its shape and bytes.
using ResultsContents = std::map<std::string, std::string>;

namespace detail {

// How the file was made, not what it holds: timings, threads, ranks, the
// command and shard, and what is derived from them (the checksums cover
// them). DIMENSION_LIST and REFERENCE_LIST hold HDF5 object addresses.
inline bool made_how(const std::string& attribute) {
  static const std::set<std::string> names{"wall_seconds",   "threads",          "ranks",       "command",
                                           "shard",          "planned_complete", "checksum",    "content_sha256",
                                           "DIMENSION_LIST", "REFERENCE_LIST",   "threads_min", "threads_max"};
  return names.count(attribute) > 0;
}

// The shape and the bytes of one dataset or attribute; variable-length
// strings by their text. read(memory_type, buffer) reads the whole of it.
template <class Read>
std::string value_text(hid_t type, hid_t space, Read read) {
  std::vector<hsize_t> dims(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space)));
  H5Sget_simple_extent_dims(space, dims.data(), nullptr);
  std::string out = "shape";
  for (hsize_t d : dims) {
    out += ' ';  // (appended apart: GCC 12 -Wrestrict false alarm on " " + to_string)
    out += std::to_string(d);
  }
  out += ":";
  const auto count = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space));
  if (H5Tget_class(type) == H5T_STRING && H5Tis_variable_str(type) > 0) {
    h5::Handle memory(H5Tcopy(H5T_C_S1), H5Tclose, "string type");
    H5Tset_size(memory.get(), H5T_VARIABLE);
    H5Tset_cset(memory.get(), H5T_CSET_UTF8);
    std::vector<char*> strings(count, nullptr);
    if (read(memory.get(), strings.data()) < 0) throw h5::Error("HDF5: cannot read strings");
    for (const char* text : strings) out += std::string(text ? text : "") + '\0';
    H5Dvlen_reclaim(memory.get(), space, H5P_DEFAULT, strings.data());
    return out;
  }
  h5::Handle memory(H5Tget_native_type(type, H5T_DIR_ASCEND), H5Tclose, "native type");
  std::string bytes(count * H5Tget_size(memory.get()), '\0');
  if (count > 0 && read(memory.get(), bytes.data()) < 0) throw h5::Error("HDF5: cannot read values");
  return out + bytes;
}

inline herr_t collect_name(hid_t, const char* name, const void*, void* names) {
  static_cast<std::vector<std::string>*>(names)->push_back(name);
  return 0;
}
inline herr_t collect_link(hid_t group, const char* name, const H5L_info_t*, void* names) {
  return collect_name(group, name, nullptr, names);
}
inline herr_t collect_attribute(hid_t object, const char* name, const H5A_info_t*, void* names) {
  return collect_name(object, name, nullptr, names);
}

}  // namespace detail

inline ResultsContents results_contents(const std::string& path) {
  const h5::Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose, "file " + path);
  std::vector<std::string> objects{"."};
  H5Lvisit(file.get(), H5_INDEX_NAME, H5_ITER_INC, detail::collect_link, &objects);
  ResultsContents out;
  for (const std::string& name : objects) {
    const std::string key = name == "." ? "/" : "/" + name;
    const h5::Handle object(H5Oopen(file.get(), name.c_str(), H5P_DEFAULT), H5Oclose, key);
    if (H5Iget_type(object.get()) == H5I_DATASET) {
      const h5::Handle type(H5Dget_type(object.get()), H5Tclose, key);
      const h5::Handle space(H5Dget_space(object.get()), H5Sclose, key);
      out[key] = detail::value_text(type.get(), space.get(), [&](hid_t memory, void* buffer) {
        return H5Dread(object.get(), memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer);
      });
    }
    std::vector<std::string> attributes;
    H5Aiterate2(object.get(), H5_INDEX_NAME, H5_ITER_INC, nullptr, detail::collect_attribute, &attributes);
    for (const std::string& a : attributes) {
      if (detail::made_how(a)) continue;
      const h5::Handle attribute(H5Aopen(object.get(), a.c_str(), H5P_DEFAULT), H5Aclose, key + "@" + a);
      const h5::Handle type(H5Aget_type(attribute.get()), H5Tclose, a);
      const h5::Handle space(H5Aget_space(attribute.get()), H5Sclose, a);
      out[key + "@" + a] = detail::value_text(type.get(), space.get(), [&](hid_t memory, void* buffer) {
        return H5Aread(attribute.get(), memory, buffer);
      });
    }
  }
  return out;
}

// Stores the content checksum of a file as it now is, so that a file altered
// on purpose reaches the checks behind the checksum.
inline void resign(const std::string& path) {
  const std::string sum = h5::Reader(path).content_sha256();
  const h5::Handle file(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose, path);
  H5Adelete(file.get(), h5::kContentChecksum);
  const h5::Handle type(H5Tcopy(H5T_C_S1), H5Tclose, "string type");
  H5Tset_size(type.get(), sum.size());
  const h5::Handle space(H5Screate(H5S_SCALAR), H5Sclose, "scalar space");
  const h5::Handle attr(H5Acreate2(file.get(), h5::kContentChecksum, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
                        H5Aclose, h5::kContentChecksum);
  if (H5Awrite(attr.get(), type.get(), sum.data()) < 0) throw h5::Error("HDF5: cannot write the checksum");
}

// Whether two results files hold the same results; if not, which entries differ.
inline ::testing::AssertionResult same_results(const std::string& file, const std::string& reference) {
  const ResultsContents a = results_contents(file), b = results_contents(reference);
  std::vector<std::string> differ;
  for (const auto& [key, value] : a)
    if (!b.count(key) || b.at(key) != value) differ.push_back(key);
  for (const auto& [key, value] : b)
    if (!a.count(key)) differ.push_back(key + " (missing)");
  if (differ.empty()) return ::testing::AssertionSuccess() << file << " holds the results of " << reference;
  auto failure = ::testing::AssertionFailure()
                 << file << " and " << reference << " differ in " << differ.size() << " entries:";
  for (std::size_t i = 0; i < differ.size() && i < 10; ++i) failure << " " << differ[i];
  return failure;
}

}  // namespace dicesim::testing
