// Savers: how a computed value meets the destination element (after mshadow's saveto/plusto).
// A saver that reads the destination makes the engine load it first; `vectorizes<T>` says whether
// the CPU engine may apply it to SIMD batches of T.
#pragma once

#include <type_traits>

#include "tensorx/core/config.h"
#include "tensorx/core/integer_arithmetic.h"

namespace tensorx {
/// How an assignment writes a computed value into the destination: `=` is saver::write, `+=`
/// saver::add, and so on. A DirectWriter receives one as a type (docs/nodes.md).
namespace saver {

struct write {
  static constexpr bool reads_destination = false;
  template <class T>
  static constexpr bool vectorizes = true;
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE static T apply(const T&, const T& value) {
    return value;
  }
};
struct add {
  static constexpr bool reads_destination = true;
  template <class T>
  static constexpr bool vectorizes = true;
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE static T apply(const T& current, const T& value) {
    return current + value;
  }
};
struct subtract {
  static constexpr bool reads_destination = true;
  template <class T>
  static constexpr bool vectorizes = true;
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE static T apply(const T& current, const T& value) {
    return current - value;
  }
};
struct multiply {
  static constexpr bool reads_destination = true;
  template <class T>
  static constexpr bool vectorizes = true;
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE static T apply(const T& current, const T& value) {
    return current * value;
  }
};
/// current / value; integers divide with every input defined (core/integer_arithmetic.h).
struct divide {
  static constexpr bool reads_destination = true;
  // No CPU divides integers in SIMD; lane by lane, a batch would trap on a zero divisor.
  template <class T>
  static constexpr bool vectorizes = !std::is_integral_v<T>;
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE static T apply(const T& current, const T& value) {
    if constexpr (std::is_integral_v<T>) {
      return detail::divide_integers(current, value);
    } else {
      return current / value;
    }
  }
};

}  // namespace saver
}  // namespace tensorx
