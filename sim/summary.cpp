#include "summary.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <ostream>

#include "stats.h"
#include "strategy_matrix.h"

namespace dicesim {
namespace {

double fraction(std::int64_t count, std::uint64_t games) { return games ? double(count) / double(games) : 0.0; }

}  // namespace

void print_summary(std::ostream& out, const RunConfig& config, const EngineOutput& output) {
  const std::vector<Strategy>& strategies = config.game->strategies();
  const std::vector<Measure> measures = config.game->measures();
  const std::size_t width = 4 + std::max_element(strategies.begin(), strategies.end(), [](auto& a, auto& b) {
                                  return a.name.size() < b.name.size();
                                })->name.size();
  out << std::fixed;
  if (std::any_of(config.plan.distribution.begin(), config.plan.distribution.end(), [](int t) { return t >= 0; })) {
    out << std::left << std::setw(width) << "strategy" << std::right << std::setw(14) << "games" << std::setw(10)
        << "mean" << std::setw(10) << "sd" << std::setw(12) << "P(min)";
    for (std::size_t m = 1; m < measures.size(); ++m) out << std::setw(16) << ("mean " + measures[m].name);
    out << "\n";
    for (std::size_t s = 0; s < strategies.size(); ++s) {
      const int t = config.plan.distribution[s];
      if (t < 0) continue;
      const TableCountsView counts = table_counts(config, output, t);
      const std::vector<std::int64_t> scores = counts.scores_of(0);
      const stats::Moments m = stats::histogram_moments(scores, measures[0].min, measures[0].step);
      out << std::left << std::setw(width) << strategies[s].name << std::right << std::setw(14) << output.games_done[t]
          << std::setprecision(4) << std::setw(10) << m.mean << std::setw(10) << m.sd << std::setw(12)
          << fraction(scores[0], output.games_done[t]);
      for (std::size_t k = 1; k < measures.size(); ++k)
        out << std::setw(16)
            << stats::histogram_moments(counts.histogram_of(int(k), 0), measures[k].min, measures[k].step).mean;
      out << "\n";
    }
  }
  const auto print_pairs = [&](const std::string& title, const std::vector<std::vector<int>>& pairs, bool mirror) {
    bool any = false;
    for (const auto& row : pairs)
      for (int t : row) any = any || t >= 0;
    if (!any) return;
    out << "\n";
    print_strategy_matrix(out, title, strategies, 4, [&](std::size_t a, std::size_t b) -> std::optional<double> {
      int t = pairs[a][b], seat = 0;
      if (t < 0 && mirror && pairs[b][a] >= 0) t = pairs[b][a], seat = 1;
      if (t < 0) return std::nullopt;
      return fraction(table_counts(config, output, t).wins(seat), output.games_done[t]);
    });
  };
  print_pairs("head to head: fraction of games the row strategy wins (ties count for neither)", config.plan.headtohead,
              true);
  print_pairs("sequential: fraction of games the row strategy, playing first, wins", config.plan.sequential, false);
  const auto print_groups = [&](const std::string& title, const std::vector<int>& groups) {
    for (std::size_t g = 0; g < groups.size(); ++g) {
      const TableCountsView c = table_counts(config, output, groups[g]);
      const std::uint64_t games = output.games_done[groups[g]];
      out << "\n" << title << " " << g << " (" << games << " games): wins";
      for (int s = 0; s < c.seats(); ++s)
        out << "  " << strategies[config.plan.tables[groups[g]].table.seats[s]].name << " " << std::setprecision(4)
            << fraction(c.wins(s), games);
      out << "  ties " << fraction(c.tie_games(), games) << "\n";
    }
  };
  print_groups("n-way table", config.plan.nway);
  print_groups("sequential table", config.plan.sequential_tables);
}

void print_checks(std::ostream& out, const std::vector<Check>& checks) {
  std::size_t failures = 0;
  double worst = 0;
  out << "\nMonte Carlo against exact (chi_square: statistic against degrees of freedom)\n"
      << std::right << std::setw(9) << "z"
      << "  " << std::left << std::setw(11) << "kind" << std::right << std::setw(14) << "Monte Carlo" << std::setw(14)
      << "exact"
      << "  number\n";
  for (const Check& c : checks) {
    worst = std::max(worst, std::abs(c.z));
    failures += !c.passed();
    out << std::right << std::fixed << std::setprecision(2) << std::setw(9) << c.z << "  " << std::left << std::setw(11)
        << c.kind << std::right << std::setprecision(6) << std::setw(14) << c.observed << std::setw(14) << c.expected
        << "  " << c.name << (c.passed() ? "" : "  <-- DISAGREES") << "\n";
  }
  out << "\ncheck: " << checks.size() << " numbers compared with the exact solver, " << failures << " beyond |z| > "
      << std::setprecision(0) << kZLimit << "; largest |z| " << std::setprecision(2) << worst << "\n";
}

}  // namespace dicesim
