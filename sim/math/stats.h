// math/: the mathematics any game may use: statistics, races to a goal, zero-sum matrix games.
//
//
// may include: nothing else
//
// The statistics of the cross-check: Monte Carlo counts against exact
// probabilities, as z-scores and chi-square tests.
#pragma once

#include <cstdint>
#include <vector>

namespace dicesim::stats {

struct Moments {
  double mean = 0;
  double sd = 0;
};

// Mean and standard deviation of a histogram whose bin i is min_score + i * step.
Moments histogram_moments(const std::vector<std::int64_t>& counts, int min_score, int step = 1);
Moments exact_moments(const std::vector<double>& probability, int min_score, int step = 1);

// z of a sample mean of n draws against the exact mean and sd.
double mean_z(double sample_mean, std::uint64_t n, const Moments& exact);
// z of k successes in n trials against the exact probability p.
double rate_z(std::uint64_t k, std::uint64_t n, double p);

// Half-widths of the 95% intervals the summaries print (normal
// approximation, z = 1.96): of a rate k / n, and of a mean of n values with
// standard deviation sd. 0 for n = 0.
double rate_half_width(std::uint64_t k, std::uint64_t n);
// The Agresti-Coull half-width (two successes and two failures added): never
// zero, so a rate of 0 or 1 seen in few games does not look precise.
double adjusted_rate_half_width(std::uint64_t k, std::uint64_t n);
double mean_half_width(double sd, std::uint64_t n);

struct ChiSquare {
  double statistic = 0;
  int dof = 0;
  double p_value = 1;
};
// Pearson's test of a histogram against exact bin probabilities; bins with
// fewer than 5 expected counts are pooled with their neighbours.
ChiSquare chi_square(const std::vector<std::int64_t>& counts, const std::vector<double>& probability);

// Pearson's test that two histograms come from one distribution (neither
// known); bins with fewer than 10 counts in both together are pooled with
// their neighbours.
ChiSquare chi_square_two_samples(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b);

// Upper tail of the chi-square distribution, P(X > x) for k degrees of freedom.
double chi_square_tail(double x, int dof);
// The z with the same one-sided upper-tail probability: P(Z > z) = p.
double z_for_tail(double p);

}  // namespace dicesim::stats
