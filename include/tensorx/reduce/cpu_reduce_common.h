// What the CPU reduction loops share (reduce/cpu_reduce.h): the pairwise combination of partial
// results, the row adaptors through which they read an operand, the one-result writer, and the
// split of their work over parallel_for.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "tensorx/core/stats.h"
#include "tensorx/engine/parallel_for.h"
#include "tensorx/engine/simd.h"
#include "tensorx/expr/plan_access.h"
#include "tensorx/reduce/reduce_geometry.h"
#include "tensorx/reduce/reducers.h"

namespace tensorx {
namespace detail {
TENSORX_ENGINE_NAMESPACE_BEGIN

/// Elements one SIMD block adds before its value joins the pairwise cascade: each of the 32 lanes
/// (4 accumulators of 8 floats) adds at most 32 elements in sequence, which keeps float sums
/// within a few epsilons of the exact sum.
constexpr index_t kReduceBlock = 1024;

/// Pairwise combination of a sequence of values in O(log n) memory: like the carries of a binary
/// counter, two combined groups of 2^k consecutive values become one group of 2^(k + 1).
template <class Op, class A>
class Cascade {
 public:
  void push(A value) {
    int level = 0;
    for (std::uint64_t carry = count_; carry & 1u; carry >>= 1, ++level) {
      value = Op::combine(levels_[level], value);
    }
    levels_[level] = value;
    ++count_;
  }
  /// Every pushed value combined, earliest first; at least one must have been pushed.
  A result() const {
    int level = kLevels - 1;
    while (!((count_ >> level) & 1u)) --level;
    A total = levels_[level];
    while (--level >= 0) {
      if ((count_ >> level) & 1u) total = Op::combine(total, levels_[level]);
    }
    return total;
  }

 private:
  static constexpr int kLevels = 48;
  A levels_[kLevels];
  std::uint64_t count_ = 0;
};

/// values[0], values[stride], ... values[(count - 1) * stride] (count >= 1) combined pairwise.
template <class Op, class A>
A combine_pairwise(const A* values, index_t count, index_t stride) {
  if (count == 1) return values[0];
  const index_t half = count / 2;
  return Op::combine(combine_pairwise<Op>(values, half, stride),
                     combine_pairwise<Op>(values + half * stride, count - half, stride));
}

/// Moves `index` to the next index of `extent` in row-major order over the axes 0 .. last whose
/// extent is not 1 (the others, which another index fills in, stay as they are).
template <int N>
TENSORX_FORCE_INLINE void next_index(Dim<N>& index, const Dim<N>& extent, int last) {
  for (int i = last; i >= 0; --i) {
    if (extent.at(i) == 1) continue;
    if (++index.at(i) < extent.at(i)) return;
    index.at(i) = 0;
  }
}

/// Rows of an operand that is dense in its (merged) space: the plan's one flat row, entered at
/// the row's flat position.
template <class FlatRow>
struct OffsetRow {
  FlatRow row;
  index_t start;

  TENSORX_FORCE_INLINE auto get(index_t j) const { return row.get(start + j); }
  template <class B>
  TENSORX_FORCE_INLINE B batch(index_t j) const {
    return batch_of<B>(row, start + j);
  }
};
template <class FlatRow, int N>
struct FlatRows {
  FlatRow row;
  Dim<N> strides;  // the contiguous strides of the merged space
  TENSORX_FORCE_INLINE OffsetRow<FlatRow> at(const Dim<N>& start) const {
    return {row, linearize(start, strides)};
  }
};
/// Rows of any operand: the plan's row at each start index, strides hoisted.
template <class Plan>
struct PlanRows {
  Plan plan;
  template <int N>
  TENSORX_FORCE_INLINE auto at(const Dim<N>& start) const {
    return row_of(plan, start);
  }
};

/// Writes one result through the saver.
template <class Op, class Saver, class T, class A>
TENSORX_FORCE_INLINE void save_result(T* target, const A& accumulated, index_t count) {
  auto value = Op::finalize(accumulated, count);
  if constexpr (Saver::reads_destination) {
    value = Saver::apply(static_cast<decltype(value)>(*target), value);
  }
  *target = to_storage<T>(value);
}

#if TENSORX_HAS_SIMD
/// The lanes of a SIMD accumulator combined pairwise.
template <class Op, class B>
TENSORX_FORCE_INLINE typename B::value_type combine_lanes(const B& batch) {
  alignas(64) typename B::value_type lanes[B::size];
  batch.store_aligned(lanes);
  for (std::size_t width = B::size / 2; width > 0; width /= 2) {
    for (std::size_t k = 0; k < width; ++k) lanes[k] = Op::combine(lanes[k], lanes[k + width]);
  }
  return lanes[0];
}
#endif

/// Calls f(begin, end) over [0, items) through parallel_for, in chunks of about kParallelGrain of
/// the `elements` that all items read; the results never depend on which thread ran a chunk.
template <class F>
void for_each_part(index_t items, index_t elements, F&& f) {
  parallel_for(items, chunk_items_for(items, elements), f);
}

TENSORX_ENGINE_NAMESPACE_END
}  // namespace detail
}  // namespace tensorx
