#include "app/list.h"

#include <iomanip>
#include <ostream>
#include <string_view>
#include <vector>

#include "config/terminal_text.h"
#include "games/registry.h"
#include "plan/contest_plan.h"
#include "strategies/library.h"
#include "strategies/sweep.h"

namespace dicesim {

namespace {

// The game's strategies in the library, each a line: {"library": NAME}.
void describe_library(std::ostream& out, std::string_view game) {
  const std::vector<LibraryStrategy> library = library_strategies(game);
  if (library.empty()) return;
  out << "  library (" << terminal_text(strategy_library_file(game)) << "; {\"library\": NAME} in \"strategies\"):\n";
  for (const LibraryStrategy& s : library)
    out << "    " << std::left << std::setw(20) << terminal_text(s.name) << std::right << terminal_text(s.description)
        << "\n";
}

}  // namespace

void list_games(std::ostream& out) {
  for (const GameEntry& g : games()) {
    out << g.name << ": " << g.description << "\n";
    g.describe(out);
    out << describe_tables(g);
    describe_library(out, g.name);
    out << "\n";
  }
  out << "contests (all games): distributions (default true), headtohead, sequential,\n"
         "  nway [[names...]], sequential_tables [[names...]]; see configs/README.md\n"
         "sweeps (all families): a numeric parameter may be a list [300, 500] or a range\n"
         "  {\"from\": 300, \"to\": 3000, \"step\": 50}, and each element of a per_ array likewise;\n"
         "  one strategy per combination, named by a template such as \"bank{total}\" (at most "
      << kMaxStrategies
      << " strategies);\n"
         "  `dicesim run --dry-run CONFIG` lists them; see configs/README.md\n";
}

}  // namespace dicesim
