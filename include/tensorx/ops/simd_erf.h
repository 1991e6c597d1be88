// The error function of simd_math.h on xsimd batches of float and double, within 2 ulps of the
// exact value from 0 to where erf rounds to 1, its edges (signed zeros, subnormals, the
// infinities, NaN) in the same vector instructions as every other lane. Two kernels: on float
// batches of AVX with FMA, a polynomial per unit interval picked by lane table lookups
// (erf_by_intervals, 1.70 ulps); elsewhere, and in double, erf(x) = 1 - e^-y with y = -log(erfc x)
// on the exponential kernels of simd_exp_log.h (erf_by_exponential, 1.94 and 1.71 ulps).
#pragma once

#include <array>
#include <cstdint>
#include <iterator>
#include <type_traits>

#include "tensorx/core/config.h"
#include "tensorx/core/simd.h"
#include "tensorx/ops/simd_exp_log.h"
#include "tensorx/ops/simd_lane_table.h"

#if TENSORX_HAS_SIMD

namespace tensorx {
namespace detail {

/// The constants of erf_kernel for each precision: y(a) = -log(erfc a) = a + a N(a) / D(a) on
/// [0, kLimit], N and D fitted (minimax, lowest power first) to the relative error that y's
/// error gives erf: at a = 0, N(0) = 2 / sqrt(pi) - 1, so that y's leading term a is exact.
template <class T>
struct ErfConstants;

template <>
struct ErfConstants<float> {
  // erf rounds to 1 from 3.92 on.
  static constexpr float kLimit = 4.0f;
  // Relative error of y 2.2e-10 (before rounding the coefficients to float).
  static constexpr float kNumerator[] = {0.128379166f, 0.736837566f, 0.635528147f, 0.243330002f,
                                         0.0372353122f};
  static constexpr float kDenominator[] = {1.0f, 0.78063941f, 0.278740764f, 0.0372520015f};
};

template <>
struct ErfConstants<double> {
  // erf rounds to 1 from 5.921 on.
  static constexpr double kLimit = 5.93;
  // Relative error of y 1.7e-18.
  static constexpr double kNumerator[] = {
      0.12837916709551256,  0.8512290527416371,    1.3379374233143162,
      1.0815244024126216,   0.5314586183471388,    0.16539873149884607,
      0.031589974039919574, 0.0032480784964239945, 0.00011825144381776688};
  static constexpr double kDenominator[] = {1.0,
                                            1.6716830715562148,
                                            1.3315113923459707,
                                            0.6323701157878855,
                                            0.1886778307924325,
                                            0.03439512107518973,
                                            0.003363910457807803,
                                            0.00011827247974585305};
};

/// The coefficients of P(-r), P the polynomial of expm1_reduced: 1 - e^-r = r - r^2 P(-r).
template <class T>
constexpr std::array<T, std::size(ExpLogConstants<T>::kExpPolynomial)> kNegatedExpPolynomial =
    scaled_argument(ExpLogConstants<T>::kExpPolynomial, T(-1));

/// erf as C's: 2 / sqrt(pi) times x, rounded once, for zeros (keeping their sign) and subnormals,
/// +-1 at the infinities and wherever C's rounds to it, NaN for NaN; within 1.94 ulps of the
/// exact value in float (every float; 2.17 where FMA is emulated, as on x86-64's baseline SSE2)
/// and 1.71 in double. erf(a) = 1 - e^-y(a) for a = |x|: where
/// erf nears 1, e^-y is small and its error does not reach the result; near 0, 1 - e^-y is
/// computed as an expm1, accurate relative to y. 25 vector instructions: Eigen's erf, a rational
/// function of x, takes 15 and is 5.5 ulps off below 1, as any ratio of two polynomials of that
/// cost evaluated in float is (each carries a few roundings into the result). With y = k ln 2 + r,
/// |r| <= ln 2 / 2: erf = 1 - 2^-k (1 - m) = 2^-k m + (1 - 2^-k), m = 1 - e^-r = r - r^2 P(-r).
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> erf_by_exponential(const xsimd::batch<T, A>& x) {
  using B = xsimd::batch<T, A>;
  using C = ExpLogConstants<T>;
  using E = ErfConstants<T>;
  // Past kLimit erf rounds to 1; NaN passes (min returns its second operand, |x|, for NaN).
  const B a = xsimd::min(B(E::kLimit), xsimd::abs(x));
  const B y = xsimd::fma(a, polynomial(a, E::kNumerator) / polynomial(a, E::kDenominator), a);
  // 2^-k's biased exponent in the low bits, and -k: y is at most 38, 2^-k normal.
  const B biased = xsimd::fnma(y, B(C::kLog2E), B(C::kShifter));
  const B minus_k = biased - B(C::kShifter);
  const B r = xsimd::fma(minus_k, B(C::kLn2), y);
  const B m = xsimd::fnma(r * r, polynomial(r, kNegatedExpPolynomial<T>), r);
  const B scale = power_of_two(biased);
  const B magnitude = xsimd::fma(scale, m, B(T(1)) - scale);
  return magnitude | (x & B(T(-0.0)));
}

/// The constants of erf_by_intervals (scripts/fit-erf-float fits them and says how): on each unit
/// interval [i, i + 1) of a = |x| in [0, 4), u = a - i, erf(a) = kBase[i] + u P_i(u) with
/// kBase[i] = erf(i) rounded (0 for i = 0), P_i of degree 7 whose coefficient of u^k is
/// kPolynomial[k][i]; on [0, 1) u itself is added last: erf(a) = u + u P_0(u), so that the leading
/// term 2 / sqrt(pi) u is not a rounded coefficient times u (that alone costs an ulp).
struct ErfIntervals {
  // erf rounds to 1 from 3.9192 on. |x| is clamped to 3.92, where the polynomial of [3, 4) gives
  // exactly 1 (math_test checks it); its error, near an ulp, gives the float below 1 at 3.99.
  static constexpr float kLargest = 3.92f;
  static constexpr float kBase[] = {0.0f, 8.427007794e-01f, 9.953222871e-01f, 9.999778867e-01f};
  static constexpr float kPolynomial[][4] = {
      {1.283792108e-01f, 4.151074290e-01f, 2.066432126e-02f, 1.421432389e-04f},
      {-4.115046977e-06f, -4.150874913e-01f, -4.128116742e-02f, -4.781620519e-04f},
      {-3.760648966e-01f, 1.380681247e-01f, 4.782917723e-02f, 1.270164386e-03f},
      {-2.904587600e-04f, 7.101618499e-02f, -3.304237500e-02f, -2.924174536e-03f},
      {1.130503267e-01f, -7.489629090e-02f, 1.053964254e-02f, 4.996371455e-03f},
      {2.187546343e-03f, 1.431937236e-02f, 2.618629253e-03f, -5.382231902e-03f},
      {-3.417520225e-02f, 6.724958774e-03f, -3.692820435e-03f, 3.174564568e-03f},
      {9.618413635e-03f, -2.630818170e-03f, 1.020236989e-03f, -7.765998016e-04f},
  };
};

#if TENSORX_HAS_LANE_TABLES
/// erf as erf_by_exponential's contract says, on float batches with lane tables, within 1.70 ulps
/// of the exact value (every float): 27 vector instructions, 17 of them lookups and FMAs, where
/// the exponential form issues 18 FMAs and a division; 0.45 ns an element in cache on one Zen 3
/// core against that form's 0.69 and Eigen's 5.5-ulp rational function's 0.32 (bench/HISTORY.md).
/// Zeros, subnormals and NaN take interval 0 (truncating NaN gives INT_MIN, whose low bits are 0),
/// where erf(a) = u + u P_0(u) keeps a zero's sign (restored from x) and NaN.
template <class A>
TENSORX_FORCE_INLINE xsimd::batch<float, A> erf_by_intervals(const xsimd::batch<float, A>& x) {
  using B = xsimd::batch<float, A>;
  using I = xsimd::batch<std::int32_t, A>;
  using E = ErfIntervals;
  // NaN passes (min returns its second operand, |x|, for NaN).
  const B a = xsimd::min(B(E::kLargest), xsimd::abs(x));
  const I interval = xsimd::to_int(a);  // truncates: a >= 0
  const B u = a - xsimd::to_float(interval);
  constexpr std::size_t kDegree = std::size(E::kPolynomial) - 1;
  B p = lane_table(E::kPolynomial[kDegree], interval);
  for (std::size_t k = kDegree; k-- > 0;) {
    p = xsimd::fma(p, u, lane_table(E::kPolynomial[k], interval));
  }
  const B head = xsimd::fma(u, p, lane_table(E::kBase, interval));
  // u on [0, 1), +0 elsewhere: a bit mask rather than a select, which would issue like an FMA.
  const B first_interval_u = u & B(static_cast<__m256>(a < B(1.0f)));
  return (head + first_interval_u) | (x & B(-0.0f));
}
#endif

/// erf on any batch: by intervals where the batch has lane tables (float on AVX with FMA), else
/// by the exponential.
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> erf_kernel(const xsimd::batch<T, A>& x) {
#if TENSORX_HAS_LANE_TABLES
  if constexpr (std::is_same_v<T, float> && kHasLaneTables<A>) {
    return erf_by_intervals(x);
  } else
#endif
  {
    return erf_by_exponential(x);
  }
}

}  // namespace detail
}  // namespace tensorx

#endif
