// Savers: how a computed value meets the destination element (after mshadow's saveto/plusto).
// A saver that reads the destination makes the engine load it first.
#pragma once

#include "tensorx/core/config.h"

namespace tensorx {
namespace saver {

struct write {
  static constexpr bool reads_destination = false;
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE static T apply(const T&, const T& value) {
    return value;
  }
};
struct add {
  static constexpr bool reads_destination = true;
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE static T apply(const T& current, const T& value) {
    return current + value;
  }
};
struct subtract {
  static constexpr bool reads_destination = true;
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE static T apply(const T& current, const T& value) {
    return current - value;
  }
};
struct multiply {
  static constexpr bool reads_destination = true;
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE static T apply(const T& current, const T& value) {
    return current * value;
  }
};
struct divide {
  static constexpr bool reads_destination = true;
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE static T apply(const T& current, const T& value) {
    return current / value;
  }
};

}  // namespace saver
}  // namespace tensorx
