// NarrowFloat: what the two-byte float types (float16, bfloat16) share as numbers. Each is stored
// in 16 bits and computed in float: arithmetic converts to float and rounds the result back once,
// comparisons compare the floats. A type derives from NarrowFloat<Self, Format> (its field widths,
// core/float_bits.h), which holds the bits; it provides explicit constructors from float and double
// and an implicit conversion to float, and specialises is_narrow_float. Classification (isnan,
// isinf, isfinite) and std::numeric_limits (through NarrowFloatLimits) follow from the format.
#pragma once

#include <cstdint>
#include <limits>
#include <ostream>
#include <type_traits>

#include "tensorx/core/config.h"
#include "tensorx/core/float_bits.h"

namespace tensorx {
namespace detail {

/// The type `Self op T` computes in; absent, so that the compound operators drop out, for any
/// other operand (long double included: no narrow float constructor takes it).
template <class Self, class T>
using NarrowCompoundType =
    std::enable_if_t<std::is_same_v<T, Self> || std::is_integral_v<T> || std::is_same_v<T, float> ||
                         std::is_same_v<T, double>,
                     std::conditional_t<std::is_same_v<T, double>, double, float>>;

template <class Self, class FormatT>
class NarrowFloat {
 public:
  /// The widths of the fields (core/float_bits.h).
  using Format = FormatT;
  static_assert(Format::kMantissaBits + Format::kExponentBits == 15, "A narrow float has 16 bits.");
  /// The exponent field all ones: the bits of +infinity.
  static constexpr std::uint16_t kExponentMask = ((1u << Format::kExponentBits) - 1)
                                                 << Format::kMantissaBits;

  /// The value whose encoding is `bits`.
  TENSORX_HOST_DEVICE static constexpr Self from_bits(std::uint16_t bits) {
    Self value;
    value.bits_ = bits;
    return value;
  }
  TENSORX_HOST_DEVICE constexpr std::uint16_t bits() const { return bits_; }

  // Each result is computed in float and rounded once. Float's 24 significand bits are at least
  // twice the narrow type's plus two (2 * 11 + 2 for float16, 2 * 8 + 2 for bfloat16), so this
  // equals the correctly rounded operation in the narrow type (no double rounding).
  friend TENSORX_HOST_DEVICE Self operator+(Self a, Self b) { return Self(float(a) + float(b)); }
  friend TENSORX_HOST_DEVICE Self operator-(Self a, Self b) { return Self(float(a) - float(b)); }
  friend TENSORX_HOST_DEVICE Self operator*(Self a, Self b) { return Self(float(a) * float(b)); }
  friend TENSORX_HOST_DEVICE Self operator/(Self a, Self b) { return Self(float(a) / float(b)); }

  /// Negation flips the sign bit only, so it is exact for every value, zeros and NaNs included.
  TENSORX_HOST_DEVICE constexpr Self operator-() const {
    return Self::from_bits(static_cast<std::uint16_t>(self().bits() ^ 0x8000u));
  }
  TENSORX_HOST_DEVICE constexpr Self operator+() const { return self(); }

  /// `h op= x` for a value of the same type, an integer, a float or a double x: computes in the
  /// type `h op x` has (float, or double for a double x) and rounds the result back.
  template <class T, class Wide = NarrowCompoundType<Self, T>>
  TENSORX_HOST_DEVICE Self& operator+=(T rhs) {
    return assign(Self(static_cast<Wide>(self()) + static_cast<Wide>(rhs)));
  }
  template <class T, class Wide = NarrowCompoundType<Self, T>>
  TENSORX_HOST_DEVICE Self& operator-=(T rhs) {
    return assign(Self(static_cast<Wide>(self()) - static_cast<Wide>(rhs)));
  }
  template <class T, class Wide = NarrowCompoundType<Self, T>>
  TENSORX_HOST_DEVICE Self& operator*=(T rhs) {
    return assign(Self(static_cast<Wide>(self()) * static_cast<Wide>(rhs)));
  }
  template <class T, class Wide = NarrowCompoundType<Self, T>>
  TENSORX_HOST_DEVICE Self& operator/=(T rhs) {
    return assign(Self(static_cast<Wide>(self()) / static_cast<Wide>(rhs)));
  }

  // Compared as floats: NaN is unordered and unequal to itself, +0 equals -0.
  friend TENSORX_HOST_DEVICE bool operator==(Self a, Self b) { return float(a) == float(b); }
  friend TENSORX_HOST_DEVICE bool operator!=(Self a, Self b) { return float(a) != float(b); }
  friend TENSORX_HOST_DEVICE bool operator<(Self a, Self b) { return float(a) < float(b); }
  friend TENSORX_HOST_DEVICE bool operator<=(Self a, Self b) { return float(a) <= float(b); }
  friend TENSORX_HOST_DEVICE bool operator>(Self a, Self b) { return float(a) > float(b); }
  friend TENSORX_HOST_DEVICE bool operator>=(Self a, Self b) { return float(a) >= float(b); }

  /// Prints the value as the float it converts to.
  friend std::ostream& operator<<(std::ostream& out, Self h) { return out << float(h); }

 protected:
  TENSORX_HOST_DEVICE constexpr explicit NarrowFloat(std::uint16_t bits) : bits_(bits) {}

 private:
  TENSORX_HOST_DEVICE constexpr const Self& self() const { return static_cast<const Self&>(*this); }
  TENSORX_HOST_DEVICE Self& assign(Self value) { return static_cast<Self&>(*this) = value; }

  std::uint16_t bits_;
};

}  // namespace detail

/// True for the two-byte float types that compute in float; each one specialises it.
template <class T>
struct is_narrow_float : std::false_type {};
/// is_narrow_float<T>::value.
template <class T>
inline constexpr bool is_narrow_float_v = is_narrow_float<T>::value;

/// True for the numbers that join expressions and are assigned to arrays as scalars: the
/// arithmetic types, float16 and bfloat16 (`h * tx::bfloat16(2.0f)`, `h = tx::float16(0.5f)`).
template <class T>
inline constexpr bool is_scalar_number_v = std::is_arithmetic_v<T> || is_narrow_float_v<T>;

/// True for the floating-point element types: float, double, float16 and bfloat16.
template <class T>
inline constexpr bool is_floating_element_v = std::is_floating_point_v<T> || is_narrow_float_v<T>;

/// NaN: the exponent field all ones and a fraction that is not zero.
template <class F, std::enable_if_t<is_narrow_float_v<F>, int> = 0>
TENSORX_HOST_DEVICE constexpr bool isnan(F h) {
  return (h.bits() & 0x7fffu) > F::kExponentMask;
}
/// Either infinity: the exponent field all ones and a zero fraction.
template <class F, std::enable_if_t<is_narrow_float_v<F>, int> = 0>
TENSORX_HOST_DEVICE constexpr bool isinf(F h) {
  return (h.bits() & 0x7fffu) == F::kExponentMask;
}
/// Neither infinite nor NaN.
template <class F, std::enable_if_t<is_narrow_float_v<F>, int> = 0>
TENSORX_HOST_DEVICE constexpr bool isfinite(F h) {
  return (h.bits() & F::kExponentMask) != F::kExponentMask;
}

namespace detail {

/// std::numeric_limits of a narrow float F, every member derived from its format: a type
/// specialises std::numeric_limits<F> by deriving from this. kIec559 says whether the format is an
/// IEEE 754 interchange format (binary16 is, bfloat16 is not). The decimal members use
/// 30103 / 100000 for log10(2), exact enough for exponents this small.
template <class F, bool kIec559>
struct NarrowFloatLimits {
  using Format = typename F::Format;
  static constexpr int kMantissa = Format::kMantissaBits;
  static constexpr int kBias = Format::kBias;

  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr bool has_signaling_NaN = true;
  static constexpr std::float_denorm_style has_denorm = std::denorm_present;
  static constexpr bool has_denorm_loss = false;
  static constexpr std::float_round_style round_style = std::round_to_nearest;
  static constexpr bool is_iec559 = kIec559;
  static constexpr bool is_bounded = true;
  static constexpr bool is_modulo = false;
  static constexpr int digits = kMantissa + 1;
  static constexpr int digits10 = kMantissa * 30103 / 100000;
  static constexpr int max_digits10 = 2 + digits * 30103 / 100000;
  static constexpr int radix = 2;
  static constexpr int min_exponent = 2 - kBias;
  static constexpr int min_exponent10 = -((kBias - 1) * 30103 / 100000);
  static constexpr int max_exponent = kBias + 1;
  static constexpr int max_exponent10 = ((kBias + 1) * 30103 - 1) / 100000;
  static constexpr bool traps = false;
  static constexpr bool tinyness_before = false;

  TENSORX_HOST_DEVICE static constexpr F min() noexcept { return F::from_bits(1u << kMantissa); }
  TENSORX_HOST_DEVICE static constexpr F lowest() noexcept {
    return F::from_bits(0x8000u | (F::kExponentMask - 1u));
  }
  TENSORX_HOST_DEVICE static constexpr F max() noexcept {
    return F::from_bits(F::kExponentMask - 1u);
  }
  /// 2^-kMantissa: the gap between 1 and the next value.
  TENSORX_HOST_DEVICE static constexpr F epsilon() noexcept {
    return F::from_bits(static_cast<std::uint16_t>((kBias - kMantissa) << kMantissa));
  }
  /// 0.5.
  TENSORX_HOST_DEVICE static constexpr F round_error() noexcept {
    return F::from_bits(static_cast<std::uint16_t>((kBias - 1) << kMantissa));
  }
  TENSORX_HOST_DEVICE static constexpr F infinity() noexcept {
    return F::from_bits(F::kExponentMask);
  }
  /// The top fraction bit set: quiet.
  TENSORX_HOST_DEVICE static constexpr F quiet_NaN() noexcept {
    return F::from_bits(F::kExponentMask | (1u << (kMantissa - 1)));
  }
  /// The top fraction bit clear, the next one set.
  TENSORX_HOST_DEVICE static constexpr F signaling_NaN() noexcept {
    return F::from_bits(F::kExponentMask | (1u << (kMantissa - 2)));
  }
  TENSORX_HOST_DEVICE static constexpr F denorm_min() noexcept { return F::from_bits(1u); }
};

}  // namespace detail
}  // namespace tensorx
