// The CPU engine: ONE pass over the destination per assignment. Above a size threshold the
// iteration space is cut into chunks that the threads of parallel_for take in turn; each chunk is
// walked row by row (the innermost dimension), every operand's row start computed once and its
// stride hoisted. A destination and operands that are all dense form a single row. Rows whose
// operands all have inner stride 0 or 1 run in SIMD batches when the functors accept batches and
// every element type loads and stores in batches (core/simd_storage.h: bfloat16 does, float16
// does not).
#pragma once

#include <algorithm>

#include "tensorx/array/array.h"
#include "tensorx/core/simd_storage.h"
#include "tensorx/core/stats.h"
#include "tensorx/engine/layout_facts.h"
#include "tensorx/engine/parallel_for.h"
#include "tensorx/engine/simd.h"
#include "tensorx/expr/exp.h"

namespace tensorx {
namespace detail {
TENSORX_ENGINE_NAMESPACE_BEGIN

/// Evaluates elements [j0, j1) of one row into dst (stride dst_stride): in SIMD batches where the
/// types allow them (kSimd) and the layout does (`simd`: every inner stride 0 or 1).
template <bool kSimd, class Saver, class T, class RowPlan>
TENSORX_FORCE_INLINE void run_row(T* dst, index_t dst_stride, const RowPlan& row, index_t j0,
                                  index_t j1, [[maybe_unused]] bool simd) {
  using C = compute_t<T>;
  index_t j = j0;
#if TENSORX_HAS_SIMD
  if constexpr (kSimd) {
    using B = simd_batch_t<C>;
    if (simd) {
      // The last batch's start, computed once: `j + size <= j1` in the condition costs two
      // instructions a batch (a copy and an add) beside the compare, a fifth of a triad's loop.
      const index_t last = j1 - static_cast<index_t>(B::size);
      for (; j <= last; j += B::size) {
        B value = batch_of<B>(row, j);
        if constexpr (Saver::reads_destination) {
          value = Saver::apply(load_batch<B>(dst + j), value);
        }
        store_batch(dst + j, value);
      }
    }
  }
#endif
  for (; j < j1; ++j) {
    T* target = dst + j * dst_stride;
    C value = row.get(j);
    if constexpr (Saver::reads_destination) value = Saver::apply(static_cast<C>(*target), value);
    *target = to_storage<T>(value);
  }
}

/// Evaluates the elements [begin, end) of the row-major iteration space.
template <bool kSimd, class Saver, class T, int N, class Plan>
void run_range(const Array<T, N>& dst, const Plan& plan, bool dense, bool simd, index_t begin,
               index_t end) {
  if (dense) {
    run_row<kSimd, Saver>(dst.data(), 1, flat_row_of(plan), begin, end, simd);
    return;
  }
  if constexpr (N > 0) {
    const Dim<N>& dims = dst.dims();
    const index_t length = dims.at(N - 1);
    Dim<N> index = delinearize(begin, dims);
    index_t j = index.at(N - 1);
    index.at(N - 1) = 0;
    for (index_t done = begin; done < end;) {
      const index_t count = std::min(length - j, end - done);
      run_row<kSimd, Saver>(dst.data() + linearize(index, dst.strides()), dst.strides().at(N - 1),
                            row_of(plan, index), j, j + count, simd);
      done += count;
      j = 0;
      // Next row: an odometer over the outer dimensions.
      for (int i = N - 2; i >= 0; --i) {
        if (++index.at(i) < dims.at(i)) break;
        index.at(i) = 0;
      }
    }
  }
}

/// True when batches of C store to (and load from) destination elements of type T.
template <class T, class C>
constexpr bool dst_storage_vectorizable() {
#if TENSORX_HAS_SIMD
  if constexpr (!std::is_void_v<simd_batch_t<C>>) return batch_storage_v<T, simd_batch_t<C>>;
#endif
  return false;
}

/// Runs one pass evaluating `plan` into `dst` with `Saver`.
/// TU (engine/translation_unit.h) keeps the g++ instantiation, which may use SIMD, and the nvcc
/// one, which does not, distinct symbols.
template <class Saver, class TU, class T, int N, class Plan>
void run_cpu(const Array<T, N>& dst, const Plan& plan) {
  stats::record_pass();
  LayoutFacts<N> facts;
  facts.add(dst.dims(), dst.strides());
  plan.visit_leaves(
      [&](const void*, const Dim<N>& strides, std::size_t) { facts.add(dst.dims(), strides); });
  using C = compute_t<T>;
  constexpr bool kVectorizable = plan_vectorizable<Plan, C>() && Saver::template vectorizes<C> &&
                                 dst_storage_vectorizable<T, C>();
  const bool dense = facts.dense;
  // One instantiation serves every layout (the layout picks SIMD or not at run time): a second,
  // scalar-only copy of the loops per assignment doubled the code each expression compiles to.
  const bool simd = dense || facts.unit_inner;
  parallel_for(dst.numel(), kParallelGrain, [&](index_t begin, index_t end) {
    run_range<kVectorizable, Saver>(dst, plan, dense, simd, begin, end);
  });
}

TENSORX_ENGINE_NAMESPACE_END
}  // namespace detail
}  // namespace tensorx
