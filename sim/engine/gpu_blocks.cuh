// The GPU engine's launch (CUDA builds only): a chunk's blocks, of any of
// the run's tables, one per GPU thread, each played by the game's own hot
// loop from the block's own stream, exactly as a CPU thread plays it. Each thread counts its block in
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

// What a launch's threads read besides the players: the chunk's batches,
// the threads before each batch's end (`ends`, ascending), the seed.
struct Launch {
  const TableBatch* batches;
  const std::uint64_t* ends;
  std::uint32_t batch_count;
  std::uint64_t seed;
  std::uint64_t first_thread, threads;  // of the chunk's: this launch's
  std::size_t stride;                   // counters a row holds: the most of any batch
};

// Thread t of the chunk plays one block of the batch it falls in, from the
// block's stream, into its row (zeroed first), then adds the row to the
// totals at the batch's offset.
template <class Player>
__global__ void play_blocks(const Player* players, const __grid_constant__ Launch launch, std::int64_t* rows,
                            unsigned long long* totals) {
  const std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= launch.threads) return;
  const std::uint64_t t = launch.first_thread + i;
  std::uint32_t b = 0, last = launch.batch_count;  // the first batch whose end is past t
  while (b < last) {
    const std::uint32_t middle = (b + last) / 2;
    if (launch.ends[middle] <= t)
      b = middle + 1;
    else
      last = middle;
  }
  const TableBatch& batch = launch.batches[b];
  const std::uint64_t block = batch.first + t - (launch.ends[b] - batch.count);
  const std::uint64_t games =
      batch.games - block * kBlockGames < kBlockGames ? batch.games - block * kBlockGames : kBlockGames;
  std::int64_t* row = rows + i * launch.stride;
  for (std::uint64_t c = 0; c < batch.counters; ++c) row[c] = 0;
  Rng rng = block_rng(launch.seed, batch.id, batch.stream_first + block);
  players[batch.table].play(games, rng, row);
  for (std::uint64_t c = 0; c < batch.counters; ++c)
    if (row[c] != 0) atomicAdd(&totals[batch.offset + c], static_cast<unsigned long long>(row[c]));
}

}  // namespace gpu

// Plays a chunk's `batches` on the GPU with the tables' `players` (in the
// device's memory: DeviceArrays), adding their counters to `counters`.
// Launches of at most gpu::kRowBytes of rows, one after another.
template <class Player>
void play_blocks_on_gpu(const Player* players, std::uint64_t seed, const std::vector<TableBatch>& batches,
                        std::int64_t* counters) {
  if (batches.empty()) return;
  std::vector<std::uint64_t> ends;
  std::size_t stride = 1, total_counters = 0;
  for (const TableBatch& batch : batches) {
    ends.push_back((ends.empty() ? 0 : ends.back()) + batch.count);
    stride = std::max<std::size_t>(stride, batch.counters);
    total_counters = std::max<std::size_t>(total_counters, batch.offset + batch.counters);
  }
  const std::uint64_t threads = ends.back();
  const std::uint64_t per_launch =
      std::max<std::uint64_t>(1, std::min<std::uint64_t>(threads, gpu::kRowBytes / (8 * stride)));
  DeviceBuffer on_device_batches(batches.size() * sizeof(TableBatch)),
      on_device_ends(ends.size() * sizeof(std::uint64_t));
  check_cuda(cudaMemcpy(on_device_batches.as<void>(), batches.data(), batches.size() * sizeof(TableBatch),
                        cudaMemcpyHostToDevice),
             "cudaMemcpy");
  check_cuda(
      cudaMemcpy(on_device_ends.as<void>(), ends.data(), ends.size() * sizeof(std::uint64_t), cudaMemcpyHostToDevice),
      "cudaMemcpy");
  DeviceBuffer rows(per_launch * stride * sizeof(std::int64_t));
  DeviceBuffer totals(total_counters * sizeof(std::int64_t));
  check_cuda(cudaMemset(totals.as<void>(), 0, total_counters * sizeof(std::int64_t)), "cudaMemset");
  constexpr unsigned kThreads = 128;
  for (std::uint64_t done = 0; done < threads; done += per_launch) {
    const gpu::Launch launch{on_device_batches.as<const TableBatch>(),
                             on_device_ends.as<const std::uint64_t>(),
                             static_cast<std::uint32_t>(batches.size()),
                             seed,
                             done,
                             std::min(per_launch, threads - done),
                             stride};
    gpu::play_blocks<<<static_cast<unsigned>((launch.threads + kThreads - 1) / kThreads), kThreads>>>(
        players, launch, rows.as<std::int64_t>(), totals.as<unsigned long long>());
    check_cuda(cudaGetLastError(), "launch");
  }
  std::vector<std::int64_t> sums(total_counters);
  check_cuda(cudaMemcpy(sums.data(), totals.as<void>(), total_counters * sizeof(std::int64_t), cudaMemcpyDeviceToHost),
             "play");
  for (const TableBatch& batch : batches)
    for (std::uint64_t c = 0; c < batch.counters; ++c) counters[batch.offset + c] += sums[batch.offset + c];
}

}  // namespace dicesim
