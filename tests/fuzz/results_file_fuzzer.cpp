// libFuzzer: the fuzzer's bytes as a results file, read as `show` reads it
// (show_command, its summary included) and as merge and resume read it
// (read_run_state). Every file must be read or refused with an InputError,
// never crash, hang or allocate without bound: this is the HDF5 library's
// parsing of damaged files too, behind dicesim's guarded read path
// (sim/results/h5.h). scripts/fuzz.sh starts it from real results files of
// format 3 made by the configs in results_file_corpus/. (Files before 3.0,
// whose variable-length strings the HDF5 library reads by following ids in
// the file, are outside this promise: sim/results/README.md.)
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>

#include "app/commands.h"
#include "config/json_input.h"
#include "results/run_state.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = "/tmp/dicesim-file-fuzz-" + std::to_string(::getpid()) + ".h5";
  if (std::FILE* file = std::fopen(path.c_str(), "wb")) {
    const bool written = std::fwrite(data, 1, size, file) == size;
    if (std::fclose(file) != 0 || !written) return 0;
  } else {
    return 0;
  }
  try {
    std::ostringstream out;
    dicesim::show_command({path, false, ""}, out);
  } catch (const dicesim::InputError&) {
  }
  try {
    dicesim::read_run_state(path, dicesim::ReadFor::merge_or_resume);
  } catch (const dicesim::InputError&) {
  }
  ::unlink(path.c_str());
  return 0;
}
