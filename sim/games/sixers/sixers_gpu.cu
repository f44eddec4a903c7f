// Sixers on the GPU engine: the table's hot loop (sixers_play.h), one block
// per GPU thread (engine/gpu_blocks.cuh).
#include "engine/gpu_blocks.cuh"
#include "games/sixers/sixers_play.h"

namespace dicesim::sixers {

void play_on_gpu(const TablePlayer& player, const BlockBatch& batch, std::int64_t* counters,
                 std::size_t counter_count) {
  play_blocks_on_gpu(player, batch, counters, counter_count);
}

}  // namespace dicesim::sixers
