// The equilibrium verdict from deviation gains (math/equilibrium.h).
#include "math/equilibrium.h"

#include <gtest/gtest.h>

#include <cmath>

namespace dicesim {
namespace {

TEST(Equilibrium, AGainPastTheToleranceOrUnknownIsNoEquilibrium) {
  EXPECT_TRUE(is_equilibrium({0.0, 1e-13, -1e-9}));  // a loss by switching is no gain
  EXPECT_FALSE(is_equilibrium({0.0, 2.9e-8}));
  EXPECT_FALSE(is_equilibrium({0.0, std::nan("")}));
  EXPECT_NE(deviation_gain_lines({0.0, 2.9e-8}, "").find("NOT an equilibrium"), std::string::npos);
  const std::string unknown = deviation_gain_lines({std::nan("")}, "its passes cycled");
  EXPECT_NE(unknown.find("unknown (its passes cycled)"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("not known to be an equilibrium"), std::string::npos) << unknown;
}

}  // namespace
}  // namespace dicesim
