// Games side by side: a thread plays several independent games at once,
// one step of each in turn, so that the processor overlaps their chains of
// dependent loads (draw -> table -> score -> next table) instead of waiting
// on one. The draws come from one stream in a fixed order, so the results
// depend only on the stream and the number of games.
#pragma once

#include <algorithm>
#include <cstdint>

namespace dicesim {

// Plays `games` games, Lanes in flight at once. `fresh` is a game's state at
// its start; step(state) plays one step (a turn, a round) and returns true
// when the game has ended, after which finished(state) records it and the
// lane starts the next game, if any is left.
template <int Lanes, class State, class Step, class Finished>
void play_side_by_side(std::uint64_t games, const State& fresh, Step&& step, Finished&& finished) {
  State lane[Lanes];
  int live = static_cast<int>(std::min<std::uint64_t>(Lanes, games));
  std::uint64_t started = static_cast<std::uint64_t>(live);
  std::fill_n(lane, live, fresh);
  while (live > 0)
    for (int l = 0; l < live; ++l) {
      if (!step(lane[l])) continue;
      finished(lane[l]);
      if (started < games) {
        lane[l] = fresh, ++started;
      } else {
        lane[l] = lane[--live], --l;  // this slot plays the last live lane's game next
      }
    }
}

}  // namespace dicesim
