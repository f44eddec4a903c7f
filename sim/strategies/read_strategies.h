// A config's "strategies" array as a game reads it: every entry, each sweep
// expanded (strategies/sweep.h), named uniquely, compiled by the game.
#pragma once

#include <string>
#include <unordered_set>
#include <vector>

#include "config/json_input.h"
#include "engine/memory_budget.h"
#include "engine/table.h"
#include "strategies/sweep.h"

namespace dicesim {

struct Strategy {
  std::string name;
  json spec;        // as written in the config (a sweep's: this combination's), without "set"
  std::string set;  // the set contests may name it by: the entry's "set", a sweep's name template, or ""
};

// The memory of one entry's strategies, charged to the budget before it is
// allocated. A family's cost depends on the rules and the parameters in ways
// only its compiler knows, so the entry's first two strategies are compiled
// and measured (what they took from the heap, less what solvers charged for
// themselves, which they do before solving); the rest of a sweep is charged
// at the second's cost (the first may have solved what all share) before
// any of it is compiled.
class EntryCost {
 public:
  EntryCost(std::size_t count, std::string what) : count_(count), what_(std::move(what)) {}

  template <class Compile>
  void compile(std::size_t k, Compile&& compile) {
    MemoryBudget& budget = memory_budget();
    if (k == 2)
      budget.charge(second_ * (count_ - 2),
                    what_ + " (" + std::to_string(count_ - 2) + " more strategies of the sweep)");
    const std::uint64_t heap = heap_bytes_in_use(), charged = budget.charged();
    compile();
    if (k >= 2) return;
    const std::uint64_t took = heap_bytes_in_use() - std::min(heap_bytes_in_use(), heap);
    const std::uint64_t solvers = budget.charged() - charged;
    const std::uint64_t own = took > solvers ? took - solvers : 0;
    budget.charge(own, what_);
    if (k == 1) second_ = own;
  }

 private:
  std::size_t count_;
  std::string what_;
  std::uint64_t second_ = 0;
};

// Reads the "strategies" array, each sweep expanded (strategies/sweep.h): names
// (unique, usable as HDF5 group names), with compile(spec) called for each; a
// game's load uses it.
template <class Compile>
std::vector<Strategy> read_strategies(const JsonNode& config, Compile compile) {
  std::vector<Strategy> out;
  std::unordered_set<std::string> names;  // a set, not a scan: thousands of strategies stay linear
  std::size_t expanded_bytes = 0;         // of the sweeps, bounded by kMaxExpandedBytes
  for (const JsonNode& entry : config.at("strategies").elements(1)) {
    // A library strategy still a reference failed to resolve: under `validate`
    // its error is recorded (strategies/library.h), under run it was thrown.
    if (entry.value().is_object() && entry.has("library")) continue;
    independently([&] {  // under `validate`, each entry's error is reported
      if (out.size() >= kMaxStrategies)
        entry.fail("more than " + std::to_string(kMaxStrategies) + " strategies (sweeps expanded)");
      const std::string set = strategy_set(entry);
      std::vector<json> specs =
          expand_strategy_entry(entry, kMaxStrategies - out.size(), kMaxExpandedBytes - expanded_bytes);
      if (specs.size() > 1) expanded_bytes += specs.size() * entry.value().dump().size();
      EntryCost cost(specs.size(), entry.file() + ": " + entry.path());
      for (std::size_t k = 0; k < specs.size(); ++k) {
        json& expanded = specs[k];
        expanded.erase("set");
        const JsonNode spec(expanded, entry.file(), entry.path());  // errors name the entry as written
        // The name and the parameters are independent: `validate` reports both.
        std::string name;
        const bool named = independently([&] {
          const JsonNode name_node = spec.at("name");
          name = name_node.string();
          if (name.empty() || name == "." || name.find('/') != std::string::npos || has_control_character(name))
            name_node.fail("a strategy name must be non-empty, not \".\", and contain no \"/\" or control characters");
          check_name_length(name_node, name, "a strategy name");
          if (!names.insert(name).second) name_node.fail("duplicate strategy name \"" + name + "\"");
        });
        const bool compiled = independently([&] { cost.compile(k, [&] { compile(spec); }); });
        if (named && compiled) out.push_back({name, expanded, set});
      }
    });
  }
  return out;
}

}  // namespace dicesim
