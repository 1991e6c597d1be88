// NarrowFloat: what the two-byte float types (float16, bfloat16) share as numbers. Each is stored
// in 16 bits and computed in float: arithmetic converts to float and rounds the result back once,
// comparisons compare the floats. A type derives from NarrowFloat<Self>, provides from_bits,
// bits(), explicit constructors from float and double and an implicit conversion to float, and
// specialises is_narrow_float.
#pragma once

#include <cstdint>
#include <ostream>
#include <type_traits>

#include "tensorx/core/config.h"

namespace tensorx {
namespace detail {

/// The type `Self op T` computes in; absent, so that the compound operators drop out, for any
/// other operand (long double included: no narrow float constructor takes it).
template <class Self, class T>
using NarrowCompoundType =
    std::enable_if_t<std::is_same_v<T, Self> || std::is_integral_v<T> || std::is_same_v<T, float> ||
                         std::is_same_v<T, double>,
                     std::conditional_t<std::is_same_v<T, double>, double, float>>;

template <class Self>
class NarrowFloat {
 public:
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

 private:
  TENSORX_HOST_DEVICE constexpr const Self& self() const { return static_cast<const Self&>(*this); }
  TENSORX_HOST_DEVICE Self& assign(Self value) { return static_cast<Self&>(*this) = value; }
};

}  // namespace detail

/// True for the two-byte float types that compute in float; each one specialises it.
template <class T>
struct is_narrow_float : std::false_type {};
template <class T>
inline constexpr bool is_narrow_float_v = is_narrow_float<T>::value;

/// True for the floating-point element types: float, double, float16 and bfloat16.
template <class T>
inline constexpr bool is_floating_element_v = std::is_floating_point_v<T> || is_narrow_float_v<T>;

}  // namespace tensorx
