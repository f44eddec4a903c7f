// Sixers on the GPU engine: the table's hot loop (sixers_play.h), one block
// per GPU thread (engine/gpu_blocks.cuh).
#include "engine/gpu_blocks.cuh"
#include "games/sixers/sixers_play.h"

namespace dicesim::sixers {

void play_on_gpu(const TablePlayer* players, std::uint64_t seed, const std::vector<TableBatch>& batches,
                 std::int64_t* counters) {
  play_blocks_on_gpu(players, seed, batches, counters);
}

}  // namespace dicesim::sixers
