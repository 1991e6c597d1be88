// The exponential and logarithm kernels of simd_math.h on xsimd batches of float and double: exp,
// expm1, tanh, log and log1p written out here rather than taken from xsimd, so that each edge of
// C's functions (the overflow and underflow thresholds, subnormal results and arguments, signed
// zeros, infinities, NaN) comes out of the same vector instructions as every other lane, with no
// branch and no pass over the lanes: a batch without a special lane pays only a few compares and
// selects.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <type_traits>

#include "tensorx/core/config.h"
#include "tensorx/core/simd.h"

#if TENSORX_HAS_SIMD

namespace tensorx {
namespace detail {

/// The constants of the kernels for each precision.
template <class T>
struct ExpLogConstants;

template <>
struct ExpLogConstants<float> {
  using Bits = std::uint32_t;
  static constexpr int kMantissaBits = 23;
  // Rounds x / ln 2 to an integer k by adding: 1.5 * 2^23 + 127 leaves k + 127, the exponent field
  // of 2^k, in the sum's low bits, and taking it off again is exact.
  static constexpr float kShifter = 12583039.0f;
  static constexpr float kLog2E = 1.44269504088896341f;
  // ln 2 rounded, for the reductions whose k stays small enough that k times its rounding error
  // (2e-9) is lost in the result (tanh, erf).
  static constexpr float kLn2 = 0.693147180559945309f;
  // ln 2 as a 12-bit head, whose product with any k here is exact, and the rest.
  static constexpr float kLn2Hi = 0.693115234375f;
  static constexpr float kLn2Lo = 3.19461833e-05f;
  // C's expf is +inf above 88.72 and rounds to 0 below -103.97; expm1f is -1 below -17.3.
  static constexpr float kExpLow = -104.0f;
  static constexpr float kExpHigh = 89.0f;
  static constexpr float kExpm1Low = -40.0f;
  // Below this magnitude expm1(x) and log1p(x) round to x.
  static constexpr float kTiny = 0x1p-25f;
  // Subnormal arguments of log are scaled into the normal range by 2^kSubnormalShift.
  static constexpr int kSubnormalShift = 25;
  // The bits of sqrt(1/2) and of 1: adding their difference to x's bits carries into the exponent
  // exactly when x's significand is at least sqrt(2).
  static constexpr Bits kSqrtHalfBits = 0x3f3504f3;
  static constexpr Bits kOneBits = 0x3f800000;
  // e^r = 1 + r + r^2 P(r) on [-ln 2 / 2, ln 2 / 2], P of degree 4 (the fit of composite_math.h's
  // logistic; relative error of e^r 3.3e-9), lowest power first.
  static constexpr float kExpPolynomial[] = {4.99999940e-1f, 1.66665152e-1f, 4.16684560e-2f,
                                             8.36941879e-3f, 1.38131448e-3f};
  // log(1 + f) = 2 atanh(s) = 2s (1 + z/3 + z^2/5 + ...), s = f / (2 + f), z = s^2 <= 0.0295: the
  // series after 1, to the term whose successor is below 3e-9 (a twentieth of an ulp).
  static constexpr float kAtanhSeries[] = {1.0f / 3, 1.0f / 5, 1.0f / 7, 1.0f / 9};
};

template <>
struct ExpLogConstants<double> {
  using Bits = std::uint64_t;
  static constexpr int kMantissaBits = 52;
  static constexpr double kShifter = 6755399441056767.0;  // 1.5 * 2^52 + 1023
  static constexpr double kLog2E = 1.4426950408889634;
  static constexpr double kLn2 = 0.693147180559945309;
  static constexpr double kLn2Hi = 0.6931471803691238;  // 32 bits
  static constexpr double kLn2Lo = 1.9082149292705877e-10;
  // C's exp is +inf above 709.78 and rounds to 0 below -745.13; expm1 is -1 below -37.4.
  static constexpr double kExpLow = -746.0;
  static constexpr double kExpHigh = 710.0;
  static constexpr double kExpm1Low = -40.0;
  static constexpr double kTiny = 0x1p-54;
  static constexpr int kSubnormalShift = 54;
  static constexpr Bits kSqrtHalfBits = 0x3fe6a09e667f3bcd;
  static constexpr Bits kOneBits = 0x3ff0000000000000;
  // P is the Taylor series of (e^r - 1 - r) / r^2 to r^11 (truncation error 4e-18 on the interval).
  static constexpr double kExpPolynomial[] = {1.0 / 2,         1.0 / 6,          1.0 / 24,
                                              1.0 / 120,       1.0 / 720,        1.0 / 5040,
                                              1.0 / 40320,     1.0 / 362880,     1.0 / 3628800.,
                                              1.0 / 39916800., 1.0 / 479001600., 1.0 / 6227020800.};
  // To z^10 / 21 (the next term is below 1e-18).
  static constexpr double kAtanhSeries[] = {1.0 / 3,  1.0 / 5,  1.0 / 7,  1.0 / 9,  1.0 / 11,
                                            1.0 / 13, 1.0 / 15, 1.0 / 17, 1.0 / 19, 1.0 / 21};
};

/// c[0] + c[1] x + c[2] x^2 + ... in Horner's scheme (c an array of T, C's or std::array).
template <class T, class A, class Coefficients>
TENSORX_FORCE_INLINE xsimd::batch<T, A> polynomial(const xsimd::batch<T, A>& x,
                                                   const Coefficients& c) {
  const std::size_t n = std::size(c);
  xsimd::batch<T, A> p(c[n - 1]);
  for (std::size_t i = n - 1; i-- > 0;) p = xsimd::fma(p, x, xsimd::batch<T, A>(c[i]));
  return p;
}

/// The coefficients of P(s x) for those of P, c[i] s^i: exact for s = -1 and powers of two.
template <class T, std::size_t N>
constexpr std::array<T, N> scaled_argument(const T (&c)[N], T s) {
  std::array<T, N> scaled{};
  T power(1);
  for (std::size_t i = 0; i < N; ++i, power *= s) scaled[i] = c[i] * power;
  return scaled;
}

/// 2^k from `biased`, a sum with ExpLogConstants<T>::kShifter that holds k + bias in its low bits
/// (the shifter's own bits shift out); k + bias in [0, 2 * bias + 1], 0 giving +0.
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> power_of_two(const xsimd::batch<T, A>& biased) {
  using U = xsimd::batch<typename ExpLogConstants<T>::Bits, A>;
  return xsimd::bitwise_cast<xsimd::batch<T, A>>(xsimd::bitwise_cast<U>(biased)
                                                 << ExpLogConstants<T>::kMantissaBits);
}

/// x = k ln 2 + r with |r| <= ln 2 / 2 (x finite and within the kernels' clamps): returns r, and
/// k + kShifter in `biased`.
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> reduce_exp_argument(const xsimd::batch<T, A>& x,
                                                            xsimd::batch<T, A>& biased) {
  using B = xsimd::batch<T, A>;
  using C = ExpLogConstants<T>;
  biased = xsimd::fma(x, B(C::kLog2E), B(C::kShifter));
  const B k = biased - B(C::kShifter);
  return xsimd::fnma(k, B(C::kLn2Lo), xsimd::fnma(k, B(C::kLn2Hi), x));
}

/// e^r - 1 for |r| <= ln 2 / 2, accurate relative to the result near r = 0.
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> expm1_reduced(const xsimd::batch<T, A>& r) {
  return xsimd::fma(r * r, polynomial(r, ExpLogConstants<T>::kExpPolynomial), r);
}

/// e^x as C's exp: +inf past the overflow threshold, subnormal results rounded once, 0 below them,
/// NaN for NaN.
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> exp_kernel(const xsimd::batch<T, A>& x) {
  using B = xsimd::batch<T, A>;
  using C = ExpLogConstants<T>;
  // The clamp keeps 2^k in reach of two normal factors; NaN passes (max and min return their
  // second operand, x's lane, when one is NaN).
  const B clamped = xsimd::min(B(C::kExpHigh), xsimd::max(B(C::kExpLow), x));
  B biased;
  const B r = reduce_exp_argument(clamped, biased);
  const B k = biased - B(C::kShifter);
  const B e_r = xsimd::fma(xsimd::fma(polynomial(r, C::kExpPolynomial), r, B(T(1))), r, B(T(1)));
  // 2^k as 2^(k/2) 2^(k - k/2), each normal: one factor would overflow at the top of the range
  // (k = 128 in float) and flush below 2^-126, where the product rounds once to the subnormal.
  const B half_biased = xsimd::fma(k, B(T(0.5)), B(C::kShifter));
  const B rest_biased = (k - (half_biased - B(C::kShifter))) + B(C::kShifter);
  return e_r * power_of_two(half_biased) * power_of_two(rest_biased);
}

/// e^x - 1 as C's expm1: x itself for zeros, subnormals and wherever the result rounds to x; -1
/// far below 0, +inf past exp's overflow threshold, NaN for NaN.
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> expm1_kernel(const xsimd::batch<T, A>& x) {
  using B = xsimd::batch<T, A>;
  using C = ExpLogConstants<T>;
  const B clamped = xsimd::min(B(C::kExpHigh), xsimd::max(B(C::kExpm1Low), x));
  B biased;
  const B t = expm1_reduced(reduce_exp_argument(clamped, biased));
  // e^x - 1 = 2^k (e^r - 1) + 2^k - 1, at half scale: 2^(k - 1) is normal up to the overflow
  // threshold, and the doubling overflows there as C's result does.
  const B scale = power_of_two(biased - B(T(1)));
  const B half = xsimd::fma(scale, t, scale - B(T(0.5)));
  return xsimd::select(xsimd::abs(x) < B(C::kTiny), x, half + half);
}

/// The coefficients of (e^2r - 1) / r - 1 = 1 + 4r P(2r), P the polynomial of expm1_reduced.
template <class T>
constexpr auto doubled_expm1_polynomial() {
  constexpr std::size_t n = std::size(ExpLogConstants<T>::kExpPolynomial);
  const std::array<T, n> p = scaled_argument(ExpLogConstants<T>::kExpPolynomial, T(2));
  std::array<T, n + 1> c{};
  c[0] = T(1);
  for (std::size_t i = 0; i < n; ++i) c[i + 1] = T(4) * p[i];
  return c;
}
template <class T>
constexpr std::array<T, std::size(ExpLogConstants<T>::kExpPolynomial) + 1> kTanhPolynomial =
    doubled_expm1_polynomial<T>();

/// tanh as C's: x itself for zeros and subnormals, +-1 at the infinities, NaN for NaN; within 3
/// ulps of the exact value in float (2.97 at worst over every float) and 2.6 in double. With
/// 2x = k ln 2 + 2r, |r| <= ln 2 / 4, tanh x = E / (E + 2) for E = e^2x - 1 = 2^k t - (1 - 2^k),
/// t = e^2r - 1 = r + r c(r) rounded once. Its 16 vector instructions (Eigen's clamped rational
/// function takes 17, and is 5 ulps off) leave out what the general kernels pay for: 2x is never
/// formed (2 log2 e and ln 2 / 2 take it in), k ln 2 is one step (k is at most 58, and where it is
/// large tanh does not see E's error), and -0 needs no sign fix: subtracting 1 - 2^k = +0 from
/// t = -0 keeps its sign.
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> tanh_kernel(const xsimd::batch<T, A>& x) {
  using B = xsimd::batch<T, A>;
  using C = ExpLogConstants<T>;
  // tanh rounds to +-1 beyond 9.02 (float) and 19.1 (double); at 20, 2^k is normal. NaN passes.
  constexpr T kLimit = 20;
  const B clamped = xsimd::min(B(kLimit), xsimd::max(B(-kLimit), x));
  const B biased = xsimd::fma(clamped, B(2 * C::kLog2E), B(C::kShifter));
  const B k = biased - B(C::kShifter);
  const B r = xsimd::fnma(k, B(C::kLn2 / 2), clamped);
  const B t = xsimd::fma(r, polynomial(r, kTanhPolynomial<T>), r);
  const B scale = power_of_two(biased);
  const B e_2x_minus_1 = xsimd::fms(scale, t, B(T(1)) - scale);
  return e_2x_minus_1 / (e_2x_minus_1 + B(T(2)));
}

/// x = 2^exponent (1 + fraction) with 1 + fraction in [sqrt(1/2), sqrt(2)), for positive normal x;
/// `exponent_bias` is 2^kMantissaBits plus the exponent field's bias (plus a scaling's shift).
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> split_exponent(const xsimd::batch<T, A>& x,
                                                       const xsimd::batch<T, A>& exponent_bias,
                                                       xsimd::batch<T, A>& exponent) {
  using B = xsimd::batch<T, A>;
  using C = ExpLogConstants<T>;
  using Bits = typename C::Bits;
  using U = xsimd::batch<Bits, A>;
  constexpr Bits kMantissaMask = (Bits(1) << C::kMantissaBits) - 1;
  // The bits of 2^kMantissaBits: exponent field bias + kMantissaBits.
  constexpr Bits kTwoToMantissaBits = ((C::kOneBits >> C::kMantissaBits) + C::kMantissaBits)
                                      << C::kMantissaBits;
  const U bits = xsimd::bitwise_cast<U>(x) + U(C::kOneBits - C::kSqrtHalfBits);
  // The exponent field as a number: its bits under the significand of 2^kMantissaBits.
  exponent =
      xsimd::bitwise_cast<B>((bits >> C::kMantissaBits) | U(kTwoToMantissaBits)) - exponent_bias;
  return xsimd::bitwise_cast<B>((bits & U(kMantissaMask)) + U(C::kSqrtHalfBits)) - B(T(1));
}

/// exponent ln 2 + log(1 + fraction), for fraction in about [sqrt(1/2) - 1, sqrt(2) - 1].
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> log_of_split(const xsimd::batch<T, A>& exponent,
                                                     const xsimd::batch<T, A>& fraction) {
  using B = xsimd::batch<T, A>;
  using C = ExpLogConstants<T>;
  const B s = fraction / (B(T(2)) + fraction);
  const B z = s * s;
  const B two_s = s + s;
  const B tail = xsimd::fma(two_s * z, polynomial(z, C::kAtanhSeries), exponent * B(C::kLn2Lo));
  return xsimd::fma(exponent, B(C::kLn2Hi), two_s + tail);
}

/// The exponent bias of split_exponent: 2^kMantissaBits plus the exponent field's bias.
template <class T>
constexpr T kSplitBias = std::is_same_v<T, float> ? T(8388608 + 127) : T(4503599627370496.0 + 1023);

/// log(x) as C's: -inf at zeros, NaN below them and for NaN, +inf at +inf, subnormals exact.
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> log_kernel(const xsimd::batch<T, A>& x) {
  using B = xsimd::batch<T, A>;
  using C = ExpLogConstants<T>;
  constexpr T kInfinity = std::numeric_limits<T>::infinity();
  const auto subnormal = x < B(std::numeric_limits<T>::min());
  const B scaled = xsimd::select(subnormal, x * B(T(typename C::Bits(1) << C::kSubnormalShift)), x);
  B exponent;
  const B fraction = split_exponent(
      scaled, xsimd::select(subnormal, B(kSplitBias<T> + C::kSubnormalShift), B(kSplitBias<T>)),
      exponent);
  B r = log_of_split(exponent, fraction);
  r = xsimd::select(x == B(kInfinity), x, r);
  r = xsimd::select(x == B(T(0)), B(-kInfinity), r);
  return xsimd::select(x >= B(T(0)), r, B(std::numeric_limits<T>::quiet_NaN()));
}

/// log(1 + x) as C's log1p: x itself for zeros, subnormals and wherever the result rounds to x,
/// -inf at -1, NaN below it and for NaN, +inf at +inf. 1 + x is rounded; the rounding error c,
/// exact, goes into the fraction as c 2^-exponent, which is log(1 + x)'s first-order correction.
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> log1p_kernel(const xsimd::batch<T, A>& x) {
  using B = xsimd::batch<T, A>;
  using C = ExpLogConstants<T>;
  constexpr T kInfinity = std::numeric_limits<T>::infinity();
  const B one(T(1));
  const B u = one + x;
  const B c = x - (u - one);
  B exponent;
  B fraction = split_exponent(u, B(kSplitBias<T>), exponent);
  // 2^-exponent, the exponent capped where 2^-exponent would be subnormal (u near the largest
  // finite number, where c does not matter).
  const B cap(T(C::kOneBits >> C::kMantissaBits) - T(1));
  fraction = xsimd::fma(c, power_of_two(B(C::kShifter) - xsimd::min(exponent, cap)), fraction);
  B r = log_of_split(exponent, fraction);
  r = xsimd::select(u == B(kInfinity), u, r);
  r = xsimd::select(u == B(T(0)), B(-kInfinity), r);
  r = xsimd::select(u >= B(T(0)), r, B(std::numeric_limits<T>::quiet_NaN()));
  return xsimd::select(xsimd::abs(x) < B(C::kTiny), x, r);
}

}  // namespace detail
}  // namespace tensorx

#endif
