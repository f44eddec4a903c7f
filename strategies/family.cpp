#include "strategies/family.h"

#include <algorithm>
#include <iomanip>
#include <ostream>

#include "config/suggest.h"

namespace dicesim {

void require_known_family(const JsonNode& family_node, std::string_view game,
                          const std::vector<StrategyFamily>& families) {
  const std::string family = family_node.string();
  if (std::any_of(families.begin(), families.end(), [&](const StrategyFamily& f) { return f.name == family; })) return;
  std::string known;
  std::vector<std::string_view> names;
  for (const StrategyFamily& f : families) {
    known += (known.empty() ? "" : ", ") + std::string(f.name);
    names.push_back(f.name);
    if (!f.short_name.empty()) names.push_back(f.short_name);
  }
  family_node.fail("unknown strategy family \"" + family + "\" for " + std::string(game) + " (known: " + known + ")" +
                   did_you_mean(family, names));
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
