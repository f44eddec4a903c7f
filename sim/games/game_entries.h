// Each game's entry for the list games() (sim/games.cpp), defined in its
// sim/games/<game>/<game>_game.cpp. Adding a game: one declaration here.
#pragma once

#include "games/game.h"

namespace dicesim {
namespace sixers {
GameEntry sixers_entry();
}
namespace tenk {
GameEntry tenk_entry();
}
namespace battle {
GameEntry battle_entry();
}
namespace pig {
GameEntry pig_entry();
}
}  // namespace dicesim
