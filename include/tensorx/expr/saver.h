// Savers: how a computed value meets the destination element (after mshadow's saveto/plusto).
// A saver that reads the destination makes the engine load it first; `vectorizes<T>` says whether
// the CPU engine may apply it to SIMD batches of T.
#pragma once

#include <type_traits>

#include "tensorx/core/config.h"
#include "tensorx/core/division.h"

namespace tensorx {
/// How an assignment writes a computed value into the destination: `=` is saver::write, `+=`
/// saver::add, and so on. A DirectWriter receives one as a type (docs/nodes.md).
namespace saver {

/// `=`: the computed value replaces the element.
struct write {
  /// Whether apply reads the current element (the engine then loads it first).
  static constexpr bool reads_destination = false;
  /// Whether the CPU engine may apply the saver to SIMD batches of T.
  template <class T>
  static constexpr bool vectorizes = true;
  /// The new element from the current one and the computed value.
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE static T apply(const T&, const T& value) {
    return value;
  }
};
/// `+=`: the element becomes current + value.
struct add {
  /// True: the current element is read.
  static constexpr bool reads_destination = true;
  /// True for every element type.
  template <class T>
  static constexpr bool vectorizes = true;
  /// current + value.
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE static T apply(const T& current, const T& value) {
    return current + value;
  }
};
/// `-=`: the element becomes current - value.
struct subtract {
  /// True: the current element is read.
  static constexpr bool reads_destination = true;
  /// True for every element type.
  template <class T>
  static constexpr bool vectorizes = true;
  /// current - value.
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE static T apply(const T& current, const T& value) {
    return current - value;
  }
};
/// `*=`: the element becomes current * value.
struct multiply {
  /// True: the current element is read.
  static constexpr bool reads_destination = true;
  /// True for every element type.
  template <class T>
  static constexpr bool vectorizes = true;
  /// current * value.
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE static T apply(const T& current, const T& value) {
    return current * value;
  }
};
/// `/=`: current / value (core/division.h): integers with every input defined, floats rounded once.
struct divide {
  /// True: the current element is read.
  static constexpr bool reads_destination = true;
  /// False for integers: no CPU divides integers in SIMD; lane by lane, a batch would trap on a
  /// zero divisor.
  template <class T>
  static constexpr bool vectorizes = !std::is_integral_v<T>;
  /// current / value.
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE static T apply(const T& current, const T& value) {
    return detail::divide(current, value);
  }
};

}  // namespace saver
}  // namespace tensorx
