// A bound plan of a fused row pass (row_fusion.h's bind_rows) seen as one row of contiguous
// elements: the GPU row kernel's sweeps (cuda_row_engine.cuh) read a row through it where every
// array leaf of the pass reads its rows with unit stride, from rows staged in shared memory or
// from 16-byte aligned rows in global memory (FusedLaunch::contiguous_rows).
//
// Each leaf becomes the address of its row's first element, so that element j of the row is
// base[j] for every leaf and a sweep steps one 32-bit index. Read through LeafPlan::load_at, each
// leaf linearised its multi-index in 64 bits and issued its broadcast path, predicated off, at
// every 16-byte block, and the sweep counted in 64 bits: the float softmax's max sweep took 26
// instructions per four floats and takes 10 this way, its sum with the stash 65 and 51, the
// bfloat16 max sweep 55 per eight elements and 22 (SASS, sm_90). Element j of the row plan is
// what load_at gives at the row's start plus j along the last axis, bit for bit: the functors
// see the same operands.
//
// Host and device code, so that CPU tests compare the two readings.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "tensorx/core/config.h"
#include "tensorx/core/lanes.h"
#include "tensorx/expr/array_leaf.h"
#include "tensorx/expr/map_exp.h"
#include "tensorx/expr/plan_access.h"
#include "tensorx/reduce/row_fusion.h"
#include "tensorx/shape/dim.h"

namespace tensorx {
namespace detail {

/// `pointer`, which the device compiler may no longer see through: an address computed once per
/// row then stays in registers, where nvcc otherwise folds its computation (the row's start,
/// linearised in 64 bits) into every element's address inside the sweep, six instructions a leaf
/// and 16-byte block where one IMAD.WIDE adds the block's offset (SASS, sm_90).
template <class T>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T* opaque_pointer(T* pointer) {
#if TENSORX_DEVICE_CODE
  auto bits = reinterpret_cast<unsigned long long>(pointer);
  asm("" : "+l"(bits));
  return reinterpret_cast<T*>(bits);
#else
  return pointer;
#endif
}

TENSORX_EXEC_CHECK_DISABLE
template <class Plan, int N>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE auto contiguous_row_of(const Plan& plan,
                                                                const Dim<N>& start);

TENSORX_EXEC_CHECK_DISABLE
template <class R, class F, std::size_t... I, class... Children, int N>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE auto contiguous_map_row(
    const MapPlanOver<R, F, std::index_sequence<I...>, Children...>& plan, const Dim<N>& start) {
  return MapPlan<R, F, decltype(contiguous_row_of(pack_get<I>(plan.children), start))...>{
      plan.functor, {{contiguous_row_of(pack_get<I>(plan.children), start)}...}};
}

/// The row of bound plan `plan` that starts at `start` (rank N, its last coordinate 0), as a
/// dense plan of the row (flat(j), load<V>(j)): array leaves as the rank-1 leaf of their row
/// (every leaf of the pass has unit inner stride: the caller's guarantee), element-wise nodes
/// over their children's rows, anything else through its own at and load_at (RowThroughAt: the
/// same reads as before, for numbers, reduced values, a stashed part's row buffer and nodes whose
/// elements are not in memory, as gathers and generators).
TENSORX_EXEC_CHECK_DISABLE
template <class Plan, int N>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE auto contiguous_row_of(const Plan& plan,
                                                                const Dim<N>& start) {
  if constexpr (is_leaf_plan<Plan>::value) {
    // The row as a dense leaf of its own: flat(j) and load<V>(j) read base[j] (its stride, 1, is
    // never read).
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(plan.data)>>;
    return LeafPlan<T, 1>{opaque_pointer(plan.data + linearize(start, plan.strides)), Dim<1>(1)};
  } else if constexpr (is_map_plan<Plan>::value) {
    return contiguous_map_row(plan, start);
  } else {
    return RowThroughAt<Plan, N>{plan, start};
  }
}

/// True when every array leaf of `plan` (rank-N enclosing space), those its reductions read
/// included, reads its rows with unit stride (none broadcast along them): with 16-byte aligned
/// rows (the blocks read of the GPU row kernel), what FusedLaunch::contiguous_rows asks of the
/// plan.
template <int N, class Plan>
bool reads_unit_rows(const Plan& plan) {
  return every_row_leaf<N>(plan, [](const void*, const auto& strides, std::size_t) {
    return strides.at(std::decay_t<decltype(strides)>::dimensions - 1) == 1;
  });
}

}  // namespace detail
}  // namespace tensorx
