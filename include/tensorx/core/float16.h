// float16: the IEEE 754 binary16 element type, a two-byte value usable in host and device code.
// Arithmetic happens in float and is rounded back; on the host the conversions are portable bit
// manipulation (no F16C), on the device they are the CUDA conversion instructions for numbers and
// the same bit manipulation for NaNs.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "tensorx/core/config.h"
#include "tensorx/core/float_bits.h"
#include "tensorx/core/narrow_float.h"

#if defined(__CUDACC__)
#include <cuda_fp16.h>
#endif

namespace tensorx {

class float16;

namespace detail {

// The device's conversion instructions turn every NaN into one canonical NaN; tensorx keeps a
// NaN's sign and top payload bits (and makes it quiet) on the host and the device alike, so NaNs
// take the bit path there too.

TENSORX_HOST_DEVICE inline std::uint16_t float_to_half_bits(float value) {
  const std::uint32_t bits = bits_of(value);
#if TENSORX_DEVICE_CODE
  // Branch-free, as the widening below: the instruction's value, or for a NaN its sign, the
  // exponent's low five bits (all ones) and the top ten payload bits in place, made quiet. The
  // test and branch this replaces put a divergence region around every element a kernel stores
  // (SASS sm_90, with the widening below: the float16 softmax's longest element loop 133 -> 122
  // instructions, bias + relu's row loop 632 -> 268 a step). The NaN test is on the bits: a
  // comparison of floats (x != x) is one instruction less, but clang's -ffast-math deletes it.
  const std::uint16_t number = __half_as_ushort(__float2half_rn(value));
  const auto nan =
      static_cast<std::uint16_t>(((bits >> 16) & 0x8000u) | 0x0200u | ((bits >> 13) & 0x7fffu));
  return (bits & 0x7fffffffu) > 0x7f800000u ? nan : number;
#else
  return round_to_narrow_bits<Binary16, Binary32>(bits);
#endif
}

TENSORX_HOST_DEVICE inline std::uint16_t double_to_half_bits(double value) {
  const std::uint64_t bits = bits_of(value);
#if TENSORX_DEVICE_CODE
  if ((bits & 0x7fffffffffffffffull) <= 0x7ff0000000000000ull) {
    return __half_as_ushort(__double2half(value));
  }
#endif
  return round_to_narrow_bits<Binary16, Binary64>(bits);
}

/// Exact: every binary16 value is a float (a NaN keeps its sign and payload and becomes quiet).
TENSORX_HOST_DEVICE inline float half_bits_to_float(std::uint16_t bits) {
#if TENSORX_DEVICE_CODE
  // Branch-free: the conversion instruction's value and the quiet NaN with the sign and payload
  // (the bits the host path below gives a NaN), one of the two selected. A branch here (as this
  // was, falling through to the host path) put a divergence region around every element, behind
  // which the compiler could not move the next load: the CUDA sum of float16 rows issued one
  // 16-byte load at a time and needed 63 registers (50% occupancy), 0.73 of a copy's bandwidth
  // on an H100 against 0.97 for float. The row kernel converts its loads its own way
  // (float16_lanes, reduce/cuda_reduce_sources.cuh); a float16 operand inside an expression
  // (a cast, say) still comes here, and went from 0.75 to 0.88 of a copy for a full sum.
  // The NaN: the half's bits moved to the top, shifted arithmetically by 3 so that the sign
  // also fills the three exponent bits float has more, and the exponent and quiet bit set (one
  // shift and one OR where the sign and payload took four).
  const float number = __half2float(__ushort_as_half(bits));
  const std::uint32_t nan =
      static_cast<std::uint32_t>(static_cast<std::int32_t>(std::uint32_t{bits} << 16) >> 3) |
      0x7fc00000u;
  return (bits & 0x7fffu) > 0x7c00u ? float_from_bits(nan) : number;
#else
  const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
  const std::uint32_t exponent = (bits >> 10) & 0x1fu;
  const std::uint32_t fraction = bits & 0x3ffu;
  if (exponent == 0) {
    // Zero or subnormal: fraction * 2^-24, which float holds exactly as a normal number.
    const float magnitude = static_cast<float>(fraction) * 5.9604644775390625e-8f;
    return sign != 0 ? -magnitude : magnitude;
  }
  // Rebias 15 -> 127; inf and NaN (exponent 31) keep their fraction as the payload, and a NaN
  // becomes quiet, as x86's conversion instructions (F16C) make it.
  if (exponent == 0x1fu) {
    const std::uint32_t quiet = fraction != 0 ? 0x00400000u : 0u;
    return float_from_bits(sign | 0x7f800000u | (fraction << 13) | quiet);
  }
  return float_from_bits(sign | ((exponent + 112u) << 23) | (fraction << 13));
#endif
}

}  // namespace detail

/// IEEE 754 binary16, a storage type that computes in float (compute_t<float16> is float). From
/// its base it has bits() and from_bits(), arithmetic computed in float and rounded once,
/// comparisons as floats, printing as a float, and isnan/isinf/isfinite; std::numeric_limits is
/// specialised. Usable in host and device code.
class float16 : public detail::NarrowFloat<float16, detail::Binary16> {
 public:
  /// +0. A constexpr constructor, so that nvcc still accepts float16 in __shared__ memory (which
  /// it leaves uninitialised, as for every type).
  TENSORX_HOST_DEVICE constexpr float16() : NarrowFloat(0) {}

  /// Round to nearest, ties to even; beyond 65504 (from 65520 on) the result is infinity.
  TENSORX_HOST_DEVICE explicit float16(float value)
      : NarrowFloat(detail::float_to_half_bits(value)) {}

  /// Rounded once, directly from the double (never through float, which could round twice).
  TENSORX_HOST_DEVICE explicit float16(double value)
      : NarrowFloat(detail::double_to_half_bits(value)) {}

  /// Every integer whose magnitude could round to a finite float16 (below 65520) is exact as a
  /// double, and every larger one stays at least 65520 as a double, so this rounds only once.
  template <class Integer, std::enable_if_t<std::is_integral_v<Integer>, int> = 0>
  TENSORX_HOST_DEVICE explicit float16(Integer value) : float16(static_cast<double>(value)) {}

  /// Exact. Implicit, so that a float16 mixed with a float or double computes in that type.
  TENSORX_HOST_DEVICE operator float() const { return detail::half_bits_to_float(bits()); }
};

static_assert(sizeof(float16) == 2 && alignof(float16) == 2, "float16 must be exactly two bytes.");
static_assert(std::is_trivially_copyable_v<float16>, "float16 must be trivially copyable.");

/// float16 is a narrow float.
template <>
struct is_narrow_float<float16> : std::true_type {};

}  // namespace tensorx

namespace std {

template <>
struct numeric_limits<tensorx::float16>
    : tensorx::detail::NarrowFloatLimits<tensorx::float16, true> {};

}  // namespace std
