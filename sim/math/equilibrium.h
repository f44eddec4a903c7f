// Whether a profile of play is an equilibrium, from each seat's gain by
// switching alone to its best reply (the others keeping their play): the
// verdict and the lines `solve` prints, the same for every game.
#pragma once

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

namespace dicesim {

// A gain below it is rounding: "an equilibrium" means within it.
constexpr double kEquilibriumTolerance = 1e-12;

// True when every gain is known (not NaN) and none exceeds the tolerance.
inline bool is_equilibrium(const std::vector<double>& gains) {
  for (double gain : gains)
    if (std::isnan(gain) || gain > kEquilibriumTolerance) return false;
  return true;
}

// "switching alone to its best reply, from the start, each seat gains: ..."
// and the verdict on the next line; a NaN gain is one whose best reply was
// not found (`unknown_why` says why).
inline std::string deviation_gain_lines(const std::vector<double>& gains, const std::string& unknown_why) {
  std::ostringstream text;
  text.precision(2);
  text << std::scientific << "switching alone to its best reply, from the start, each seat gains:";
  bool known = true;
  for (double gain : gains) {
    known = known && !std::isnan(gain);
    if (std::isnan(gain))
      text << " unknown (" << unknown_why << ")";
    else
      text << " " << gain;
  }
  text << "\n"
       << (!known                  ? "not known to be an equilibrium"
           : is_equilibrium(gains) ? "an equilibrium: no seat gains by switching alone"
                                   : "NOT an equilibrium: a seat gains by switching alone")
       << " (within " << kEquilibriumTolerance << ")\n";
  return text.str();
}

}  // namespace dicesim
