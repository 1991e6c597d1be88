// Bit-level helpers shared by the two-byte float types (float16, bfloat16): the bit pattern of a
// float or double, and the one routine that rounds a wider IEEE binary number to a narrower
// format's bit pattern, round to nearest, ties to even.
#pragma once

#include <cstdint>
#include <cstring>

#include "tensorx/core/config.h"

namespace tensorx {
namespace detail {

TENSORX_HOST_DEVICE inline std::uint32_t bits_of(float value) {
#if TENSORX_DEVICE_CODE
  return __float_as_uint(value);
#else
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
#endif
}

TENSORX_HOST_DEVICE inline std::uint64_t bits_of(double value) {
#if TENSORX_DEVICE_CODE
  return static_cast<std::uint64_t>(__double_as_longlong(value));
#else
  std::uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
#endif
}

TENSORX_HOST_DEVICE inline float float_from_bits(std::uint32_t bits) {
#if TENSORX_DEVICE_CODE
  return __uint_as_float(bits);
#else
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
#endif
}

TENSORX_HOST_DEVICE inline double double_from_bits(std::uint64_t bits) {
#if TENSORX_DEVICE_CODE
  return __longlong_as_double(static_cast<long long>(bits));
#else
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
#endif
}

/// An IEEE 754 binary format by the widths of its fields (the sign is one bit).
template <int kMantissa, int kExponent>
struct BinaryFormat {
  static constexpr int kMantissaBits = kMantissa;
  static constexpr int kExponentBits = kExponent;
  static constexpr int kBias = (1 << (kExponent - 1)) - 1;
};
using Binary16 = BinaryFormat<10, 5>;
using BFloat16Format = BinaryFormat<7, 8>;
using Binary32 = BinaryFormat<23, 8>;
using Binary64 = BinaryFormat<52, 11>;

/// Rounds a number of format Source, given as its bit pattern, to the nearest bit pattern of the
/// two-byte format Target, ties to even. Rounding once from the source format is what makes a
/// double conversion exact: going through float first could round twice. A NaN keeps its sign
/// and top payload bits and becomes quiet, so it can never turn into an infinity.
template <class Target, class Source, class Bits>
TENSORX_HOST_DEVICE inline std::uint16_t round_to_narrow_bits(Bits bits) {
  constexpr int kSourceMantissa = Source::kMantissaBits;
  constexpr int kSourceAllOnes = (1 << Source::kExponentBits) - 1;
  constexpr int kMantissa = Target::kMantissaBits;
  constexpr int kBias = Target::kBias;
  constexpr std::uint32_t kInfinity = ((1u << Target::kExponentBits) - 1) << kMantissa;
  static_assert(kMantissa + Target::kExponentBits == 15, "The target format has two bytes.");
  // Source subnormals then lie below half the smallest target subnormal and round to zero.
  static_assert(Source::kBias >= 1 + kBias + kMantissa,
                "The source format's subnormals must be negligible in the target format.");

  const auto sign =
      static_cast<std::uint16_t>((bits >> (kSourceMantissa + Source::kExponentBits)) << 15);
  const int exponent_field = static_cast<int>((bits >> kSourceMantissa) & Bits(kSourceAllOnes));
  const Bits mantissa = bits & ((Bits(1) << kSourceMantissa) - 1);
  if (exponent_field == kSourceAllOnes) {
    if (mantissa == 0) return static_cast<std::uint16_t>(sign | kInfinity);
    return static_cast<std::uint16_t>(sign | kInfinity | (1u << (kMantissa - 1)) |
                                      (mantissa >> (kSourceMantissa - kMantissa)));
  }
  // The value lies in [2^exponent, 2^(exponent + 1)). Below half the smallest target subnormal,
  // 2^-(kBias + kMantissa), everything rounds to a signed zero.
  const int exponent = exponent_field - Source::kBias;
  if (exponent_field == 0 || exponent < -(kBias + kMantissa)) return sign;
  if (exponent > kBias) return static_cast<std::uint16_t>(sign | kInfinity);

  // Drop the significand bits below the target quantum: 2^(exponent - kMantissa) for normals,
  // the fixed 2^(1 - kBias - kMantissa) for subnormals. shift lies in
  // [kSourceMantissa - kMantissa, kSourceMantissa + 1].
  const Bits significand = mantissa | (Bits(1) << kSourceMantissa);
  const int shift = exponent < 1 - kBias ? kSourceMantissa - (kBias - 1 + kMantissa) - exponent
                                         : kSourceMantissa - kMantissa;
  Bits kept = significand >> shift;
  const Bits rest = significand & ((Bits(1) << shift) - 1);
  const Bits halfway = Bits(1) << (shift - 1);
  if (rest > halfway || (rest == halfway && (kept & 1) != 0)) ++kept;

  // A subnormal that rounds up to 2^kMantissa is exactly the encoding of the smallest normal. For
  // normals kept holds the implicit leading bit, hence exponent + kBias - 1 in the exponent
  // field; a carry out of the fraction moves into the exponent, and past the largest finite value
  // it lands on the infinity encoding.
  if (exponent < 1 - kBias) return static_cast<std::uint16_t>(sign | kept);
  return static_cast<std::uint16_t>(
      sign | ((static_cast<Bits>(exponent + kBias - 1) << kMantissa) + kept));
}

}  // namespace detail
}  // namespace tensorx
