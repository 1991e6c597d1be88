// The ordering functions of the math library (tx::abs, relu, square, sign, maximum, minimum, clip)
// on floating-point and integer expressions of every layout, numbers and SIMD batches, against
// double-precision references; and the documented choices for NaN and infinities.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include "ops/elementwise_check.h"
#include "tensorx/tensorx.h"

namespace tx = tensorx;
using tx::testing::check_function;
using tx::testing::check_numbers;
using tx::testing::check_ternary;
using tx::testing::Values;

namespace {

using RealTypes = boost::mpl::list<float, double, tx::float16, tx::bfloat16>;
using IntegerTypes = boost::mpl::list<std::int32_t, std::int64_t>;

double reference_maximum(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? std::nan("") : std::max(a, b);
}
double reference_minimum(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? std::nan("") : std::min(a, b);
}
double reference_sign(double x) {
  return x > 0 ? 1.0 : x < 0 ? -1.0 : x;
}
double reference_clip(double x, double lo, double hi) {
  return std::min(std::max(x, lo), hi);
}

// clip on expressions, numbers and batches alike.
const auto clip = [](const auto& x, const auto& lo, const auto& hi) { return tx::clip(x, lo, hi); };

}  // namespace

BOOST_AUTO_TEST_SUITE(ops_math_ordering)
BOOST_AUTO_TEST_CASE_TEMPLATE(ordering_functions_match_the_reference, T, RealTypes) {
  auto rng = tx::testing::make_rng(104);
  const Values<T> any(-3.0, 3.0), levels(-2.0, 2.0, 0.5);
  check_function(
      "abs", [](const auto& x) { return tx::abs(x); }, [](double x) { return std::abs(x); }, any,
      rng);
  check_function(
      "relu", [](const auto& x) { return tx::relu(x); }, [](double x) { return std::max(x, 0.0); },
      levels, rng);
  check_function(
      "square", [](const auto& x) { return tx::square(x); }, [](double x) { return x * x; }, any,
      rng);
  check_function(
      "sign", [](const auto& x) { return tx::sign(x); }, reference_sign, levels, rng);
  check_function(
      "maximum", [](const auto& a, const auto& b) { return tx::maximum(a, b); }, reference_maximum,
      levels, any, rng);
  check_function(
      "minimum", [](const auto& a, const auto& b) { return tx::minimum(a, b); }, reference_minimum,
      levels, any, rng);
  check_ternary("clip", clip, reference_clip, any, Values<T>(-2.0, 0.0), Values<T>(0.0, 2.0), rng);
  check_numbers("clip", clip, reference_clip, rng, any, Values<T>(-2.0, 0.0), Values<T>(0.0, 2.0));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(integer_functions_are_exact, T, IntegerTypes) {
  auto rng = tx::testing::make_rng(105);
  const Values<T> any(-1000.0, 1000.0), small(-3.0, 3.0, 1.0);
  check_function(
      "abs", [](const auto& x) { return tx::abs(x); }, [](double x) { return std::abs(x); }, any,
      rng);
  check_function(
      "relu", [](const auto& x) { return tx::relu(x); }, [](double x) { return std::max(x, 0.0); },
      any, rng);
  check_function(
      "square", [](const auto& x) { return tx::square(x); }, [](double x) { return x * x; }, any,
      rng);
  check_function(
      "sign", [](const auto& x) { return tx::sign(x); }, reference_sign, small, rng);
  check_function(
      "maximum", [](const auto& a, const auto& b) { return tx::maximum(a, b); }, reference_maximum,
      small, any, rng);
  check_function(
      "minimum", [](const auto& a, const auto& b) { return tx::minimum(a, b); }, reference_minimum,
      small, any, rng);
  check_ternary("clip", clip, reference_clip, any, Values<T>(-500.0, 0.0), Values<T>(0.0, 500.0),
                rng);
  check_numbers("clip", clip, reference_clip, rng, any, Values<T>(-500.0, 0.0),
                Values<T>(0.0, 500.0));
}

BOOST_AUTO_TEST_CASE(nan_propagates_through_maximum_minimum_relu_and_sign) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  BOOST_TEST(std::isnan(tx::maximum(nan, 1.0f)));
  BOOST_TEST(std::isnan(tx::maximum(1.0f, nan)));
  BOOST_TEST(std::isnan(tx::minimum(double(nan), 1.0)));
  BOOST_TEST(std::isnan(tx::minimum(1.0, std::nan(""))));
  BOOST_TEST(std::isnan(tx::relu(nan)));
  BOOST_TEST(tx::relu(-inf) == 0.0f);
  BOOST_TEST(tx::relu(inf) == inf);
  BOOST_TEST(std::isnan(tx::sign(nan)));
  BOOST_TEST(tx::sign(-inf) == -1.0f);
  BOOST_TEST(tx::sign(-0.0f) == 0.0f);
  BOOST_TEST(std::isnan(tx::clip(nan, -1.0f, 1.0f)));

  // The specials cycle through both a small matrix (scalar loop) and a large one (threads and
  // SIMD), as the first and as the second operand.
  const float specials[] = {nan, inf, -inf, 2.0f, -2.0f, 0.0f, -0.0f, 0.5f, nan};
  for (const auto dims : {tx::make_dim(7, 9), tx::make_dim(400, 401)}) {
    tx::Array<float, 2> host(dims);
    for (tx::index_t i = 0; i < host.numel(); ++i) host.data()[i] = specials[i % 9];
    const auto x = tx::testing::on_test_place(host);
    const auto check = [&](const std::string& what, const auto& expression, auto reference) {
      const tx::Array<float, 2> result = expression;
      tx::testing::check_close(what, result, tx::testing::reference_values(dims, reference, host));
    };
    check("maximum(x, 1)", tx::maximum(x, 1.0f), [](double v) { return reference_maximum(v, 1); });
    check("maximum(1, x)", tx::maximum(1.0f, x), [](double v) { return reference_maximum(1, v); });
    check("minimum(x, 1)", tx::minimum(x, 1.0f), [](double v) { return reference_minimum(v, 1); });
    check("minimum(1, x)", tx::minimum(1.0f, x), [](double v) { return reference_minimum(1, v); });
    check("relu(x)", tx::relu(x), [](double v) { return reference_maximum(v, 0); });
    check("sign(x)", tx::sign(x), reference_sign);
  }
}

BOOST_AUTO_TEST_SUITE_END()
