// The CPU reduction engine: ONE pass over the operand, read through the element-wise plans (rows
// with hoisted strides; one flat row when the operand is dense, after merging its axes). Two
// loops cover every axis set:
//  - rows (the last axis reduced): each result reduces its rows with several SIMD accumulators,
//    one block of kReduceBlock elements at a time, the blocks combined pairwise;
//  - columns (the last axis kept): each result row accumulates whole input rows, four at a time,
//    SIMD across the kept last axis, into a tile of accumulators that stays in cache (never a
//    strided walk down a column).
// The work is cut into chunks that depend on the shape only; a result that spans several chunks
// is combined from their values pairwise in a fixed order, so it is bitwise the same whatever the
// number of threads.
#pragma once

#include <type_traits>

#include "tensorx/core/stats.h"
#include "tensorx/engine/layout_facts.h"
#include "tensorx/reduce/cpu_reduce_columns.h"
#include "tensorx/reduce/cpu_reduce_rows.h"

namespace tensorx {
namespace detail {
TENSORX_ENGINE_NAMESPACE_BEGIN

/// The row loop where the last axis is reduced, the column loop where it is kept; in SIMD batches
/// when the types allow them (kSimd) and the layout does (`simd`).
template <class Op, class Saver, bool kSimd, class C, class T, int N, class Rows>
void reduce_space(T* dst, const ReduceSpace<N>& space, const Rows& rows, bool simd) {
  if (space.is_reduced(N - 1)) {
    reduce_rows<Op, Saver, kSimd, C>(dst, space, rows, simd);
  } else {
    reduce_columns<Op, Saver, kSimd, C>(dst, space, rows, simd);
  }
}

/// reduce_cpu for a plan that is dense in space.dims, on its merged axes, without counting a pass.
template <class Op, class Saver, class T, int N, class Plan>
void reduce_dense(T* dst, const ReduceSpace<N>& space, const Plan& plan) {
  using C = std::decay_t<decltype(plan.at(Dim<N>()))>;
  const ReduceSpace<N> dense = merged(space);
  const FlatRows<decltype(flat_row_of(plan)), N> rows{flat_row_of(plan),
                                                      contiguous_strides(dense.dims)};
  reduce_space<Op, Saver, !Op::kIndexed && plan_vectorizable<Plan, C>(), C>(dst, dense, rows, true);
}

/// Reduces `plan` (an operand planned over space.dims) with reducer Op into dst (its results at
/// space.dst_strides) through Saver: ONE pass on the calling thread and the pool's. Every
/// result must have at least one element to reduce.
template <class Op, class Saver, class T, int N, class Plan>
void reduce_cpu(T* dst, const ReduceSpace<N>& space, const Plan& plan) {
  stats::record_pass();
  using C = std::decay_t<decltype(plan.at(Dim<N>()))>;
  LayoutFacts<N> facts;
  plan.visit_leaves(
      [&](const void*, const Dim<N>& strides, std::size_t) { facts.add(space.dims, strides); });
  constexpr bool kVectorizable = !Op::kIndexed && plan_vectorizable<Plan, C>();
  if (facts.dense) {
    reduce_dense<Op, Saver>(dst, space, plan);
  } else {
    // One instantiation for both layouts, as in the element-wise engine: SIMD is chosen at run
    // time from the inner strides.
    reduce_space<Op, Saver, kVectorizable, C>(dst, space, PlanRows<Plan>{plan}, facts.unit_inner);
  }
}

TENSORX_ENGINE_NAMESPACE_END
}  // namespace detail
}  // namespace tensorx
