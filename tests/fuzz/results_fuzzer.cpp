// libFuzzer: the results reader behind merge and resume, on HDF5 files whose
// /engine state, attributes and stored config come from the fuzzer's bytes.
// Every file must be read or refused with an InputError, never crash. (The
// HDF5 library's own parsing of raw bytes is results_file_fuzzer's.)
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "results/h5.h"
#include "results/run_state.h"

namespace {

class Bytes {  // reads fuzz input as a stream of small numbers and strings
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  std::uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }
  std::int64_t number() {
    switch (byte() % 4) {
      case 0:
        return byte();
      case 1:
        return -std::int64_t(byte());
      case 2:
        return std::int64_t(byte()) << (byte() % 56);
      default:
        return std::int64_t(byte()) * 65536;
    }
  }
  std::string text(std::size_t most) {
    std::string s;
    for (std::size_t n = byte() % (most + 1); n > 0 && at_ < size_; --n) s += static_cast<char>(byte());
    return s;
  }
  std::vector<std::int64_t> several(std::size_t most) {  // an attribute array: at least 2 values
    std::vector<std::int64_t> v = numbers(most);
    v.resize(std::max<std::size_t>(v.size(), 2));
    return v;
  }
  std::vector<std::int64_t> numbers(std::size_t most) {
    std::vector<std::int64_t> v(byte() % (most + 1));
    for (auto& x : v) x = number();
    return v;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

const char* kConfigs[] = {
    R"J({"game":"sixers","games":100,"strategies":[{"name":"a","family":"optimal_mean"}]})J",
    R"J({"game":"sixers","games":70000,"rules":{"dice":2,"rolls":2},"strategies":[{"name":"a","family":"dice_number_kept","per_roll":[1]},{"name":"b","family":"optimal_mean"}],"contests":{"headtohead":true}})J",
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Bytes in(data, size);
  const std::string path = "/tmp/dicesim-fuzz-" + std::to_string(::getpid()) + ".h5";
  {
    dicesim::h5::Writer f(path);
    std::string config = kConfigs[in.byte() % 2];
    if (in.byte() % 4 == 0) config.insert(in.byte() % config.size(), in.text(8));
    f.attribute("/", "format", in.byte() % 8 ? std::string("dicesim-results") : in.text(16));
    f.attribute("/", "format_version",
                std::vector<std::int64_t>{in.byte() % 8   ? dicesim::kFormatMajor
                                          : in.byte() % 4 ? 2
                                                          : in.number(),
                                          0});
    f.attribute("/", "block_games", in.byte() % 8 ? std::int64_t(65536) : in.number());
    f.attribute("/", "config", config);
    f.attribute("/", "config_file", in.text(8));
    f.attribute("/", "name", in.text(8));
    f.attribute("/", "seed_text", in.byte() % 4 ? std::to_string(in.number()) : in.text(24));
    f.attribute("/", "games", in.number());
    // Attributes of the wrong shape or type must be refused, not overrun.
    if (in.byte() % 8 == 0)
      f.attribute("/", "wall_seconds", in.several(4));
    else
      f.attribute("/", "wall_seconds", 1.0);
    if (in.byte() % 16 == 0)
      f.attribute("/", "program_version", in.several(3));
    else
      f.attribute("/", "program_version", std::string(DICESIM_VERSION));
    f.attribute("/", "git_revision", in.text(12));
    std::vector<std::string> keys;
    for (std::size_t n = in.byte() % 5; n > 0; --n) keys.push_back(in.byte() % 2 ? "independent[\"a\"]" : in.text(12));
    f.write("/engine/keys", keys);
    f.write("/engine/offsets", in.numbers(6));
    f.write("/engine/counters", in.numbers(200));
    f.write("/engine/games_done", in.numbers(6));
    std::vector<std::int64_t> done = in.numbers(6), planned = in.numbers(6);
    done.resize(done.size() & ~std::size_t(1));
    planned.resize(planned.size() & ~std::size_t(1));
    f.write("/engine/done", done, {done.size() / 2, 2});
    f.write("/engine/planned", planned, {planned.size() / 2, 2});
    f.attribute("/engine", "total_blocks", in.number());
    f.attribute("/engine", "shard", in.text(6));
    f.attribute("/engine", "checksum", in.text(16));
    f.close();
  }
  for (const dicesim::ReadFor reader : {dicesim::ReadFor::show, dicesim::ReadFor::merge_or_resume}) {
    try {
      dicesim::read_run_state(path, reader);
    } catch (const dicesim::InputError&) {
    }
  }
  ::unlink(path.c_str());
  return 0;
}
