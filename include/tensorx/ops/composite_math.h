// Math functions composed from the primitives of scalar_math.h and simd_math.h, written once for
// numbers and SIMD batches alike (and usable in device code): rsqrt, sigmoid, relu, gelu, clip,
// square, sign.
#pragma once

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

/// The logistic function 1 / (1 + exp(-x)): 0 at -inf, 1 at +inf.
template <class T, std::enable_if_t<detail::is_real_or_batch_v<T>, int> = 0>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T sigmoid(const T& x) {
#if TENSORX_HAS_SIMD
  if constexpr (detail::is_simd_batch_v<T>) {
    if constexpr (std::is_same_v<typename T::value_type, float>) {
      // xsimd's exp as it is: in float it reaches infinity and 0 a little before C's exp
      // (simd_math.h), which changes the logistic only where its value is below float's smallest
      // normal number (0 instead of a denormal) or rounds to 1 anyway; tensorx::exp's check of
      // those lanes cost 13% of a sigmoid pass. (In double the limits are too close to keep.)
      return T(1) / (T(1) + xsimd::exp(-x));
    }
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
/// agree. It stays within 1e-3 of the erf form x * Phi(x).
template <class T, std::enable_if_t<detail::is_real_or_batch_v<T>, int> = 0>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T gelu(const T& x) {
  const T sqrt_2_over_pi(0.7978845608028654);
  const T cubic(0.044715);
  const T half(0.5);
  return half * x * (T(1) + tensorx::tanh(sqrt_2_over_pi * (x + cubic * x * x * x)));
}

/// minimum(maximum(x, lo), hi), as NumPy's clip: hi wins when lo > hi; NaN stays NaN.
template <class T, std::enable_if_t<detail::is_number_or_batch_v<T>, int> = 0>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T clip(const T& x, const T& lo, const T& hi) {
  return tensorx::minimum(tensorx::maximum(x, lo), hi);
}

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
