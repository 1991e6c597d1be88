// bfloat16: the "brain floating point" element type, the top half of a float (sign, the 8 exponent
// bits, 7 fraction bits), usable in host and device code. It has float's range and 8 significant
// bits; arithmetic happens in float and is rounded back (core/narrow_float.h). Widening is a 16-bit
// shift on both sides; narrowing rounds to nearest even, on the device with CUDA's conversion
// instruction, and gives the same bits on the host and the device for every float, NaNs included.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "tensorx/core/config.h"
#include "tensorx/core/float_bits.h"
#include "tensorx/core/narrow_float.h"

#if defined(__CUDACC__)
#include <cuda_bf16.h>
#endif

namespace tensorx {
namespace detail {

/// A float NaN as bfloat16: its sign and top payload bits kept, made quiet so that a payload only
/// in the dropped half cannot turn it into an infinity.
TENSORX_HOST_DEVICE inline std::uint16_t quiet_bfloat16_nan(std::uint32_t float_bits) {
  return static_cast<std::uint16_t>((float_bits >> 16) | 0x0040u);
}

TENSORX_HOST_DEVICE inline std::uint16_t float_to_bfloat16_bits(float value) {
  const std::uint32_t bits = bits_of(value);
#if TENSORX_DEVICE_CODE
  // One cvt.rn.bf16.f32 instruction on sm_80 and newer; its NaN is canonical, hence the select.
  const std::uint16_t number = __bfloat16_as_ushort(__float2bfloat16_rn(value));
  return (bits & 0x7fffffffu) > 0x7f800000u ? quiet_bfloat16_nan(bits) : number;
#else
  if ((bits & 0x7fffffffu) > 0x7f800000u) return quiet_bfloat16_nan(bits);
  // bfloat16 keeps float's exponent, so rounding to nearest even is an add on the bit pattern:
  // 0x7fff plus the lowest kept bit carries into the kept half exactly when the dropped half is
  // above one half ulp, or equal to it with an odd kept half. A carry out of the largest finite
  // value's fraction reaches the infinity encoding, as IEEE rounding says; float subnormals
  // round the same way, as bfloat16 has subnormals at the same scale.
  return static_cast<std::uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
#endif
}

/// Exact: every bfloat16 value is a float.
TENSORX_HOST_DEVICE inline float bfloat16_bits_to_float(std::uint16_t bits) {
  return float_from_bits(static_cast<std::uint32_t>(bits) << 16);
}

/// An integer as a double that rounds to bfloat16 exactly as the integer itself would: exact up to
/// 2^53, beyond that the bits that do not fit fold into the lowest bit (rounding to odd), so that
/// the rounding to 8 significant bits never sees a false tie.
template <class Integer>
TENSORX_HOST_DEVICE double integer_for_narrow_rounding(Integer value) {
  if constexpr (sizeof(Integer) <= 4) {
    return static_cast<double>(value);
  } else {
    bool negative = false;
    if constexpr (std::is_signed_v<Integer>) negative = value < 0;
    // Unsigned arithmetic: the magnitude of the most negative value is representable.
    const std::uint64_t magnitude = negative ? std::uint64_t{0} - static_cast<std::uint64_t>(value)
                                             : static_cast<std::uint64_t>(value);
    int shift = 0;
    while ((magnitude >> shift) >= (std::uint64_t{1} << 53)) ++shift;
    std::uint64_t kept = magnitude >> shift;
    if ((kept << shift) != magnitude) kept |= 1u;
    const double result =
        static_cast<double>(kept) * static_cast<double>(std::uint64_t{1} << shift);
    return negative ? -result : result;
  }
}

}  // namespace detail

/// bfloat16: 1 sign bit, 8 exponent bits (float's), 7 fraction bits; a storage type that computes
/// in float, with the same operations as float16 (bits(), from_bits(), arithmetic rounded once,
/// comparisons as floats, isnan/isinf/isfinite, std::numeric_limits). Usable in host and device
/// code.
class bfloat16 : public detail::NarrowFloat<bfloat16, detail::BFloat16Format> {
 public:
  /// +0. A constexpr constructor, so that nvcc still accepts bfloat16 in __shared__ memory.
  TENSORX_HOST_DEVICE constexpr bfloat16() : NarrowFloat(0) {}

  /// Round to nearest, ties to even; from 2^128 * (1 - 2^-9) on the result is infinity.
  TENSORX_HOST_DEVICE explicit bfloat16(float value)
      : NarrowFloat(detail::float_to_bfloat16_bits(value)) {}

  /// Rounded once, directly from the double (never through float, which could round twice).
  TENSORX_HOST_DEVICE explicit bfloat16(double value)
      : NarrowFloat(detail::round_to_narrow_bits<detail::BFloat16Format, detail::Binary64>(
            detail::bits_of(value))) {}

  /// Rounded once, for every integer type (64-bit ones included).
  template <class Integer, std::enable_if_t<std::is_integral_v<Integer>, int> = 0>
  TENSORX_HOST_DEVICE explicit bfloat16(Integer value)
      : bfloat16(detail::integer_for_narrow_rounding(value)) {}

  /// Exact. Implicit, so that a bfloat16 mixed with a float or double computes in that type.
  TENSORX_HOST_DEVICE operator float() const { return detail::bfloat16_bits_to_float(bits()); }
};

static_assert(sizeof(bfloat16) == 2 && alignof(bfloat16) == 2,
              "bfloat16 must be exactly two bytes.");
static_assert(std::is_trivially_copyable_v<bfloat16>, "bfloat16 must be trivially copyable.");

/// bfloat16 is a narrow float.
template <>
struct is_narrow_float<bfloat16> : std::true_type {};

}  // namespace tensorx

namespace std {

template <>
struct numeric_limits<tensorx::bfloat16>
    : tensorx::detail::NarrowFloatLimits<tensorx::bfloat16, false> {};

}  // namespace std
