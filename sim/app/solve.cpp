#include "app/solve.h"

namespace dicesim {

void add_solve_commands(CLI::App& solve) {
  // In the order of games() (sim/games/registry.cpp), as `dicesim solve --help` lists them.
  sixers::add_solve_command(solve);
  tenk::add_solve_command(solve);
  pig::add_solve_command(solve);
  battle::add_solve_command(solve);
}

}  // namespace dicesim
