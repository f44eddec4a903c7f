// Helpers shared by the Pig tests.
#pragma once

#include "games/pig/pig.h"

namespace dicesim::pig::helpers {

inline Rules rules_of(int dice, int goal = 100) {
  Rules rules;
  rules.dice = dice;
  rules.goal = goal;
  return rules;
}

}  // namespace dicesim::pig::helpers
