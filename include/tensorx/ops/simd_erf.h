// The error function of simd_math.h on xsimd batches of float and double, built on the exponential
// kernels of simd_exp_log.h: erf(x) = 1 - e^-y with y = -log(erfc x), which keeps the result
// within 2 ulps of the exact value from 0 to where erf rounds to 1, and its edges (signed zeros,
// subnormals, the infinities, NaN) in the same vector instructions as every other lane.
#pragma once

#include <array>
#include <iterator>

#include "tensorx/core/config.h"
#include "tensorx/core/simd.h"
#include "tensorx/ops/simd_exp_log.h"

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
/// exact value in float (every float) and 1.71 in double. erf(a) = 1 - e^-y(a) for a = |x|: where
/// erf nears 1, e^-y is small and its error does not reach the result; near 0, 1 - e^-y is
/// computed as an expm1, accurate relative to y. 25 vector instructions: Eigen's erf, a rational
/// function of x, takes 15 and is 5.5 ulps off below 1, as any ratio of two polynomials of that
/// cost evaluated in float is (each carries a few roundings into the result). With y = k ln 2 + r,
/// |r| <= ln 2 / 2: erf = 1 - 2^-k (1 - m) = 2^-k m + (1 - 2^-k), m = 1 - e^-r = r - r^2 P(-r).
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> erf_kernel(const xsimd::batch<T, A>& x) {
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

}  // namespace detail
}  // namespace tensorx

#endif
