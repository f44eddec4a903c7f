// Sixers' hot loop: a block of games at a table, written once for the host
// (SixersGame::play) and a GPU (sixers_gpu.cu plays it there, one block per
// GPU thread).
#pragma once

#include <climits>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/device.h"
#include "engine/gpu.h"
#include "engine/rng.h"
#include "engine/table.h"
#include "games/sixers/sixers.h"

namespace dicesim::sixers {

// Games whose turns play side by side (play_turns). Part of the results:
// changing it changes which draws go to which game.
constexpr int kGamesSideBySide = 8;

// A table's games as the hot loop plays them: each seat's compiled policy,
// in seating order, and the table's counters' layout. Plain data: a GPU
// gets it as it is, with views of its own copies of the tables.
struct TablePlayer {
  SamplerView seat[kMaxSeats];
  int seats = 0;
  bool sequential = false;  // later seats see the lowest score so far
  TableCounts layout;       // the counters' layout (its data is the block's, given to play)

  // Plays `games` games from `stream`, adding to `counters` (the layout's).
  DICESIM_HD void play(std::uint64_t games, Rng& stream, std::int64_t* counters) const {
    const TableCounts counts = layout.rebased(counters);
    Rng rng = stream;  // a local copy stays in registers
    std::uint64_t g = 0;
    for (; g + kGamesSideBySide <= games; g += kGamesSideBySide) play_games<kGamesSideBySide>(rng, counts);
    for (; g < games; ++g) play_games<1>(rng, counts);
    stream = rng;
  }

  // N games: each seat plays its N turns side by side, then each game is
  // scored. A lone seat is a distribution: one turn a game, and it "wins".
  template <int N>
  DICESIM_HD void play_games(Rng& rng, const TableCounts& counts) const {
    int score[kMaxSeats][N];
    int lowest[N];
    for (int i = 0; i < N; ++i) lowest[i] = INT_MAX;
    for (int s = 0; s < seats; ++s) {
      TurnInPlay turns[N];
      for (int i = 0; i < N; ++i) turns[i] = seat[s].start(sequential && s > 0 ? lowest[i] : kNoTarget);
      play_turns(seat[s], turns, rng);
      for (int i = 0; i < N; ++i) {
        score[s][i] = turns[i].score();
        ++counts.score(s, score[s][i]);
        lowest[i] = score[s][i] < lowest[i] ? score[s][i] : lowest[i];
      }
    }
    if (seats == 1) {
      counts.wins(0) += N;
      return;
    }
    // Without branches: who wins is a coin flip the processor cannot predict.
    for (int i = 0; i < N; ++i) {
      int holders = 0, holder = 0;
      for (int s = 0; s < seats; ++s) {
        const bool low = score[s][i] == lowest[i];
        holders += low;
        holder = low ? s : holder;
      }
      const bool tie = holders > 1;
      counts.wins(holder) += !tie;
      counts.tie_games() += tie;
      for (int s = 0; s < seats; ++s) counts.tied(s) += tie && score[s][i] == lowest[i];
    }
  }
};

#ifdef DICESIM_WITH_CUDA
// Plays a chunk's batches on the GPU (sixers_gpu.cu): `players`, one per
// table, in the device's memory, their views of the device's copies
// (PolicySampler::view_in).
void play_on_gpu(const TablePlayer* players, std::uint64_t seed, const std::vector<TableBatch>& batches,
                 std::int64_t* counters);
#endif

}  // namespace dicesim::sixers
