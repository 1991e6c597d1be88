// The CPU and the GPU agree on every element-wise functor of the ops library: arithmetic,
// comparisons, math functions, composite functions, user functors (tx::F), lambdas (tx::map) and
// conversions (tx::cast), in float, double and float16, on dense, transposed, misaligned and
// padded operands, with broadcasting, numbers and the special values (NaN, infinities, signed
// zeros, extremes). Exact operations must give the same bits; transcendental functions may
// differ by a few units in the last place, since the CPU (xsimd, libm) and the GPU (CUDA's math
// library) round differently. The reductions, layout ops and products are in the other
// cpu_gpu_agreement_*_test.cu files of this program.
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <type_traits>

#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>

#include "cuda/cpu_gpu_agreement.h"
#include "support/cuda_test.h"

namespace tx = tensorx;
using tx::index_t;
using tx::testing::agreement::check_build;
using tx::testing::agreement::FloatTypes;
using tx::testing::agreement::kBitwise;
using tx::testing::agreement::matrix_layouts;
using tx::testing::agreement::random_array;
using tx::testing::agreement::special_column;
using tx::testing::agreement::special_row;
using tx::testing::agreement::Tolerance;
using tx::testing::agreement::type_name;

namespace {

// 301 x 457 = 137,557 elements: above the CPU engine's threading threshold (2^17), a SIMD tail in
// every row, several blocks of the GPU kernels.
constexpr index_t kRows = 301;
constexpr index_t kColumns = 457;

/// Units in the last place that a transcendental function may differ by: a few float or double
/// ulps; float16 results are computed in float and rounded, so they may differ by one.
template <class T>
Tolerance transcendental(double ulps, double floor = 0.0) {
  return {std::is_same_v<T, tx::float16> ? 1.0 : ulps, floor};
}

/// A relative tolerance r as units in the last place of T.
template <class T>
Tolerance relative(double r) {
  const int digits = std::is_same_v<T, tx::float16> ? 11 : std::numeric_limits<T>::digits;
  return {r * std::ldexp(1.0, digits - 1), 0.0};
}

/// A one-operand function on every layout and on the special values (with `on_specials`, where
/// given, instead of `tolerance` for them).
template <class T, class Build>
void check_unary(const std::string& name, const Tolerance& tolerance, Build build, double low,
                 double high, std::mt19937_64& rng, double step = 0.0,
                 std::optional<Tolerance> on_specials = std::nullopt) {
  const std::string what = name + " (" + type_name<T>() + ") on ";
  const auto x = matrix_layouts<T>(kRows, kColumns, rng, low, high, step);
  check_build(what + "a dense matrix", tolerance, build, x.dense);
  check_build(what + "a transposed view", tolerance, build, x.transposed_view);
  check_build(what + "a misaligned view", tolerance, build, x.offset_view);
  check_build(what + "padded rows", tolerance, build, x.padded_rows);
  check_build(what + "special values", on_specials.value_or(tolerance), build, special_column<T>());
}

/// A two-operand function on pairs of layouts, with broadcasting, and on every pair of special
/// values (with `on_specials`, where given, instead of `tolerance` for them).
template <class T, class Build>
void check_binary(const std::string& name, const Tolerance& tolerance, Build build, double low,
                  double high, std::mt19937_64& rng, double step = 0.0,
                  std::optional<Tolerance> on_specials = std::nullopt) {
  const std::string what = name + " (" + type_name<T>() + ") on ";
  const auto x = matrix_layouts<T>(kRows, kColumns, rng, low, high, step);
  const auto y = matrix_layouts<T>(kRows, kColumns, rng, low, high, step);
  const auto row = random_array<T>(tx::make_dim(index_t{1}, kColumns), rng, low, high, step);
  const auto column = random_array<T>(tx::make_dim(kRows, index_t{1}), rng, low, high, step);
  check_build(what + "two dense matrices", tolerance, build, x.dense, y.dense);
  check_build(what + "a transposed and a misaligned view", tolerance, build, x.transposed_view,
              y.offset_view);
  check_build(what + "padded rows and a broadcast row", tolerance, build, x.padded_rows, row);
  check_build(what + "a broadcast column and row", tolerance, build, column, row);
  check_build(what + "every pair of special values", on_specials.value_or(tolerance), build,
              special_column<T>(), special_row<T>());
}

// A user functor written with tensorx's math functions (MXNet's smooth L1 loss): it runs in SIMD
// batches on the CPU and in the kernel on the GPU.
struct smooth_l1 {
  template <class T>
  TENSORX_HOST_DEVICE T operator()(const T& x, const T& sigma) const {
    const T sigma2 = sigma * sigma;
    const T magnitude = tx::abs(x);
    return tx::where(magnitude < T(1) / sigma2, T(0.5) * sigma2 * x * x,
                     magnitude - T(0.5) / sigma2);
  }
};

// A user functor that branches, so it runs in the CPU's scalar loop.
struct leaky_relu_branching {
  using scalar_only = void;
  template <class T>
  TENSORX_HOST_DEVICE T operator()(const T& x, const T& slope) const {
    if (x > T(0)) return x;
    return slope * x;
  }
};

}  // namespace

namespace cpu_gpu_agreement {

// tx::map's lambda must be an extended device lambda, which nvcc allows only in a function with
// external linkage (not in an unnamed namespace) and not inside another lambda.
template <class T>
void check_map(std::mt19937_64& rng) {
  using C = tx::compute_t<T>;
  const auto leaky_relu = [] TENSORX_HOST_DEVICE(C v) { return v > C(0) ? v : C(0.125) * v; };
  check_unary<T>(
      "map(leaky relu)", kBitwise, [leaky_relu](const auto& a) { return tx::map(a, leaky_relu); },
      -4.0, 4.0, rng);
}

}  // namespace cpu_gpu_agreement

BOOST_AUTO_TEST_SUITE(cpu_gpu_agreement_elementwise, *tx::testing::needs_cuda())

BOOST_AUTO_TEST_CASE_TEMPLATE(arithmetic_gives_the_same_bits, T, FloatTypes) {
  auto rng = tx::testing::make_rng(1101);
  check_binary<T>(
      "a + b", kBitwise, [](const auto& a, const auto& b) { return a + b; }, -4, 4, rng);
  check_binary<T>(
      "a - b", kBitwise, [](const auto& a, const auto& b) { return a - b; }, -4, 4, rng);
  check_binary<T>(
      "a * b", kBitwise, [](const auto& a, const auto& b) { return a * b; }, -4, 4, rng);
  check_binary<T>(
      "a / b", kBitwise, [](const auto& a, const auto& b) { return a / b; }, -4, 4, rng);
  check_unary<T>(
      "-a", kBitwise, [](const auto& a) { return -a; }, -4, 4, rng);
  check_unary<T>(
      "a * 0.75 and 3 - a", kBitwise, [](const auto& a) { return tx::maximum(a * 0.75, 3.0 - a); },
      -4, 4, rng);
  check_unary<T>(
      "1 / a", kBitwise, [](const auto& a) { return 1.0 / a; }, -4, 4, rng);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(compound_assignments_give_the_same_bits, T, FloatTypes) {
  auto rng = tx::testing::make_rng(1102);
  const auto dims = tx::make_dim(kRows, kColumns);
  const auto a = random_array<T>(dims, rng, -4, 4), b = random_array<T>(dims, rng, -4, 4);
  const auto a_gpu = tx::to(a, tx::testing::agreement::gpu());
  const auto b_gpu = tx::to(b, tx::testing::agreement::gpu());
  tx::Array<T, 2> c = tx::to(a, tx::CpuPlace()), c_gpu = tx::to(a, tx::testing::agreement::gpu());
  c += b;
  c_gpu += b_gpu;
  c *= a;
  c_gpu *= a_gpu;
  c -= b * 2.0;
  c_gpu -= b_gpu * 2.0;
  c /= 1.5;
  c_gpu /= 1.5;
  tx::assign(c, a, tx::OpReq::kAddTo);
  tx::assign(c_gpu, a_gpu, tx::OpReq::kAddTo);
  tx::testing::agreement::check_against_cpu("+=, *=, -=, /= and kAddTo (" + type_name<T>() + ")", c,
                                            c_gpu, kBitwise);
}

// A GPU divides a zero through a stand-in dividend, and by a number through its reciprocal
// (core/division.h): every zero over every kind of divisor, subnormal ones of the element type
// among them (the stand-in's quotient must not overflow); every special value and random ones
// over numbers inside and outside the reciprocal's range; and a dropout's x * mask / (1 - p), a
// tenth of its dividends zero, in place too.
BOOST_AUTO_TEST_CASE_TEMPLATE(zero_dividends_and_number_divisors_give_the_same_bits, T,
                              FloatTypes) {
  using C = tx::compute_t<T>;
  const double inf = std::numeric_limits<double>::infinity();
  const double tiny = static_cast<double>(std::numeric_limits<T>::denorm_min());
  const double smallest_normal = static_cast<double>(std::numeric_limits<T>::min());
  const double largest = static_cast<double>(std::numeric_limits<T>::max());
  const std::vector<double> dividends = {0.0, -0.0, 1.0, -3.0, tiny, -tiny, largest};
  const std::vector<double> divisors = {
      0.0,     -0.0,     inf, -inf, std::nan(""), tiny, -tiny, 3 * tiny, smallest_normal,
      largest, -largest, 0.9, -1.0, 1e-30,        1e30};
  tx::Array<T, 2> a(tx::make_dim(static_cast<index_t>(dividends.size()), index_t{1}));
  tx::Array<T, 2> b(tx::make_dim(index_t{1}, static_cast<index_t>(divisors.size())));
  for (std::size_t i = 0; i < dividends.size(); ++i) a.data()[i] = static_cast<T>(dividends[i]);
  for (std::size_t j = 0; j < divisors.size(); ++j) b.data()[j] = static_cast<T>(divisors[j]);
  const auto a_gpu = tx::to(a, tx::testing::agreement::gpu());
  const auto b_gpu = tx::to(b, tx::testing::agreement::gpu());
  tx::Array<T, 2> q = a / b, q_gpu = a_gpu / b_gpu;
  tx::testing::agreement::check_against_cpu(
      "zeros and extremes over every divisor (" + type_name<T>() + ")", q, q_gpu, kBitwise);
  const tx::Array<T, 2> q_back = tx::to(q_gpu, tx::CpuPlace());
  BOOST_TEST(tx::testing::agreement::holds_nan(static_cast<C>(q_back(0, 0))));  // 0 / 0
  BOOST_TEST(std::signbit(static_cast<C>(q_back(1, 2))));                       // -0 / inf
  BOOST_TEST(static_cast<C>(q_back(0, 5)) == C(0));                             // 0 / tiny

  auto rng = tx::testing::make_rng(1105);
  const auto dims = tx::make_dim(kRows, kColumns);
  const auto x = random_array<T>(dims, rng, -4, 4), u = random_array<T>(dims, rng, 0, 1);
  const auto x_gpu = tx::to(x, tx::testing::agreement::gpu());
  const auto u_gpu = tx::to(u, tx::testing::agreement::gpu());
  const auto specials = special_column<T>();
  const auto specials_gpu = tx::to(specials, tx::testing::agreement::gpu());
  for (const double number : {0.9, -3.0, 0x1p60, -0x1p-60, 0x1p61, 0x1p-61, 1e-30, 1e30, 0.0, -0.0,
                              inf, std::nan(""), tiny, 7e-39}) {
    BOOST_TEST_CONTEXT("divided by " << number) {
      tx::Array<T, 2> r = specials / number, r_gpu = specials_gpu / number;
      tx::testing::agreement::check_against_cpu(
          "special values / a number (" + type_name<T>() + ")", r, r_gpu, kBitwise);
      tx::Array<T, 2> s = x / number, s_gpu = x_gpu / number;
      tx::testing::agreement::check_against_cpu("x / a number (" + type_name<T>() + ")", s, s_gpu,
                                                kBitwise);
    }
  }
  tx::Array<T, 2> dropped = x * (u > 0.1) / 0.9, dropped_gpu = x_gpu * (u_gpu > 0.1) / 0.9;
  tx::testing::agreement::check_against_cpu("x * (u > 0.1) / 0.9 (" + type_name<T>() + ")", dropped,
                                            dropped_gpu, kBitwise);
  tx::Array<T, 2> c = x * (u > 0.1), c_gpu = x_gpu * (u_gpu > 0.1);
  c /= 0.9;
  c_gpu /= 0.9;
  tx::testing::agreement::check_against_cpu("/= 0.9 of zeros (" + type_name<T>() + ")", c, c_gpu,
                                            kBitwise);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(comparisons_give_the_same_bits, T, FloatTypes) {
  auto rng = tx::testing::make_rng(1103);
  // Values on a grid of 0.25, so that many pairs are equal.
  check_binary<T>(
      "a == b", kBitwise, [](const auto& a, const auto& b) { return a == b; }, -2, 2, rng, 0.25);
  check_binary<T>(
      "a != b", kBitwise, [](const auto& a, const auto& b) { return a != b; }, -2, 2, rng, 0.25);
  check_binary<T>(
      "a < b", kBitwise, [](const auto& a, const auto& b) { return a < b; }, -2, 2, rng, 0.25);
  check_binary<T>(
      "a <= b", kBitwise, [](const auto& a, const auto& b) { return a <= b; }, -2, 2, rng, 0.25);
  check_binary<T>(
      "a > b", kBitwise, [](const auto& a, const auto& b) { return a > b; }, -2, 2, rng, 0.25);
  check_binary<T>(
      "a >= b", kBitwise, [](const auto& a, const auto& b) { return a >= b; }, -2, 2, rng, 0.25);
  check_unary<T>(
      "a > 0.5", kBitwise, [](const auto& a) { return a > 0.5; }, -2, 2, rng, 0.25);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(exact_math_gives_the_same_bits, T, FloatTypes) {
  auto rng = tx::testing::make_rng(1104);
  // sqrt and division are correctly rounded on both sides, so rsqrt = 1 / sqrt(x) is too.
  check_unary<T>(
      "sqrt", kBitwise, [](const auto& a) { return tx::sqrt(a); }, 0, 16, rng);
  check_unary<T>(
      "rsqrt", kBitwise, [](const auto& a) { return tx::rsqrt(a); }, 0, 16, rng);
  check_unary<T>(
      "abs", kBitwise, [](const auto& a) { return tx::abs(a); }, -4, 4, rng);
  check_unary<T>(
      "relu", kBitwise, [](const auto& a) { return tx::relu(a); }, -4, 4, rng);
  check_unary<T>(
      "square", kBitwise, [](const auto& a) { return tx::square(a); }, -4, 4, rng);
  check_unary<T>(
      "sign", kBitwise, [](const auto& a) { return tx::sign(a); }, -2, 2, rng, 0.5);
  // Halfway cases on a grid of 0.5: floor, ceil and round (away from zero) must agree on them.
  check_unary<T>(
      "floor", kBitwise, [](const auto& a) { return tx::floor(a); }, -8, 8, rng, 0.5);
  check_unary<T>(
      "ceil", kBitwise, [](const auto& a) { return tx::ceil(a); }, -8, 8, rng, 0.5);
  check_unary<T>(
      "round", kBitwise, [](const auto& a) { return tx::round(a); }, -8, 8, rng, 0.5);
  check_unary<T>(
      "round between halves", kBitwise, [](const auto& a) { return tx::round(a); }, -8, 8, rng);
  check_binary<T>(
      "maximum", kBitwise, [](const auto& a, const auto& b) { return tx::maximum(a, b); }, -2, 2,
      rng, 0.25);
  check_binary<T>(
      "minimum", kBitwise, [](const auto& a, const auto& b) { return tx::minimum(a, b); }, -2, 2,
      rng, 0.25);
  check_unary<T>(
      "maximum with a number", kBitwise, [](const auto& a) { return tx::maximum(a, 0.25); }, -2, 2,
      rng, 0.25);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(clip_and_where_give_the_same_bits, T, FloatTypes) {
  auto rng = tx::testing::make_rng(1105);
  const std::string type = " (" + type_name<T>() + ")";
  const auto dims = tx::make_dim(kRows, kColumns);
  const auto x = tx::testing::agreement::matrix_layouts<T>(kRows, kColumns, rng, -4, 4);
  // Bounds that cross (lo > hi) in about one case in eight: hi wins, as in NumPy.
  const auto lo = random_array<T>(dims, rng, -3, 1), hi = random_array<T>(dims, rng, -1, 3);
  const auto clip = [](const auto& v, const auto& l, const auto& h) { return tx::clip(v, l, h); };
  check_build("clip" + type + " on a dense matrix", kBitwise, clip, x.dense, lo, hi);
  check_build("clip" + type + " on a transposed view", kBitwise, clip, x.transposed_view, lo, hi);
  check_build("clip" + type + " on special values", kBitwise, clip, special_column<T>(),
              special_row<T>(), random_array<T>(tx::make_dim(index_t{1}, index_t{1}), rng, 2, 3));
  check_build(
      "clip" + type + " between numbers", kBitwise,
      [](const auto& v) { return tx::clip(v, -1.0, 2.0); }, x.padded_rows);

  // Conditions of -1, 0 and 1 (any nonzero selects a), and NaN, which counts as nonzero.
  const auto condition = random_array<T>(dims, rng, -1, 1, 1.0);
  const auto where = [](const auto& c, const auto& a, const auto& b) { return tx::where(c, a, b); };
  check_build("where" + type + " on dense matrices", kBitwise, where, condition, x.dense,
              x.offset_view);
  check_build("where" + type + " on a transposed view", kBitwise, where, condition,
              x.transposed_view, x.padded_rows);
  check_build("where" + type + " with special conditions", kBitwise, where, special_column<T>(),
              special_row<T>(), random_array<T>(tx::make_dim(index_t{1}, index_t{1}), rng, 2, 3));
  check_build(
      "where" + type + " of a comparison", kBitwise,
      [](const auto& a) { return tx::where(a > 0.0, a, 0.1 * a); }, x.dense);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(transcendental_functions_agree_within_a_few_ulps, T, FloatTypes) {
  auto rng = tx::testing::make_rng(1106);
  // CUDA's functions are within 1 or 2 ulps of the exact result (pow 2 to 4), the CPU's (xsimd,
  // libm) within 1 or 2.
  check_unary<T>(
      "exp", transcendental<T>(6), [](const auto& a) { return tx::exp(a); }, -30, 30, rng);
  check_unary<T>(
      "log", transcendental<T>(6), [](const auto& a) { return tx::log(a); }, 0, 100, rng);
  check_unary<T>(
      "log1p", transcendental<T>(6), [](const auto& a) { return tx::log1p(a); }, -1, 4, rng);
  check_unary<T>(
      "expm1", transcendental<T>(6), [](const auto& a) { return tx::expm1(a); }, -4, 4, rng);
  check_unary<T>(
      "tanh", transcendental<T>(6), [](const auto& a) { return tx::tanh(a); }, -10, 10, rng);
  check_unary<T>(
      "erf", transcendental<T>(6), [](const auto& a) { return tx::erf(a); }, -6, 6, rng);
  // pow(x, y) is exp(y log x) on the CPU, whose error grows with |y log x| (up to 6 here: 9 ulps
  // from libm measured), so bases stay in [0.25, 8.25]. On special values only NaNs, zeros and
  // infinities must agree (C's pow(x, 0) = 1, pow(0, -1) = inf, ...): within 1e-3.
  check_binary<T>(
      "pow", transcendental<T>(20),
      [](const auto& a, const auto& b) { return tx::pow(tx::abs(a) + 0.25, b); }, -4, 4, rng, 0.0,
      relative<T>(1e-3));
  check_unary<T>(
      "pow with a number", transcendental<T>(20), [](const auto& a) { return tx::pow(a, 2.5); },
      0.25, 8.25, rng, 0.0, relative<T>(1e-3));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(composite_functions_agree_within_a_few_ulps, T, FloatTypes) {
  auto rng = tx::testing::make_rng(1107);
  check_unary<T>(
      "sigmoid", transcendental<T>(8), [](const auto& a) { return tx::sigmoid(a); }, -20, 20, rng);
  // gelu(x) for x << 0 is 0.5 x (1 + tanh(...)), a cancellation: its error is that of tanh near
  // -1 times |x|, so the ulps are counted at 0.5 and above.
  check_unary<T>(
      "gelu", transcendental<T>(8, 0.5), [](const auto& a) { return tx::gelu(a); }, -6, 6, rng);
  check_unary<T>(
      "sigmoid(a) * tanh(a) + exp(-a * a)", transcendental<T>(8, 1.0),
      [](const auto& a) { return tx::sigmoid(a) * tx::tanh(a) + tx::exp(-a * a); }, -4, 4, rng);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(user_functors_lambdas_and_casts_agree, T, FloatTypes) {
  auto rng = tx::testing::make_rng(1108);
  check_unary<T>(
      "F<smooth_l1>", kBitwise, [](const auto& a) { return tx::F<smooth_l1>(a, 1.5); }, -2, 2, rng);
  check_unary<T>(
      "F<leaky_relu_branching>", kBitwise,
      [](const auto& a) { return tx::F<leaky_relu_branching>(a, 0.125); }, -2, 2, rng);
  cpu_gpu_agreement::check_map<T>(rng);
  check_unary<T>(
      "cast to float16", kBitwise, [](const auto& a) { return tx::cast<tx::float16>(a); }, -70000,
      70000, rng);
  check_unary<T>(
      "cast to double", kBitwise, [](const auto& a) { return tx::cast<double>(a); }, -4, 4, rng);
  check_unary<T>(
      "cast to float", kBitwise, [](const auto& a) { return tx::cast<float>(a); }, -4, 4, rng);
  // Truncation toward zero, inside int32's range (special values are not: out of range is
  // undefined).
  const auto x = tx::testing::agreement::matrix_layouts<T>(kRows, kColumns, rng, -1000, 1000);
  const auto to_int = [](const auto& a) { return tx::cast<std::int32_t>(a); };
  check_build("cast to int32 (" + type_name<T>() + ")", kBitwise, to_int, x.dense);
  check_build("cast to int32 (" + type_name<T>() + ") of a transposed view", kBitwise, to_int,
              x.transposed_view);
  const auto integers = random_array<std::int32_t>(tx::make_dim(kRows, kColumns), rng, -3000, 3000);
  check_build(
      "cast from int32 to " + type_name<T>(), kBitwise,
      [](const auto& a) { return tx::cast<T>(a); }, integers);
}

BOOST_AUTO_TEST_SUITE_END()
