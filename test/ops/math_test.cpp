// The math library (tx::exp, tx::log, ..., tx::clip) on arrays and expressions of every layout, on
// single numbers and on SIMD batches, against double-precision references; and the documented
// choices for NaN and infinities.
#include <cmath>
#include <cstdint>
#include <limits>

#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include "ops/elementwise_check.h"
#include "tensorx/tensorx.h"

namespace tx = tensorx;
using tx::testing::check_binary;
using tx::testing::check_numbers;
using tx::testing::check_ternary;
using tx::testing::check_unary;
using tx::testing::Values;

namespace {

using RealTypes = boost::mpl::list<float, double, tx::float16>;
using IntegerTypes = boost::mpl::list<std::int32_t, std::int64_t>;

// Checks a one-operand function on expressions, numbers and batches: `apply` is a generic lambda
// calling the tx:: function, so the same call goes through all three overload families.
template <class T, class Apply, class Reference>
void check_function(const std::string& name, Apply apply, Reference reference,
                    const Values<T>& x, std::mt19937_64& rng) {
  check_unary(name, apply, reference, x, rng);
  check_numbers(name, apply, reference, rng, x);
}

template <class T, class Apply, class Reference>
void check_function(const std::string& name, Apply apply, Reference reference,
                    const Values<T>& x, const Values<T>& y, std::mt19937_64& rng) {
  check_binary(name, apply, reference, x, y, rng);
  check_numbers(name, apply, reference, rng, x, y);
}

double reference_maximum(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? std::nan("") : std::max(a, b);
}
double reference_minimum(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? std::nan("") : std::min(a, b);
}
double reference_sign(double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : x; }

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
      "tanh", [](const auto& x) { return tx::tanh(x); }, [](double x) { return std::tanh(x); },
      any, rng);
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
      Values<T>(-3.0, 3.0, 1.0), rng);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(rounding_functions_match_the_reference, T, RealTypes) {
  auto rng = tx::testing::make_rng(103);
  // Multiples of 0.5 put every tie in front of round, which must go away from zero.
  for (const Values<T>& x : {Values<T>(-6.0, 6.0), Values<T>(-6.0, 6.0, 0.5)}) {
    check_function(
        "floor", [](const auto& v) { return tx::floor(v); },
        [](double v) { return std::floor(v); }, x, rng);
    check_function(
        "ceil", [](const auto& v) { return tx::ceil(v); }, [](double v) { return std::ceil(v); },
        x, rng);
    check_function(
        "round", [](const auto& v) { return tx::round(v); },
        [](double v) { return std::round(v); }, x, rng);
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
      "maximum", [](const auto& a, const auto& b) { return tx::maximum(a, b); },
      reference_maximum, levels, any, rng);
  check_function(
      "minimum", [](const auto& a, const auto& b) { return tx::minimum(a, b); },
      reference_minimum, levels, any, rng);
  const auto clip = [](const auto& x, const auto& lo, const auto& hi) {
    return tx::clip(x, lo, hi);
  };
  const auto reference_clip = [](double x, double lo, double hi) {
    return std::min(std::max(x, lo), hi);
  };
  check_ternary("clip", clip, reference_clip, any, Values<T>(-2.0, 0.0), Values<T>(0.0, 2.0),
                rng);
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
      "maximum", [](const auto& a, const auto& b) { return tx::maximum(a, b); },
      reference_maximum, small, any, rng);
  check_function(
      "minimum", [](const auto& a, const auto& b) { return tx::minimum(a, b); },
      reference_minimum, small, any, rng);
  const auto clip = [](const auto& x, const auto& lo, const auto& hi) {
    return tx::clip(x, lo, hi);
  };
  const auto reference_clip = [](double x, double lo, double hi) {
    return std::min(std::max(x, lo), hi);
  };
  check_ternary("clip", clip, reference_clip, any, Values<T>(-500.0, 0.0),
                Values<T>(0.0, 500.0), rng);
  check_numbers("clip", clip, reference_clip, rng, any, Values<T>(-500.0, 0.0),
                Values<T>(0.0, 500.0));
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
  tx::testing::check_close(
      "a composite expression", c,
      tx::testing::reference_values(
          dims,
          [](double x, double y) {
            return std::sqrt(x * x + y) * std::tanh(x) - y * y + std::min(std::max(x, -1.0), 1.0);
          },
          tx::testing::on_host(a), tx::testing::on_host(b)));
}

// maximum, minimum, relu and sign propagate NaN (NumPy's maximum and sign, PyTorch's relu), on
// numbers, on SIMD batches and in both CPU loops; infinities order as usual.
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
      tx::testing::check_close(what, result,
                               tx::testing::reference_values(dims, reference, host));
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
