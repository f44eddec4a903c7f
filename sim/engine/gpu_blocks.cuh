// The GPU engine's launch (CUDA builds only): a table's blocks, one per GPU
// thread, each played by the game's own hot loop from the block's own
// stream, exactly as a CPU thread plays it. Each thread counts its block in
// a row of its own, then adds the row to the batch's totals: integers, so
// the order of the additions cannot change them. A game's .cu file
// instantiates play_blocks_on_gpu with its player (see sixers_gpu.cu).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/gpu.h"
#include "engine/rng.h"

namespace dicesim {

// A failed CUDA call as one line: "GPU: <what>: <CUDA's reason>".
inline void check_cuda(cudaError_t status, const char* what) {
  if (status != cudaSuccess) throw std::runtime_error(std::string("GPU: ") + what + ": " + cudaGetErrorString(status));
}

// Device memory for the length of a launch.
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t bytes) {
    check_cuda(cudaMalloc(&data_, std::max<std::size_t>(bytes, 1)), "cudaMalloc");
  }
  ~DeviceBuffer() { cudaFree(data_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  template <class T>
  T* as() const {
    return static_cast<T*>(data_);
  }

 private:
  void* data_ = nullptr;
};

namespace gpu {

// The most bytes of per-thread counter rows a launch holds at once.
constexpr std::size_t kRowBytes = std::size_t(1) << 30;

// Thread i plays block batch.first + i of the table: its games, from its
// stream, into its row (zeroed first), then adds the row to `totals`.
// (__grid_constant__: the player, indexed by seat, is read where it was
// passed, not copied to each thread's stack.)
template <class Player>
__global__ void play_blocks(const __grid_constant__ Player player, BlockBatch batch, std::int64_t* rows,
                            std::size_t counters, unsigned long long* totals) {
  const std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= batch.count) return;
  const std::uint64_t block = batch.first + i;
  const std::uint64_t games =
      batch.games - block * kBlockGames < kBlockGames ? batch.games - block * kBlockGames : kBlockGames;
  std::int64_t* row = rows + i * counters;
  for (std::size_t c = 0; c < counters; ++c) row[c] = 0;
  Rng rng = block_rng(batch.seed, batch.id, batch.stream_first + block);
  player.play(games, rng, row);
  for (std::size_t c = 0; c < counters; ++c)
    if (row[c] != 0) atomicAdd(&totals[c], static_cast<unsigned long long>(row[c]));
}

}  // namespace gpu

// Plays `batch` with `player` (plain data whose pointers are the device's:
// DeviceArrays), adding the blocks' counters to `counters`. Launches of at
// most gpu::kRowBytes of rows, one after another.
template <class Player>
void play_blocks_on_gpu(const Player& player, const BlockBatch& batch, std::int64_t* counters,
                        std::size_t counter_count) {
  const std::uint64_t per_launch =
      std::max<std::uint64_t>(1, std::min<std::uint64_t>(batch.count, gpu::kRowBytes / (8 * counter_count + 8)));
  DeviceBuffer rows(per_launch * counter_count * sizeof(std::int64_t));
  DeviceBuffer totals(counter_count * sizeof(std::int64_t));
  check_cuda(cudaMemset(totals.as<void>(), 0, counter_count * sizeof(std::int64_t)), "cudaMemset");
  constexpr unsigned kThreads = 128;
  for (std::uint64_t done = 0; done < batch.count; done += per_launch) {
    BlockBatch part = batch;
    part.first = batch.first + done;
    part.count = std::min(per_launch, batch.count - done);
    gpu::play_blocks<<<static_cast<unsigned>((part.count + kThreads - 1) / kThreads), kThreads>>>(
        player, part, rows.as<std::int64_t>(), counter_count, totals.as<unsigned long long>());
    check_cuda(cudaGetLastError(), "launch");
  }
  std::vector<std::int64_t> sums(counter_count);
  check_cuda(cudaMemcpy(sums.data(), totals.as<void>(), counter_count * sizeof(std::int64_t), cudaMemcpyDeviceToHost),
             "play");
  for (std::size_t c = 0; c < counter_count; ++c) counters[c] += sums[c];
}

}  // namespace dicesim
