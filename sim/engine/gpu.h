// The GPU engine, as the host sees it: whether this build and machine can
// play on a GPU, device copies of a table's samplers, and a table's blocks
// played there. A GPU thread plays one whole block, from the block's own
// stream (block_rng), with the game's own hot loop (engine/device.h): so a
// block's counters are the same integers on either, and a run's results do
// not depend on the device. The launch is in engine/gpu_blocks.cuh, which
// only CUDA builds compile; without CUDA, gpu_absent.cpp says why not.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace dicesim {

// Why no GPU can play here (this build has no GPU engine, or the machine no
// usable device); empty when one can.
std::string gpu_unavailable();

// The device that plays: "NVIDIA H100 80GB HBM3, 79.1 GiB" (empty without one).
std::string gpu_description();

// Copies of host arrays in the GPU's memory, for a run's play: samplers'
// tables, the tables' players. Freed with this.
class DeviceArrays {
 public:
  DeviceArrays() = default;
  ~DeviceArrays();
  DeviceArrays(const DeviceArrays&) = delete;
  DeviceArrays& operator=(const DeviceArrays&) = delete;

  // The device's copy of `count` elements from `host` (nullptr for none).
  template <class T>
  const T* copy(const T* host, std::size_t count) {
    return static_cast<const T*>(copy_bytes(host, count * sizeof(T)));
  }
  template <class Vector>
  const typename Vector::value_type* copy(const Vector& host) {
    return copy(host.data(), host.size());
  }

 private:
  const void* copy_bytes(const void* host, std::size_t bytes);
  std::vector<void*> held_;
};

// One table's part of a chunk on the GPU, as the CPU engine plays it: the
// table's blocks [first, first + count) counted from 0, block b from
// block_rng(seed, id, stream_first + b) with its share of the table's
// `games` (kBlockGames, the last one fewer), counted at `offset` in the
// chunk's counters (`counters` of them).
struct TableBatch {
  std::uint64_t id = 0;
  std::uint64_t stream_first = 0;  // TableRun::first_block
  std::uint64_t first = 0, count = 0;
  std::uint64_t games = 0;
  std::uint64_t offset = 0, counters = 0;
  std::uint32_t table = 0;  // which of the device play's tables (TableRun::device_table)
};

// How many blocks the GPU plays at once (one per thread it can hold): the
// engine's chunks on a GPU are this many blocks.
std::uint64_t gpu_blocks_in_flight();

// Plays a chunk's batches, of any of a run's tables, on the GPU at once (one
// launch: a sweep of many small tables keeps the GPU as busy as one large
// one), adding each batch's counters to `counters` at its offset. A game
// gives one for all the tables of a run (Game::device_play).
using DevicePlay =
    std::function<void(std::uint64_t seed, const std::vector<TableBatch>& batches, std::int64_t* counters)>;

}  // namespace dicesim
