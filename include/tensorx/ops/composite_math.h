// Math functions composed from the primitives of scalar_math.h and simd_math.h, written once for
// numbers and SIMD batches alike (and usable in device code): rsqrt, sigmoid, relu, gelu, clip,
// square, sign.
#pragma once

#include <cstdint>
#include <type_traits>

#include "tensorx/ops/scalar_math.h"
#include "tensorx/ops/simd_math.h"

namespace tensorx {
namespace detail {
template <class T>
constexpr bool is_real_or_batch_v = is_real_v<T> || is_simd_batch_v<T>;
template <class T>
constexpr bool is_number_or_batch_v = is_number_v<T> || is_simd_batch_v<T>;
}  // namespace detail

/// 1 / sqrt(x), correctly rounded division (not the approximate reciprocal-sqrt instructions).
template <class T, std::enable_if_t<detail::is_real_or_batch_v<T>, int> = 0>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T rsqrt(const T& x) {
  return T(1) / tensorx::sqrt(x);
}

#if TENSORX_HAS_SIMD
namespace detail {

/// 1 / (1 + exp(-x)) on float batches, with a relative error below 1.3 FLT_EPSILON (2.5 ulps)
/// wherever the exact value is a normal float (a sweep of [-100, 100] in steps of 1e-5 with SSE2,
/// AVX2 and AVX-512 batches). Per element it takes 1.08 times the time of Eigen's `sigmoid()`, a
/// rational approximation thousands of FLT_EPSILON off below x = -2, and under half the time of
/// Eigen's form at this accuracy (one AVX2 thread, in cache; bench/RESULTS.md). The time follows
/// the count of vector instructions, so each step below is one, and none is spent on what the
/// logistic does not need: a general exp's compare-and-selects for overflow and underflow, the
/// negation of x, adding the bias to 2^k's exponent.
/// x is clamped to [-89, 88], where exp(-x) = 2^k * e^-u (k = -x / ln 2 rounded,
/// u = x + k ln 2 in [-ln 2 / 2, ln 2 / 2]) has 2^k as a float's exponent bits: 2^-127 gives 0 (the
/// result rounds to 1 there anyway) and 2^128 infinity (the result 0 where the exact one is below
/// 3.6e-39). NaN goes through the clamp (the comparison picks its second operand, x's lane, when
/// one is NaN) and gives NaN.
template <class A>
TENSORX_FORCE_INLINE xsimd::batch<float, A> logistic(const xsimd::batch<float, A>& x) {
  using B = xsimd::batch<float, A>;
  using I = xsimd::batch<std::int32_t, A>;
  const B clamped = xsimd::min(B(88.0f), xsimd::max(B(-89.0f), x));
  // k rounded to nearest by adding 1.5 * 2^23: the sum's low significand bits are the integer
  // k + 127, which is 2^k's biased exponent, in [0, 255]. Taking the shifter off again is exact.
  const B shifter(12583039.0f);  // 1.5 * 2^23 + 127
  const B biased = xsimd::fnma(clamped, B(1.44269504088896341f), shifter);
  const B k = biased - shifter;
  // u = x + k ln 2 in two steps: ln 2's leading 12 bits (k * 0.693115234375 is exact) and the
  // rest.
  B u = xsimd::fma(k, B(0.693115234375f), clamped);
  u = xsimd::fma(k, B(3.19461833e-05f), u);
  // e^-u = 1 - u + u^2 P(-u) in Horner's scheme, the signs of the odd powers turned; P of degree 4
  // fitted to (e^r - 1 - r) / r^2 on [-ln 2 / 2, ln 2 / 2] (relative error of e^r 3.3e-9, against
  // float's 6e-8).
  B e = xsimd::fms(B(1.38131448e-3f), u, B(8.36941879e-3f));
  e = xsimd::fma(e, u, B(4.16684560e-2f));
  e = xsimd::fms(e, u, B(1.66665152e-1f));
  e = xsimd::fma(e, u, B(4.99999940e-1f));
  e = xsimd::fms(e, u, B(1.0f));
  e = xsimd::fma(e, u, B(1.0f));
  // 2^k: the biased exponent shifted into place (the shifter's own bits shift out).
  const B two_to_k = xsimd::bitwise_cast<B>(xsimd::bitwise_cast<I>(biased) << 23);
  return B(1.0f) / xsimd::fma(e, two_to_k, B(1.0f));
}

}  // namespace detail
#endif

/// The logistic function 1 / (1 + exp(-x)): 0 at -inf, 1 at +inf.
template <class T, std::enable_if_t<detail::is_real_or_batch_v<T>, int> = 0>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T sigmoid(const T& x) {
#if TENSORX_HAS_SIMD
  if constexpr (detail::is_simd_batch_v<T>) {
    if constexpr (std::is_same_v<typename T::value_type, float>) return detail::logistic(x);
  }
#endif
  return T(1) / (T(1) + tensorx::exp(-x));
}

/// max(x, 0); NaN stays NaN (see maximum).
template <class T, std::enable_if_t<detail::is_number_or_batch_v<T>, int> = 0>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T relu(const T& x) {
  return tensorx::maximum(x, T(0));
}

/// The Gaussian error linear unit in its tanh form,
///   0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))),
/// which is what cuBLASLt's GELU epilogue computes (and PyTorch's gelu(approximate="tanh")), so
/// that a fused `tx::gelu(tx::dot(a, w) + bias)` on the GPU and the same expression on the CPU
/// agree. It stays within 1e-3 of the erf form x * Phi(x). Float batches compute the same
/// function as x * logistic(2u), u the tanh's argument (0.5 (1 + tanh u) is the logistic of 2u):
/// the logistic's 15 vector instructions instead of tanh and the sum, and no cancellation where
/// tanh u nears -1 (at x = -3 the tanh form keeps one bit in 68 of tanh's precision; below -5.2
/// it gives 0 where the logistic form gives the true value, under 2.5e-7 in magnitude).
template <class T, std::enable_if_t<detail::is_real_or_batch_v<T>, int> = 0>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T gelu(const T& x) {
  constexpr double kSqrt2OverPi = 0.7978845608028654;
  constexpr double kCubic = 0.044715;
#if TENSORX_HAS_SIMD
  if constexpr (detail::is_simd_batch_v<T>) {
    if constexpr (std::is_same_v<typename T::value_type, float>) {
      const T two_u = x * (T(2 * kSqrt2OverPi) + T(2 * kSqrt2OverPi * kCubic) * (x * x));
      return x * detail::logistic(two_u);
    }
  }
#endif
  const T sqrt_2_over_pi(kSqrt2OverPi);
  const T cubic(kCubic);
  const T half(0.5);
  return half * x * (T(1) + tensorx::tanh(sqrt_2_over_pi * (x + cubic * x * x * x)));
}

/// minimum(maximum(x, lo), hi), as NumPy's clip: hi wins when lo > hi; NaN stays NaN.
template <class T, std::enable_if_t<detail::is_number_or_batch_v<T>, int> = 0>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T clip(const T& x, const T& lo, const T& hi) {
  return tensorx::minimum(tensorx::maximum(x, lo), hi);
}

/// x * x.
template <class T, std::enable_if_t<detail::is_number_or_batch_v<T>, int> = 0>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T square(const T& x) {
  return x * x;
}

/// 1 for x > 0, -1 for x < 0, and x itself otherwise: zeros keep their sign, NaN stays NaN
/// (like NumPy's sign).
template <class T, std::enable_if_t<detail::is_number_or_batch_v<T>, int> = 0>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T sign(const T& x) {
  return tensorx::where(x > T(0), T(1), tensorx::where(x < T(0), T(-1), x));
}

}  // namespace tensorx
