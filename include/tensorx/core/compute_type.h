// The type an element type computes in: float16 and bfloat16 (the narrow floats) are stored in
// two bytes but computed in float, so engines, reducers and functors work on compute_t<T> and
// round back with to_storage<T> only when they store.
#pragma once

#include <type_traits>

#include "tensorx/core/bfloat16.h"
#include "tensorx/core/config.h"
#include "tensorx/core/float16.h"
#include "tensorx/core/narrow_float.h"

namespace tensorx {

/// The type element type T computes in: float for float16 and bfloat16, T itself otherwise.
template <class T>
struct compute_type {
  /// float for the narrow floats, else T.
  using type = std::conditional_t<is_narrow_float_v<T>, float, T>;
};
/// compute_type<T>::type.
template <class T>
using compute_t = typename compute_type<T>::type;

/// Converts a computed value to the stored element type.
template <class T, class C>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T to_storage(const C& value) {
  return static_cast<T>(value);
}

}  // namespace tensorx
