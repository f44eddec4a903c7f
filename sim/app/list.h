// `dicesim list`: every game's rules, strategy families, tables and library
// strategies, and what all games share (contests, sweeps).
#pragma once

#include <iosfwd>

namespace dicesim {

void list_games(std::ostream& out);

}  // namespace dicesim
