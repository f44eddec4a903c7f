// Helpers shared by the 10,000 tests: rules and strategies from JSON as a
// config would give them.
#pragma once

#include <algorithm>

#include "config/json_input.h"
#include "games/tenk/tenk.h"
#include "games/tenk/tenk_rules.h"
#include "games/tenk/tenk_strategies.h"

namespace dicesim::tenk::helpers {

// The default preset with these keys over it (errors name the path "test").
inline Rules rules_from(const json& rules) { return read_rules(JsonNode(rules, "test")); }

inline Policy compile(const Scoring& scoring, const json& spec) {
  Solutions solutions(scoring);
  return compile_strategy(JsonNode(spec, "test"), scoring, solutions);
}

// A preset at a small target (its high_from at most half of it): games the
// value iteration of the tests can sweep.
inline Rules small_rules(const char* name, int target) {
  Rules rules = preset(name);
  rules.target = target;
  rules.high_from = std::min(rules.high_from, target / 2);
  return rules;
}

}  // namespace dicesim::tenk::helpers
