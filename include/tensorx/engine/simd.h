// Whether a plan runs in the CPU engine's SIMD loop (the batches themselves, and how they load and
// store elements, are core/simd.h and core/simd_storage.h).
#pragma once

#include <type_traits>

#include "tensorx/core/simd.h"
#include "tensorx/expr/plan_access.h"

namespace tensorx {
namespace detail {

/// True when `Plan` can be evaluated in SIMD batches of its element type C.
template <class Plan, class C>
constexpr bool plan_vectorizable() {
#if TENSORX_HAS_SIMD
  if constexpr (std::is_void_v<simd_batch_t<C>>) {
    return false;
  } else {
    return vectorizable_v<Plan, simd_batch_t<C>>;
  }
#else
  return false;
#endif
}

}  // namespace detail
}  // namespace tensorx
