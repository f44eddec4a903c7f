#include "results/exact_checks.h"

#include <algorithm>
#include <cmath>

#include "engine/interrupt.h"
#include "engine/jobs.h"
#include "engine/progress.h"
#include "math/stats.h"

namespace dicesim {

ExactTables exact_tables(const RunConfig& config, int threads) {
  ExactTables out(config.plan.tables.size());
  run_jobs(out.size(), threads, "exact odds: table",
           [&](std::size_t t) { out[t] = config.game->exact(config.plan.tables[t].table); });
  return out;
}

namespace {

double two_sided_p(double z) { return std::erfc(std::abs(z) / std::sqrt(2.0)); }

// A seat's mean of a measure (z against the exact mean and sd) and its whole
// histogram (chi-square). n is the histogram's total: one value a game for
// the score, possibly several (one a turn, say) for other measures; as long
// as those are independent draws of the exact distribution the z and the
// chi-square hold, the number of draws being a stopping time (Wald).
void check_histogram(std::vector<Check>& checks, const std::string& prefix, const std::vector<std::int64_t>& counts,
                     const std::vector<double>& exact, const Measure& measure) {
  std::uint64_t n = 0;
  for (std::int64_t c : counts) n += std::uint64_t(c);
  if (n == 0) return;
  const stats::Moments moments = stats::exact_moments(exact, measure.min, measure.step);
  const double mean = stats::histogram_moments(counts, measure.min, measure.step).mean;
  const double z = stats::mean_z(mean, n, moments);
  checks.push_back({prefix + "/mean", "mean", mean, moments.mean, z, two_sided_p(z)});
  // Only an excess of discrepancy fails: a fit better than chance (or no
  // degrees of freedom at all) gives z = 0, not a large negative z.
  const stats::ChiSquare chi = stats::chi_square(counts, exact);
  checks.push_back({prefix + "/distribution", "chi_square", chi.statistic, double(chi.dof),
                    std::max(0.0, stats::z_for_tail(chi.p_value)), chi.p_value});
}

void check_rate(std::vector<Check>& checks, const std::string& name, const std::string& kind, std::int64_t count,
                std::uint64_t games, double exact) {
  const double z = stats::rate_z(count, games, exact);
  checks.push_back({name, kind, double(count) / double(games), exact, z, two_sided_p(z)});
}

// A seat in check names: its strategy's name, followed by "/seat<k>" where
// the strategy holds several seats of the table (no measure's name holds a
// digit, and no strategy's name a '/', so the names stay apart).
std::string seat_name(const RunConfig& config, const Table& table, int seat) {
  const int strategy = table.seats[std::size_t(seat)];
  const std::string& name = config.game->strategies()[std::size_t(strategy)].name;
  if (std::count(table.seats.begin(), table.seats.end(), strategy) == 1) return name;
  return name + "/seat" + std::to_string(seat);
}

}  // namespace

std::vector<Check> compare(const RunConfig& config, const EngineOutput& output, const ExactTables& exact) {
  std::vector<Check> checks;
  const std::vector<Measure> measures = config.game->measures();
  for (std::size_t t = 0; t < config.plan.tables.size(); ++t) {
    const std::uint64_t games = output.games_done[t];
    if (!exact[t] || games == 0) continue;  // no solver, or nothing played (an interrupted run)
    const PlannedTable& planned = config.plan.tables[t];
    const TableCountsView counts = table_counts(config, output, static_cast<int>(t));
    const TableOdds& odds = *exact[t];
    const bool rates = counts.seats() > 1 && !odds.win.empty();
    for (int s = 0; s < counts.seats(); ++s) {
      const std::string name = seat_name(config, planned.table, s);
      for (int m = 0; m < static_cast<int>(measures.size()); ++m) {
        const std::vector<double>* exact_distribution = odds.distribution(m, s);
        if (!exact_distribution) continue;
        // The score keeps its 1.0 check names; other measures add their name.
        const std::string prefix = planned.key + "/" + name + (m == 0 ? "" : "/" + measures[m].name);
        check_histogram(checks, prefix, counts.histogram_of(m, s), *exact_distribution, measures[m]);
      }
      if (rates) check_rate(checks, planned.key + "/win/" + name, "win_rate", counts.wins(s), games, odds.win[s]);
    }
    if (rates) check_rate(checks, planned.key + "/tie", "tie_rate", counts.tie_games(), games, odds.tie);
  }
  return checks;
}

std::vector<std::string> not_compared(const RunConfig& config, const ExactTables& exact) {
  std::vector<std::string> reasons;                // in the order first met
  std::vector<std::pair<int, std::size_t>> where;  // per reason: tables, the first table
  for (std::size_t t = 0; t < exact.size(); ++t) {
    if (!exact[t]) continue;
    for (const std::string& reason : exact[t]->not_compared) {
      const auto found = std::find(reasons.begin(), reasons.end(), reason);
      if (found != reasons.end()) {
        ++where[std::size_t(found - reasons.begin())].first;
        continue;
      }
      reasons.push_back(reason);
      where.emplace_back(1, t);
    }
  }
  std::vector<std::string> lines;
  for (std::size_t r = 0; r < reasons.size(); ++r) {
    const std::string& first = config.plan.tables[where[r].second].key;
    lines.push_back(where[r].first == 1
                        ? first + ": " + reasons[r]
                        : reasons[r] + " (" + std::to_string(where[r].first) + " tables, the first " + first + ")");
  }
  return lines;
}

}  // namespace dicesim
