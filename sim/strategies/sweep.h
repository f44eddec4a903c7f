// Sweeps: a strategy entry of a config whose numeric parameters are lists of
// values or ranges stands for one strategy per combination.
//   {"name": "bank{total}", "family": "bank_at", "total": {"from": 300, "to": 3000, "step": 50}}
//   {"family": "dice_value_threshold", "per_roll": [[1, 2, 3], {"from": 1, "to": 6}]}
// A parameter whose name starts with "per_" is an array (one value per roll,
// per number of dice): each of its elements may be swept. Any other array is a
// list of values. configs/README.md documents the syntax.
#pragma once

#include <cstddef>
#include <vector>

#include "config/json_input.h"
#include "config/parameters.h"

namespace dicesim {

// The most strategies a config may hold, sweeps expanded.
constexpr std::size_t kMaxStrategies = 10000;
// The longest strategy name, and name template, in characters: a name is an
// HDF5 group and a column of every table, and a sweep copies its template
// once per strategy.
constexpr std::size_t kMaxNameLength = 200;
// The most bytes (as JSON text) of strategy specs a config's sweeps may
// expand to: an entry is copied once per combination.
constexpr std::size_t kMaxExpandedBytes = 64 << 20;

// The strategies an entry stands for, each a plain spec with its "name",
// in the order of the combinations (the first swept parameter slowest). An
// entry without a sweep is returned as it is. Names come from the entry's
// template ("bank{total}", "dv{per_roll[0]}_{per_roll[1]}") or, without a
// name, from the family and the swept values ("bank_at(total=300)"). Fails
// at the offending node for an empty list or range, a step of 0, a template
// that misses a swept parameter, names past kMaxNameLength, more than `most`
// strategies or more than `most_bytes` of them (each the entry's size).
std::vector<json> expand_strategy_entry(const JsonNode& entry, std::size_t most,
                                        std::size_t most_bytes = kMaxExpandedBytes);

// Fails at node when name (`what`: "a strategy name") is longer than kMaxNameLength.
void check_name_length(const JsonNode& node, const std::string& name, const char* what);

// The set an entry's strategies belong to, which contests may name: its
// "set" key, else a sweep's name template ("bank{total}"), else "".
std::string strategy_set(const JsonNode& entry);

// The keys every strategy entry may hold besides its family's: "name" (a
// template in a sweep) and "set".
const std::vector<Parameter>& strategy_entry_parameters();
// The schema's definitions a strategies array refers to: "strategy_name" and
// the sweepable integer (kSweepableIntegerRef: an integer, a list or a range).
ordered_json sweep_schema_definitions();

}  // namespace dicesim
