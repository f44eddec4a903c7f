#include "math/stats.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dicesim::stats {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Regularised incomplete gamma functions by series and continued fraction.
double lower_gamma_series(double a, double x) {
  double term = 1 / a, sum = term;
  for (int n = 1; n < 100000; ++n) {
    term *= x / (a + n);
    sum += term;
    if (std::fabs(term) < std::fabs(sum) * 1e-16) break;
  }
  return sum * std::exp(-x + a * std::log(x) - std::lgamma(a));
}

double upper_gamma_fraction(double a, double x) {
  const double tiny = 1e-300;
  double b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
  for (int i = 1; i < 100000; ++i) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (std::fabs(d) < tiny) d = tiny;
    c = b + an / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1) < 1e-16) break;
  }
  return std::exp(-x + a * std::log(x) - std::lgamma(a)) * h;
}

}  // namespace

Moments histogram_moments(const std::vector<std::int64_t>& counts, int min_score, int step) {
  double n = 0, sum = 0, squares = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const double x = double(min_score) + double(step) * double(i), c = double(counts[i]);
    n += c;
    sum += c * x;
    squares += c * x * x;
  }
  if (n == 0) return {};
  const double mean = sum / n;
  const double variance = n > 1 ? (squares - n * mean * mean) / (n - 1) : 0;
  return {mean, std::sqrt(std::max(variance, 0.0))};
}

Moments exact_moments(const std::vector<double>& probability, int min_score, int step) {
  double mean = 0, squares = 0;
  for (std::size_t i = 0; i < probability.size(); ++i) {
    const double x = double(min_score) + double(step) * double(i);
    mean += probability[i] * x;
    squares += probability[i] * x * x;
  }
  return {mean, std::sqrt(std::max(squares - mean * mean, 0.0))};
}

double mean_z(double sample_mean, std::uint64_t n, const Moments& exact) {
  const double difference = sample_mean - exact.mean;
  if (exact.sd == 0 || n == 0) return std::fabs(difference) < 1e-12 ? 0 : kInfinity;
  return difference / (exact.sd / std::sqrt(double(n)));
}

double rate_z(std::uint64_t k, std::uint64_t n, double p) {
  if (n == 0) return 0;
  const double rate = double(k) / double(n);
  const double variance = p * (1 - p);
  if (variance <= 1e-300) return std::fabs(rate - p) < 1e-12 ? 0 : kInfinity;
  return (rate - p) / std::sqrt(variance / double(n));
}

namespace {
constexpr double kZ95 = 1.959963984540054;  // the two-sided 95% point of the normal distribution
}  // namespace

double rate_half_width(std::uint64_t k, std::uint64_t n) {
  if (n == 0) return 0;
  const double rate = double(k) / double(n);
  return kZ95 * std::sqrt(rate * (1 - rate) / double(n));
}

double adjusted_rate_half_width(std::uint64_t k, std::uint64_t n) {
  const double trials = double(n) + 4;
  const double rate = (double(k) + 2) / trials;
  return kZ95 * std::sqrt(rate * (1 - rate) / trials);
}

double mean_half_width(double sd, std::uint64_t n) { return n == 0 ? 0 : kZ95 * sd / std::sqrt(double(n)); }

namespace {

// Neighbouring bins summed until a pooled bin is `full`; what is left at
// the end joins the last pooled bin. bin(i) gives bin i's pair of numbers.
template <class Bin, class Full>
std::vector<std::pair<double, double>> pooled_bins(std::size_t bins, Bin bin, Full full) {
  std::vector<std::pair<double, double>> pooled;
  std::pair<double, double> open{0, 0};
  for (std::size_t i = 0; i < bins; ++i) {
    const auto [first, second] = bin(i);
    open.first += first;
    open.second += second;
    if (full(open)) {
      pooled.push_back(open);
      open = {0, 0};
    }
  }
  if (open.first > 0 || open.second > 0) {
    if (pooled.empty()) pooled.emplace_back(0, 0);
    pooled.back().first += open.first;
    pooled.back().second += open.second;
  }
  return pooled;
}

ChiSquare with_dof(double statistic, std::size_t pooled_bins) {
  const int dof = static_cast<int>(pooled_bins) - 1;
  return {statistic, dof, dof > 0 ? chi_square_tail(statistic, dof) : 1};
}

}  // namespace

ChiSquare chi_square(const std::vector<std::int64_t>& counts, const std::vector<double>& probability) {
  double n = 0;
  for (std::int64_t c : counts) n += double(c);
  if (n == 0) return {};
  const auto p = [&](std::size_t i) { return i < probability.size() ? probability[i] : 0; };
  for (std::size_t i = 0; i < counts.size(); ++i)
    if (p(i) <= 0 && counts[i] > 0) return {kInfinity, 1, 0};  // an impossible score was seen
  const auto pooled = pooled_bins(                             // (observed, expected)
      counts.size(),
      [&](std::size_t i) {
        return std::pair{double(counts[i]), n * p(i)};
      },
      [](const std::pair<double, double>& bin) { return bin.second >= 5; });
  double statistic = 0;
  for (const auto& [o, e] : pooled) statistic += (o - e) * (o - e) / e;
  return with_dof(statistic, pooled.size());
}

ChiSquare chi_square_two_samples(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b) {
  double total_a = 0, total_b = 0;
  for (std::int64_t c : a) total_a += double(c);
  for (std::int64_t c : b) total_b += double(c);
  if (total_a == 0 || total_b == 0) return {};
  const auto count = [](const std::vector<std::int64_t>& v, std::size_t i) { return i < v.size() ? double(v[i]) : 0; };
  const auto pooled = pooled_bins(  // (a's count, b's count)
      std::max(a.size(), b.size()),
      [&](std::size_t i) {
        return std::pair{count(a, i), count(b, i)};
      },
      [](const std::pair<double, double>& bin) { return bin.first + bin.second >= 10; });
  const double ka = std::sqrt(total_b / total_a), kb = std::sqrt(total_a / total_b);
  double statistic = 0;
  for (const auto& [x, y] : pooled) statistic += (x * ka - y * kb) * (x * ka - y * kb) / (x + y);
  return with_dof(statistic, pooled.size());
}

double chi_square_tail(double x, int dof) {
  if (x <= 0) return 1;
  if (std::isinf(x)) return 0;
  const double a = dof / 2.0, half = x / 2;
  return half < a + 1 ? 1 - lower_gamma_series(a, half) : upper_gamma_fraction(a, half);
}

double z_for_tail(double p) {
  if (p <= 0) return kInfinity;
  if (p >= 1) return -kInfinity;
  // Bisection on the normal tail 0.5 erfc(z / sqrt 2): slow but exact enough.
  double lo = -40, hi = 40;
  for (int i = 0; i < 200; ++i) {
    const double mid = (lo + hi) / 2;
    (0.5 * std::erfc(mid / std::sqrt(2.0)) > p ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

}  // namespace dicesim::stats
