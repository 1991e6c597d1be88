// The math library's transcendental and rounding functions (tx::exp, tx::log, ..., tx::round) on
// arrays and expressions of every layout, on single numbers and on SIMD batches, against
// double-precision references. math_ordering_test.cpp has abs, relu, sign, maximum, minimum, clip.
#include <cmath>

#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include "ops/elementwise_check.h"
#include "tensorx/tensorx.h"

namespace tx = tensorx;
using tx::testing::check_function;
using tx::testing::Values;

namespace {
using RealTypes = boost::mpl::list<float, double, tx::float16>;
}  // namespace

BOOST_AUTO_TEST_SUITE(ops_math)

BOOST_AUTO_TEST_CASE_TEMPLATE(transcendental_functions_match_the_reference, T, RealTypes) {
  auto rng = tx::testing::make_rng(101);
  const Values<T> any(-4.0, 4.0), positive(0.05, 4.0), above_minus_one(-0.9, 3.0);
  check_function(
      "exp", [](const auto& x) { return tx::exp(x); }, [](double x) { return std::exp(x); }, any,
      rng);
  check_function(
      "log", [](const auto& x) { return tx::log(x); }, [](double x) { return std::log(x); },
      positive, rng);
  check_function(
      "log1p", [](const auto& x) { return tx::log1p(x); }, [](double x) { return std::log1p(x); },
      above_minus_one, rng);
  check_function(
      "expm1", [](const auto& x) { return tx::expm1(x); }, [](double x) { return std::expm1(x); },
      any, rng);
  check_function(
      "sqrt", [](const auto& x) { return tx::sqrt(x); }, [](double x) { return std::sqrt(x); },
      positive, rng);
  check_function(
      "rsqrt", [](const auto& x) { return tx::rsqrt(x); },
      [](double x) { return 1.0 / std::sqrt(x); }, positive, rng);
  check_function(
      "tanh", [](const auto& x) { return tx::tanh(x); }, [](double x) { return std::tanh(x); }, any,
      rng);
  check_function(
      "sigmoid", [](const auto& x) { return tx::sigmoid(x); },
      [](double x) { return 1.0 / (1.0 + std::exp(-x)); }, any, rng);
  check_function(
      "pow", [](const auto& x, const auto& y) { return tx::pow(x, y); },
      [](double x, double y) { return std::pow(x, y); }, positive, Values<T>(-2.5, 2.5), rng);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(pow_of_a_negative_base_with_an_integer_exponent, T, RealTypes) {
  auto rng = tx::testing::make_rng(102);
  check_function(
      "pow", [](const auto& x, const auto& y) { return tx::pow(x, y); },
      [](double x, double y) { return std::pow(x, y); }, Values<T>(-3.0, 3.0),
      Values<T>(0.0, 3.0, 1.0), rng);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(rounding_functions_match_the_reference, T, RealTypes) {
  auto rng = tx::testing::make_rng(103);
  // Multiples of 0.5 put every tie in front of round, which must go away from zero.
  for (const Values<T>& x : {Values<T>(-6.0, 6.0), Values<T>(-6.0, 6.0, 0.5)}) {
    check_function(
        "floor", [](const auto& v) { return tx::floor(v); }, [](double v) { return std::floor(v); },
        x, rng);
    check_function(
        "ceil", [](const auto& v) { return tx::ceil(v); }, [](double v) { return std::ceil(v); }, x,
        rng);
    check_function(
        "round", [](const auto& v) { return tx::round(v); }, [](double v) { return std::round(v); },
        x, rng);
  }
}

BOOST_AUTO_TEST_CASE(round_takes_halfway_cases_away_from_zero_on_every_path) {
  for (const float tie : {0.5f, 1.5f, 2.5f, -0.5f, -2.5f}) {
    BOOST_TEST(tx::round(tie) == std::round(tie));
    BOOST_TEST(tx::round(double(tie)) == std::round(double(tie)));
  }
  BOOST_TEST(tx::round(2.5f) == 3.0f);
  BOOST_TEST(tx::round(-2.5f) == -3.0f);
  // Just below one half: adding 0.5 and truncating would round it up to 1.
  BOOST_TEST(tx::round(0.49999997f) == 0.0f);
#if TENSORX_HAS_SIMD
  const auto rounded = tx::round(xsimd::batch<float>(2.5f));
  BOOST_TEST(rounded.get(0) == 3.0f);
#endif
}

BOOST_AUTO_TEST_CASE(math_functions_compose_into_one_expression) {
  auto rng = tx::testing::make_rng(106);
  const auto dims = tx::make_dim(300, 500);
  const auto a = Values<float>(-2.0, 2.0).array(dims, rng);
  const auto b = Values<float>(0.5, 2.0).array(tx::make_dim(500), rng);
  // Every math function on float, composed, still runs in the SIMD loop of the CPU engine (where
  // there is one: CUDA translation units have none).
  using tx::testing::runs_in_simd;
  constexpr bool kSimd = TENSORX_HAS_SIMD;
  static_assert(runs_in_simd<decltype(tx::log1p(tx::expm1(tx::log(tx::exp(a)))))>() == kSimd);
  static_assert(runs_in_simd<decltype(tx::rsqrt(tx::sqrt(a)) + tx::tanh(a))>() == kSimd);
  static_assert(runs_in_simd<decltype(tx::sigmoid(tx::round(tx::floor(tx::ceil(a)))))>() == kSimd);
  static_assert(runs_in_simd<decltype(tx::relu(tx::abs(tx::sign(tx::square(a)))))>() == kSimd);
  static_assert(runs_in_simd<decltype(tx::clip(tx::pow(a, 2.0f), tx::maximum(a, 0.0f),
                                               tx::minimum(a, 1.0f)))>() == kSimd);

  tx::Array<float, 2> c(dims, tx::testing::test_place());
  c = tx::sqrt(tx::square(a) + b) * tx::tanh(a) - tx::pow(b, 2.0f) + tx::clip(a, -1.0f, 1.0f);
  tx::testing::check_close("a composite expression", c,
                           tx::testing::reference_values(
                               dims,
                               [](double x, double y) {
                                 return std::sqrt(x * x + y) * std::tanh(x) - y * y +
                                        std::min(std::max(x, -1.0), 1.0);
                               },
                               tx::testing::on_host(a), tx::testing::on_host(b)));
}

// maximum, minimum, relu and sign propagate NaN (NumPy's maximum and sign, PyTorch's relu), on
// numbers, on SIMD batches and in both CPU loops; infinities order as usual.

BOOST_AUTO_TEST_SUITE_END()
