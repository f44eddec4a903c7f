#include "games/yahtzee/yahtzee_exact.h"

#include <cmath>

namespace dicesim::yahtzee {

std::vector<double> score_distribution(const Rules& rules, const PlanOf& plan) {
  return StrategyTurns(rules, plan, fair_die(), true).distribution();
}

TableOdds highest_score_odds(const std::vector<const std::vector<double>*>& seats) {
  const std::size_t n = seats.size(), bins = seats.at(0)->size();
  TableOdds odds;
  odds.probability.assign(1, {});
  for (const std::vector<double>* p : seats) odds.probability[0].push_back(*p);
  odds.win.assign(n, 0.0);
  // below[s][x]: P(seat s scores less than x).
  std::vector<std::vector<double>> below(n, std::vector<double>(bins + 1, 0.0));
  for (std::size_t s = 0; s < n; ++s)
    for (std::size_t x = 0; x < bins; ++x) below[s][x + 1] = below[s][x] + (*seats[s])[x];
  for (std::size_t x = 0; x < bins; ++x) {
    // P(the highest score is x), less P(one seat alone scores it): shared.
    double at_most = 1, under = 1, alone_here = 0;
    for (std::size_t s = 0; s < n; ++s) at_most *= below[s][x + 1], under *= below[s][x];
    for (std::size_t s = 0; s < n; ++s) {
      double q = (*seats[s])[x];
      for (std::size_t o = 0; o < n && q != 0; ++o)
        if (o != s) q *= below[o][x];
      odds.win[s] += q;
      alone_here += q;
    }
    if (n > 1) odds.tie += (at_most - under) - alone_here;
  }
  return odds;
}

double mean_of(const std::vector<double>& p) {
  double m = 0;
  for (std::size_t x = 0; x < p.size(); ++x) m += double(x) * p[x];
  return m;
}

double sd_of(const std::vector<double>& p) {
  const double m = mean_of(p);
  double v = 0;
  for (std::size_t x = 0; x < p.size(); ++x) v += (double(x) - m) * (double(x) - m) * p[x];
  return std::sqrt(v);
}

int quantile_of(const std::vector<double>& p, double q) {
  double c = 0;
  for (std::size_t x = 0; x < p.size(); ++x)
    if ((c += p[x]) >= q) return static_cast<int>(x);
  return static_cast<int>(p.size()) - 1;
}

}  // namespace dicesim::yahtzee
