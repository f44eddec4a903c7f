// A build without CUDA (nvcc was not found, or -DDICESIM_CUDA=OFF): no GPU
// plays, and `--device gpu` says why.
#include <stdexcept>

#include "engine/gpu.h"

namespace dicesim {

std::string gpu_unavailable() {
  return "this dicesim was built without the GPU engine (CUDA's nvcc was not found when it was built; see "
         "sim/engine/README.md#the-gpu-engine)";
}

std::string gpu_description() { return ""; }

std::uint64_t gpu_blocks_in_flight() { return 0; }

DeviceArrays::~DeviceArrays() = default;

const void* DeviceArrays::copy_bytes(const void*, std::size_t) {
  throw std::logic_error("DeviceArrays: no GPU engine in this build");
}

}  // namespace dicesim
