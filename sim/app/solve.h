// `dicesim solve <game>`: each game's exact numbers, no simulation, one
// subcommand per game in sim/app/solve_<game>.cpp. Adding a game's: its file,
// its declaration here and one line in add_solve_commands (sim/app/solve.cpp).
#pragma once

namespace CLI {
class App;
}

namespace dicesim {
namespace sixers {
void add_solve_command(CLI::App& solve);
}
namespace tenk {
void add_solve_command(CLI::App& solve);
}
namespace pig {
void add_solve_command(CLI::App& solve);
}
namespace battle {
void add_solve_command(CLI::App& solve);
}

// Adds every game's subcommand to `dicesim solve`.
void add_solve_commands(CLI::App& solve);

}  // namespace dicesim
