// User code in expressions: functors through tx::F (MXNet's smooth L1 loss and its gradient, the
// logistic function, the exact GELU, a scalar-only functor), lambdas through tx::map, conversions
// through tx::cast, and the pass count of one fused assignment.
#include <cmath>
#include <cstdint>
#include <type_traits>

#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include "ops/elementwise_check.h"
#include "tensorx/tensorx.h"

namespace tx = tensorx;
using tx::testing::check_binary;
using tx::testing::check_numbers;
using tx::testing::check_unary;
using tx::testing::Values;

namespace {

// MXNet's smooth L1 loss (the SimpleOp example), written once with tx::where and tx::abs so that
// it runs in the scalar loop, in SIMD batches and on the GPU:
//   f(x) = 0.5 (sigma x)^2 where |x| < 1 / sigma^2, else |x| - 0.5 / sigma^2.
struct smooth_l1 {
  template <class T>
  TENSORX_HOST_DEVICE T operator()(const T& x, const T& sigma) const {
    const T sigma2 = sigma * sigma;
    const T magnitude = tx::abs(x);
    return tx::where(magnitude < T(1) / sigma2, T(0.5) * sigma2 * x * x,
                     magnitude - T(0.5) / sigma2);
  }
};

// f'(x) = sigma^2 x where |x| < 1 / sigma^2, else sign(x).
struct smooth_l1_grad {
  template <class T>
  TENSORX_HOST_DEVICE T operator()(const T& x, const T& sigma) const {
    const T sigma2 = sigma * sigma;
    return tx::where(tx::abs(x) < T(1) / sigma2, sigma2 * x, tx::sign(x));
  }
};

// The logistic function as a user would write it.
struct logistic {
  template <class T>
  TENSORX_HOST_DEVICE T operator()(const T& x) const {
    return T(1) / (T(1) + tx::exp(-x));
  }
};

// The exact GELU, x Phi(x) = 0.5 x (1 + erf(x / sqrt 2)) (PyTorch's gelu(approximate="none")), as
// a user would write it with tx::erf.
struct gelu_erf {
  template <class T>
  TENSORX_HOST_DEVICE T operator()(const T& x) const {
    return T(0.5) * x * (T(1) + tx::erf(x * T(0.70710678118654752)));
  }
};

// Branches on its arguments, so it only compiles for numbers and says so. Its deduced return type
// means that even asking whether it accepts batches would compile the body for them.
struct leaky_relu_branching {
  using scalar_only = void;
  template <class T>
  TENSORX_HOST_DEVICE auto operator()(const T& x, const T& slope) const {
    if (x > T(0)) return x;
    return slope * x;
  }
};

double reference_smooth_l1(double x, double sigma) {
  const double sigma2 = sigma * sigma;
  return std::abs(x) < 1 / sigma2 ? 0.5 * sigma2 * x * x : std::abs(x) - 0.5 / sigma2;
}
double reference_smooth_l1_grad(double x, double sigma) {
  const double sigma2 = sigma * sigma;
  return std::abs(x) < 1 / sigma2 ? sigma2 * x : (x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0);
}

using RealTypes = boost::mpl::list<float, double, tx::float16, tx::bfloat16>;

}  // namespace

BOOST_AUTO_TEST_SUITE(ops_functor)

BOOST_AUTO_TEST_CASE_TEMPLATE(smooth_l1_and_its_gradient_match_mxnet, T, RealTypes) {
  auto rng = tx::testing::make_rng(301);
  const Values<T> x(-3.0, 3.0), sigma(0.6, 3.0);
  const auto loss = [](const auto& a, const auto& s) { return tx::F<smooth_l1>(a, s); };
  const auto grad = [](const auto& a, const auto& s) { return tx::F<smooth_l1_grad>(a, s); };
  check_binary("F<smooth_l1>", loss, reference_smooth_l1, x, sigma, rng);
  check_binary("F<smooth_l1_grad>", grad, reference_smooth_l1_grad, x, sigma, rng);
  // The same functors, called directly on numbers and on SIMD batches.
  check_numbers("smooth_l1", smooth_l1{}, reference_smooth_l1, rng, x, sigma);
  check_numbers("smooth_l1_grad", smooth_l1_grad{}, reference_smooth_l1_grad, rng, x, sigma);
}

BOOST_AUTO_TEST_CASE(the_backward_pass_of_smooth_l1_is_one_pass) {
  // MXNet: in_grad = out_grad * F<smooth_l1_gradient>(in_data, sigma), with sigma a number.
  auto rng = tx::testing::make_rng(302);
  const auto dims = tx::make_dim(512, 300);
  const auto data = Values<float>(-2.0, 2.0).array(dims, rng);
  const auto out_grad = Values<float>(-1.0, 1.0).array(dims, rng);
  tx::Array<float, 2> in_grad(dims, tx::testing::test_place());
  const auto before = tx::stats::passes();
  in_grad = out_grad * tx::F<smooth_l1_grad>(data, 1.5f);
  BOOST_TEST(tx::stats::passes() == before + 1);
  tx::testing::check_close(
      "out_grad * smooth_l1_grad(data, 1.5)", in_grad,
      tx::testing::reference_values(
          dims, [](double g, double x) { return g * reference_smooth_l1_grad(x, 1.5); },
          tx::testing::on_host(out_grad), tx::testing::on_host(data)));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(a_logistic_functor_matches_tx_sigmoid, T, RealTypes) {
  auto rng = tx::testing::make_rng(303);
  const auto reference = [](double v) { return 1.0 / (1.0 + std::exp(-v)); };
  check_unary(
      "F<logistic>", [](const auto& a) { return tx::F<logistic>(a); }, reference,
      Values<T>(-6.0, 6.0), rng);
  check_numbers("logistic", logistic{}, reference, rng, Values<T>(-6.0, 6.0));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(an_exact_gelu_functor_written_with_erf_matches_the_definition, T,
                              RealTypes) {
  auto rng = tx::testing::make_rng(309);
  const auto reference = [](double v) { return 0.5 * v * (1.0 + std::erf(v / std::sqrt(2.0))); };
  static_assert(tx::testing::runs_in_simd<decltype(tx::F<gelu_erf>(
                    std::declval<const tx::Array<float, 2>&>()))>() == bool(TENSORX_HAS_SIMD));
  check_unary(
      "F<gelu_erf>", [](const auto& a) { return tx::F<gelu_erf>(a); }, reference,
      Values<T>(-6.0, 6.0), rng);
  check_numbers("gelu_erf", gelu_erf{}, reference, rng, Values<T>(-6.0, 6.0));
}

BOOST_AUTO_TEST_CASE(a_scalar_only_functor_runs_in_the_scalar_loop) {
  auto rng = tx::testing::make_rng(304);
  using Matrix = tx::Array<float, 2>;
  static_assert(!tx::testing::runs_in_simd<decltype(tx::F<leaky_relu_branching>(
                    std::declval<const Matrix&>(), 0.1f))>());
  for (const auto dims : {tx::make_dim(9, 31), tx::make_dim(400, 400)}) {
    const auto x = Values<float>(-2.0, 2.0).array(dims, rng);
    const Matrix y = tx::F<leaky_relu_branching>(x, 0.1f);
    tx::testing::check_close(
        "F<leaky_relu_branching>", y,
        tx::testing::reference_values(
            dims, [](double v) { return v > 0 ? v : 0.1 * v; }, tx::testing::on_host(x)));
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(a_lambda_applies_through_map, T, RealTypes) {
  auto rng = tx::testing::make_rng(305);
  const auto dims = tx::make_dim(400, 333);
  const auto a = Values<T>(-2.0, 2.0).array(dims, rng);
  using C = tx::compute_t<T>;
  tx::Array<T, 2> c;
  c = tx::map(a, [] TENSORX_HOST_DEVICE(C v) { return v > 0 ? v : C(0.1) * v; });
  tx::testing::check_close(
      "map(leaky relu lambda)", c,
      tx::testing::reference_values(
          dims, [](double v) { return v > 0 ? v : 0.1 * v; }, tx::testing::on_host(a)));
#if !defined(TENSORX_TEST_ON_GPU)
  // A generic lambda that only compiles for numbers is fine too: map never offers it a batch.
  // (nvcc rejects generic __host__ __device__ lambdas, so CUDA sources cannot write this one.)
  c = tx::map(a * 2.0f, [] TENSORX_HOST_DEVICE(auto v) { return v < 0 ? -v : v; }) + 1.0f;
  tx::testing::check_close(
      "map(generic lambda) + 1", c,
      tx::testing::reference_values(
          dims, [](double v) { return std::abs(2 * v) + 1; }, tx::testing::on_host(a)));
#endif
}

BOOST_AUTO_TEST_CASE(a_large_composite_expression_is_one_pass) {
  auto rng = tx::testing::make_rng(306);
  const auto dims = tx::make_dim(600, 500);
  const auto a = Values<float>(-2.0, 2.0).array(dims, rng);
  const auto b = Values<float>(-1.0, 1.0).array(dims, rng);
  const auto bias = Values<float>(-1.0, 1.0).array(tx::make_dim(500), rng);
  tx::Array<float, 2> c(dims, tx::testing::test_place());
  const auto before = tx::stats::passes();
  c = tx::where(a > 0.0f, tx::sigmoid(a) * tx::exp(b), tx::maximum(a, b) - 0.5f * bias) +
      tx::F<smooth_l1>(a - b, 1.5f) + tx::map(b, [] TENSORX_HOST_DEVICE(float v) { return v * v; });
  BOOST_TEST(tx::stats::passes() == before + 1);
  tx::testing::check_close(
      "the composite expression", c,
      tx::testing::reference_values(
          dims,
          [](double x, double y, double z) {
            return (x > 0 ? std::exp(y) / (1 + std::exp(-x)) : std::max(x, y) - 0.5 * z) +
                   reference_smooth_l1(x - y, 1.5) + y * y;
          },
          tx::testing::on_host(a), tx::testing::on_host(b), tx::testing::on_host(bias)));
}

// cast<U> between every pair of float, double, float16, bfloat16 and int32: the value converted as
// static_cast would, through float for the two-byte types.
template <class From, class To>
void check_cast(std::mt19937_64& rng) {
  const Values<From> values(-300.0, 300.0);
  const auto expected = [](double v) {
    using C = tx::compute_t<To>;
    return static_cast<double>(
        static_cast<To>(static_cast<C>(static_cast<tx::compute_t<From>>(v))));
  };
  for (const auto dims : {tx::make_dim(7, 13), tx::make_dim(0, 4), tx::make_dim(380, 350)}) {
    const auto a = values.array(dims, rng);
    const tx::Array<To, 2> converted = tx::cast<To>(a);
    tx::testing::check_close(
        "cast", converted, tx::testing::reference_values(dims, expected, tx::testing::on_host(a)));
    const tx::Array<To, 2> transposed = tx::cast<To>(tx::testing::transposed(a));
    tx::testing::check_close(
        "cast of a transposed view", transposed,
        tx::testing::reference_values(tx::make_dim(dims[1], dims[0]), expected,
                                      tx::testing::on_host(tx::testing::transposed(a))));
  }
}

template <class From>
void check_casts_from(std::mt19937_64& rng) {
  check_cast<From, float>(rng);
  check_cast<From, double>(rng);
  check_cast<From, tx::float16>(rng);
  check_cast<From, tx::bfloat16>(rng);
  check_cast<From, std::int32_t>(rng);
}

BOOST_AUTO_TEST_CASE(cast_converts_between_element_types) {
  auto rng = tx::testing::make_rng(307);
  check_casts_from<float>(rng);
  check_casts_from<double>(rng);
  check_casts_from<tx::float16>(rng);
  check_casts_from<tx::bfloat16>(rng);
  check_casts_from<std::int32_t>(rng);
}

BOOST_AUTO_TEST_CASE(cast_joins_expressions_of_different_element_types) {
  auto rng = tx::testing::make_rng(308);
  const auto dims = tx::make_dim(33, 65);
  const auto d = Values<double>(-4.0, 4.0).array(dims, rng);
  const auto h = Values<tx::float16>(-4.0, 4.0).array(dims, rng);
  const auto before = tx::stats::passes();
  const tx::Array<float, 2> sum = tx::cast<float>(d * 2.0) + tx::cast<float>(h);
  BOOST_TEST(tx::stats::passes() == before + 1);
  tx::testing::check_close("cast<float>(d * 2) + cast<float>(h)", sum,
                           tx::testing::reference_values(
                               dims, [](double x, double y) { return double(float(x * 2)) + y; },
                               tx::testing::on_host(d), tx::testing::on_host(h)));
  // A cast to the element type already there adds no node.
  static_assert(std::is_same_v<decltype(tx::cast<double>(d)), tx::Array<double, 2>>);
}

BOOST_AUTO_TEST_SUITE_END()
