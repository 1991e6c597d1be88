// a / b for every element type, as `/` and `/=` compute it: integers with every input defined
// (core/integer_arithmetic.h), floating-point numbers rounded once as IEEE 754 says, without a
// GPU's slow path for a zero dividend.
#pragma once

#include <type_traits>

#include "tensorx/core/config.h"
#include "tensorx/core/integer_arithmetic.h"

namespace tensorx {
namespace detail {

/// a / b of floating-point numbers or SIMD batches, the correctly rounded quotient.
///
/// On a GPU a float or double division is a reciprocal refined by FMAs, then a check of both
/// operands' exponents (FCHK, SASS sm_90) that sends a warp's lanes with a zero or subnormal
/// operand to an out-of-line slow path. Dropout's `x * mask / (1 - p)` divides zeros: with a
/// tenth of its elements dropped nearly every warp took the slow path at every division, and
/// its lanes were on average 17.7 of 32 active (ncu, H200, 2026-11-28; every other element-wise
/// kernel: 32). A zero dividend is therefore replaced by d = 2^-digits, and the result is
/// a * (d / b): for b = +-0 or NaN that is NaN (0 * inf, NaN), for b = +-inf and every finite
/// nonzero b a zero with the sign of a times the sign of b (d / b is finite: at most 2^125 for
/// float's smallest subnormal b, 2^1021 for double's) -- a / b in every case. d / b is itself a
/// normal number for every normal b up to 2^102 in magnitude (float), as the fast path wants.
template <class T>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T divide_floats(const T& a, const T& b) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_floating_point_v<T>) {
    constexpr T kStandIn = std::is_same_v<T, float> ? T(0x1p-24) : T(0x1p-53);
    const bool zero = a == T(0);
    const T quotient = (zero ? kStandIn : a) / b;
    return zero ? a * quotient : quotient;
  } else {
    return a / b;
  }
#else
  return a / b;
#endif
}

/// a / b: divide_integers for integers, divide_floats otherwise.
template <class T>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T divide(const T& a, const T& b) {
  if constexpr (std::is_integral_v<T>) {
    return divide_integers(a, b);
  } else {
    return divide_floats(a, b);
  }
}

}  // namespace detail
}  // namespace tensorx
