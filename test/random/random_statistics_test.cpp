// A million draws of tx::uniform and tx::normal against their distributions: the sample mean and
// variance within five standard errors of the exact moments, and the Kolmogorov-Smirnov statistic
// below its 0.1% critical value (1.95 / sqrt(n)); bfloat16's 256 uniform levels each within five
// standard errors of 1/256.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "support/test_place.h"
#include "tensorx/tensorx.h"

namespace tx = tensorx;

namespace {

constexpr tx::index_t kDraws = 1 << 20;

template <class T, class E>
std::vector<double> draws_of(const E& e) {
  tx::Array<T, 1> out(e.dims(), tx::testing::test_place());
  out = e;
  const auto host = tx::testing::on_host(out);
  return std::vector<double>(host.data(), host.data() + host.numel());
}

/// Mean, variance and KS statistic of `x` against the continuous CDF `cdf`, with the bounds of
/// five standard errors for distribution moments `mean`, `variance` and fourth central moment
/// `fourth`.
void check_sample(std::vector<double> x, double mean, double variance, double fourth,
                  const std::function<double(double)>& cdf) {
  const auto n = static_cast<double>(x.size());
  double sum = 0;
  for (double v : x) sum += v;
  const double sample_mean = sum / n;
  double squares = 0;
  for (double v : x) squares += (v - sample_mean) * (v - sample_mean);
  const double sample_variance = squares / (n - 1);
  BOOST_TEST(std::abs(sample_mean - mean) <= 5 * std::sqrt(variance / n),
             "mean " << sample_mean << ", expected " << mean);
  BOOST_TEST(
      std::abs(sample_variance - variance) <= 5 * std::sqrt((fourth - variance * variance) / n),
      "variance " << sample_variance << ", expected " << variance);
  std::sort(x.begin(), x.end());
  double ks = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double f = cdf(x[i]);
    ks = std::max({ks, std::abs(f - static_cast<double>(i) / n),
                   std::abs(static_cast<double>(i + 1) / n - f)});
  }
  BOOST_TEST(ks < 1.95 / std::sqrt(n), "Kolmogorov-Smirnov statistic " << ks);
}

double uniform_cdf(double v) {
  return std::clamp(v, 0.0, 1.0);
}
double normal_cdf(double v) {
  return 0.5 * std::erfc(-v / std::sqrt(2.0));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(random_statistics)

BOOST_AUTO_TEST_CASE(uniform_float_and_double_follow_the_uniform_distribution) {
  // U(0, 1): mean 1/2, variance 1/12, fourth central moment 1/80.
  check_sample(draws_of<float>(tx::uniform<float>(tx::make_dim(kDraws), 2024)), 0.5, 1.0 / 12,
               1.0 / 80, uniform_cdf);
  check_sample(draws_of<double>(tx::uniform<double>(tx::make_dim(kDraws), 2024, 1)), 0.5, 1.0 / 12,
               1.0 / 80, uniform_cdf);
}

BOOST_AUTO_TEST_CASE(uniform_bfloat16_takes_each_of_its_256_levels_equally_often) {
  const auto x = draws_of<tx::bfloat16>(tx::uniform<tx::bfloat16>(tx::make_dim(kDraws), 77));
  std::vector<double> counts(256, 0.0);
  for (double v : x) counts[static_cast<std::size_t>(v * 256)] += 1;  // every v is k / 256
  const double expected = static_cast<double>(kDraws) / 256;
  const double bound = 5 * std::sqrt(expected * (1 - 1.0 / 256));
  for (std::size_t k = 0; k < counts.size(); ++k) {
    BOOST_TEST(std::abs(counts[k] - expected) <= bound, "level " << k << ": " << counts[k]);
  }
}

BOOST_AUTO_TEST_CASE(normal_float_and_double_follow_the_standard_normal_distribution) {
  // N(0, 1): mean 0, variance 1, fourth central moment 3.
  check_sample(draws_of<float>(tx::normal<float>(tx::make_dim(kDraws), 2024, 0)), 0.0, 1.0, 3.0,
               normal_cdf);
  check_sample(draws_of<double>(tx::normal<double>(tx::make_dim(kDraws), 2024, 5)), 0.0, 1.0, 3.0,
               normal_cdf);
}

BOOST_AUTO_TEST_CASE(the_two_outputs_of_a_box_muller_pair_are_uncorrelated) {
  const auto x = draws_of<float>(tx::normal<float>(tx::make_dim(kDraws), 31, 0));
  double products = 0;
  for (std::size_t i = 0; i + 1 < x.size(); i += 2) products += x[i] * x[i + 1];
  const double correlation = products / static_cast<double>(x.size() / 2);
  BOOST_TEST(std::abs(correlation) <= 5 / std::sqrt(static_cast<double>(x.size() / 2)),
             "correlation " << correlation);
}

BOOST_AUTO_TEST_SUITE_END()
