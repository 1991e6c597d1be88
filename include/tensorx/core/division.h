// a / b for every element type, as `/` and `/=` compute it: integers with every input defined
// (core/integer_arithmetic.h), floating-point numbers rounded once as IEEE 754 says, without a
// GPU's slow path for a zero dividend.
#pragma once

#include <type_traits>

#include "tensorx/core/config.h"
#include "tensorx/core/float_ops.h"
#include "tensorx/core/integer_arithmetic.h"

namespace tensorx {
namespace detail {

/// The dividend that stands in for a zero in divide_through_stand_in: 2^-digits of T.
template <class T>
constexpr T kDivisionStandIn = std::is_same_v<T, float> ? T(0x1p-24) : T(0x1p-53);

/// a / b as a GPU computes it (divide_floats): a zero dividend is replaced by
/// d = kDivisionStandIn<T> and the result is a * (d / b). For b = +-0 or NaN that is NaN
/// (0 * inf, NaN), for b = +-inf and every finite nonzero b a zero with the sign of a times the
/// sign of b (d / b is finite: at most 2^125 for float's smallest subnormal b, 2^1021 for
/// double's): a / b in every case. Host and device, so that the CPU tests check its bits.
template <class T>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T divide_through_stand_in(T a, T b) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                "divide_through_stand_in divides floats or doubles");
  const bool zero = a == T(0);
  const T quotient = (zero ? kDivisionStandIn<T> : a) / b;
  return zero ? a * quotient : quotient;
}

/// a / b of floating-point numbers or SIMD batches, the correctly rounded quotient.
///
/// On a GPU a float or double division is a reciprocal refined by FMAs, then a check of both
/// operands' exponents (FCHK, SASS sm_90) that sends a warp's lanes with a zero or subnormal
/// operand to an out-of-line slow path. Dropout's `x * mask / (1 - p)` divides zeros: with a
/// tenth of its elements dropped nearly every warp took the slow path at every division, and
/// its lanes were on average 17.7 of 32 active (ncu, H200, 2026-11-28; every other element-wise
/// kernel: 32). So a GPU divides through divide_through_stand_in, three instructions more (a
/// comparison, a select and a multiplication) and no divergence for zeros; d / b is a normal
/// number for every normal b up to 2^102 in magnitude (float), as the fast path wants.
template <class T>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T divide_floats(const T& a, const T& b) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    return divide_through_stand_in(a, b);
  } else {
    return a / b;
  }
#else
  return a / b;
#endif
}

/// The largest and smallest magnitudes, 2^60 and 2^-60 for float (2^500 and 2^-500 for double),
/// of the divisors and dividends that divide_by_reciprocal divides through a reciprocal: the
/// quotients, and the remainders of its correction, then stay normal numbers.
template <class T>
constexpr T kReciprocalHigh = T(std::is_same_v<T, float> ? 0x1p60 : 0x1p500);
template <class T>
constexpr T kReciprocalLow = T(std::is_same_v<T, float> ? 0x1p-60 : 0x1p-500);

/// True where b's reciprocal serves divide_by_reciprocal.
template <class T>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE bool reciprocal_divides(T b) {
  const T size = magnitude(b);
  return size >= kReciprocalLow<T> && size <= kReciprocalHigh<T>;
}

/// a / b, correctly rounded, from r = RN(1 / b) worked out once for many a (a divisor that is the
/// same for a whole pass, `x / 0.9f`), where reciprocal_divides(b): q0 = a r, then Markstein's
/// correction q = q0 + (a - q0 b) r, the remainder exact in an FMA, gives the IEEE quotient for
/// every a of magnitude kReciprocalLow .. kReciprocalHigh (and a zero: a r, its sign right); other
/// a divide through divide_through_stand_in. A multiplication and two FMAs where a GPU division
/// takes a reciprocal, its refinement, a range check and five FMAs (17 instructions a division in
/// dropout's kernel, SASS sm_90). Host and device, so that the CPU tests check it.
template <class T>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T divide_by_reciprocal(T a, T b, T r) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>,
                "divide_by_reciprocal divides floats or doubles");
  const T size = magnitude(a);
  if (size <= kReciprocalHigh<T> && (size >= kReciprocalLow<T> || a == T(0))) {
    const T q0 = a * r;
    const T remainder = fused_multiply_add(-q0, b, a);
    const T q = fused_multiply_add(remainder, r, q0);
    return a == T(0) ? q0 : q;
  }
  return divide_through_stand_in(a, b);
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
