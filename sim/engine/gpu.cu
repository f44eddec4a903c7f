// The GPU engine's host side in a CUDA build: the device, and copies of the
// games' tables in its memory.
#include <cuda_runtime.h>

#include <cstdio>
#include <string>

#include "engine/gpu.h"
#include "engine/gpu_blocks.cuh"

namespace dicesim {
namespace {

// A kernel that does nothing: whether the device has code for it is whether
// it can run this build's kernels (built for CMAKE_CUDA_ARCHITECTURES).
__global__ void probe() {}

}  // namespace

std::string gpu_unavailable() {
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess) return std::string("no GPU can be used here (") + cudaGetErrorString(status) + ")";
  if (devices == 0) return "no GPU was found on this machine";
  cudaFuncAttributes attributes{};
  if (const cudaError_t image = cudaFuncGetAttributes(&attributes, probe); image != cudaSuccess) {
    cudaDeviceProp device{};
    cudaGetDeviceProperties(&device, 0);
    return "this dicesim's GPU code cannot run on the GPU found (compute capability " + std::to_string(device.major) +
           "." + std::to_string(device.minor) + ": " + cudaGetErrorString(image) +
           "); rebuild with -DCMAKE_CUDA_ARCHITECTURES=" + std::to_string(device.major) + std::to_string(device.minor);
  }
  return "";
}

std::string gpu_description() {
  if (!gpu_unavailable().empty()) return "";
  cudaDeviceProp device{};
  check_cuda(cudaGetDeviceProperties(&device, 0), "cudaGetDeviceProperties");
  char memory[64];
  std::snprintf(memory, sizeof memory, ", %.1f GiB", double(device.totalGlobalMem) / double(1ull << 30));
  return std::string(device.name) + memory;
}

std::uint64_t gpu_blocks_in_flight() {
  cudaDeviceProp device{};
  check_cuda(cudaGetDeviceProperties(&device, 0), "cudaGetDeviceProperties");
  return std::uint64_t(device.multiProcessorCount) * std::uint64_t(device.maxThreadsPerMultiProcessor);
}

DeviceArrays::~DeviceArrays() {
  for (void* held : held_) cudaFree(held);
}

const void* DeviceArrays::copy_bytes(const void* host, std::size_t bytes) {
  if (bytes == 0) return nullptr;
  void* device = nullptr;
  check_cuda(cudaMalloc(&device, bytes), "cudaMalloc");
  held_.push_back(device);
  check_cuda(cudaMemcpy(device, host, bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
  return device;
}

}  // namespace dicesim
