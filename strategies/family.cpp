#include "family.h"

#include <algorithm>
#include <iomanip>
#include <ostream>

namespace dicesim {

void require_known_family(const JsonNode& family_node, std::string_view game,
                          const std::vector<StrategyFamily>& families) {
  const std::string family = family_node.string();
  if (std::any_of(families.begin(), families.end(), [&](const StrategyFamily& f) { return f.name == family; })) return;
  std::string known;
  for (const StrategyFamily& f : families) known += (known.empty() ? "" : ", ") + std::string(f.name);
  family_node.fail("unknown strategy family \"" + family + "\" for " + std::string(game) + " (known: " + known + ")");
}

void describe_families(std::ostream& out, const std::vector<StrategyFamily>& families) {
  for (const StrategyFamily& f : families) {
    std::string heading(f.name);
    if (!f.short_name.empty()) heading += " (" + std::string(f.short_name) + ")";
    out << "    " << std::left << std::setw(28) << heading << f.parameters << "\n"
        << "    " << std::setw(28) << "" << f.description << "\n";
  }
}

}  // namespace dicesim
