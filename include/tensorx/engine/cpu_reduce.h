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

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#if defined(_OPENMP)
#include <omp.h>
#endif

#include "tensorx/core/stats.h"
#include "tensorx/engine/cpu_engine.h"
#include "tensorx/engine/reduce_geometry.h"
#include "tensorx/engine/simd.h"
#include "tensorx/ops/reduce_ops.h"

namespace tensorx {
namespace detail {
TENSORX_ENGINE_NAMESPACE_BEGIN

/// Elements one SIMD block adds before its value joins the pairwise cascade: each of the 32 lanes
/// (4 accumulators of 8 floats) adds at most 32 elements in sequence, which keeps float sums
/// within a few epsilons of the exact sum.
constexpr index_t kReduceBlock = 1024;
/// Elements of one chunk of a row reduction: the unit of work of a thread.
constexpr index_t kReduceChunk = index_t{1} << 14;
/// Input rows one chunk of a column reduction accumulates in sequence.
constexpr index_t kColumnChunkRows = 128;
/// Bytes of accumulators one column tile keeps at most. A tile spans whole input rows up to this
/// size (they then stream through memory in order, which is what hardware prefetchers follow;
/// tiles of part of a row measured several times slower), and stays in the L2 cache.
constexpr std::size_t kColumnTileBytes = std::size_t{1} << 18;

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
    return row.template batch<B>(start + j);
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
    return plan.row(start);
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

/// Elements [j0, j1) (at most kReduceBlock, at least one) of `row` reduced: four SIMD
/// accumulators when kSimd, else four scalar ones (one for the indexed reducers, whose element
/// positions are j).
template <class Op, class C, bool kSimd, class Row>
TENSORX_FORCE_INLINE accumulator_t<Op, C> reduce_block(const Row& row, index_t j0, index_t j1) {
  using A = accumulator_t<Op, C>;
  index_t j = j0;
#if TENSORX_HAS_SIMD
  if constexpr (kSimd) {
    using B = simd_batch_t<C>;
    constexpr index_t kLanes = B::size;
    if (j1 - j0 >= kLanes) {
      B acc0(Op::template identity<C>()), acc1 = acc0, acc2 = acc0, acc3 = acc0;
      for (; j + 4 * kLanes <= j1; j += 4 * kLanes) {
        acc0 = Op::combine(acc0, row.template batch<B>(j));
        acc1 = Op::combine(acc1, row.template batch<B>(j + kLanes));
        acc2 = Op::combine(acc2, row.template batch<B>(j + 2 * kLanes));
        acc3 = Op::combine(acc3, row.template batch<B>(j + 3 * kLanes));
      }
      for (; j + kLanes <= j1; j += kLanes) acc0 = Op::combine(acc0, row.template batch<B>(j));
      C value = combine_lanes<Op>(Op::combine(Op::combine(acc0, acc1), Op::combine(acc2, acc3)));
      for (; j < j1; ++j) value = Op::combine(value, static_cast<C>(row.get(j)));
      return value;
    }
  }
#endif
  if constexpr (!Op::kIndexed) {
    if (j1 - j0 >= 4) {
      A acc0 = row.get(j), acc1 = row.get(j + 1), acc2 = row.get(j + 2), acc3 = row.get(j + 3);
      for (j += 4; j + 4 <= j1; j += 4) {
        acc0 = Op::combine(acc0, static_cast<C>(row.get(j)));
        acc1 = Op::combine(acc1, static_cast<C>(row.get(j + 1)));
        acc2 = Op::combine(acc2, static_cast<C>(row.get(j + 2)));
        acc3 = Op::combine(acc3, static_cast<C>(row.get(j + 3)));
      }
      A value = Op::combine(Op::combine(acc0, acc1), Op::combine(acc2, acc3));
      for (; j < j1; ++j) value = Op::combine(value, static_cast<C>(row.get(j)));
      return value;
    }
  }
  A value = Op::lift(static_cast<C>(row.get(j)), j);
  for (++j; j < j1; ++j) value = Op::combine(value, Op::lift(static_cast<C>(row.get(j)), j));
  return value;
}

/// Elements [j0, j1) (at least one) of `row` reduced, block by block, the blocks pairwise.
template <class Op, class C, bool kSimd, class Row>
accumulator_t<Op, C> reduce_row(const Row& row, index_t j0, index_t j1) {
  if (j1 - j0 <= kReduceBlock) return reduce_block<Op, C, kSimd>(row, j0, j1);
  Cascade<Op, accumulator_t<Op, C>> cascade;
  for (index_t j = j0; j < j1; j += kReduceBlock) {
    cascade.push(reduce_block<Op, C, kSimd>(row, j, std::min(j1, j + kReduceBlock)));
  }
  return cascade.result();
}

/// Calls f(begin, end) for parts of [0, items) on as many OpenMP threads as `elements` (the
/// elements read in all) keep busy; one call on this thread for small work. The parts, about an
/// eighth of a thread's share each, go to whichever thread is free, so that a thread the system
/// pauses holds up one part, not a share; the results never depend on which thread ran a part.
template <class F>
void for_each_part(index_t items, index_t elements, F&& f) {
  int threads = 1;
#if defined(_OPENMP)
  if (elements >= 2 * kParallelGrain && items > 1 && !omp_in_parallel()) {
    threads = static_cast<int>(
        std::min({index_t{omp_get_max_threads()}, elements / kParallelGrain, items}));
  }
#endif
  if (threads <= 1) {
    f(index_t{0}, items);
    return;
  }
  const index_t parts = std::min(items, index_t{threads} * 8);
#if defined(_OPENMP)
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
#endif
  for (index_t part = 0; part < parts; ++part) {
    f(items * part / parts, items * (part + 1) / parts);
  }
}

/// The row loop: the last axis of `space` is reduced. Each result reduces its `count` elements
/// (its rows, in row-major order) in chunks of kReduceChunk.
template <class Op, class Saver, bool kSimd, class C, class T, int N, class Rows>
void reduce_rows(T* dst, const ReduceSpace<N>& space, const Rows& rows) {
  using A = accumulator_t<Op, C>;
  const index_t length = space.dims.at(N - 1);
  const Dim<N> kept = space.kept_dims();
  const Dim<N> reduced = space.reduced_dims();
  Dim<N> rows_extent = reduced;  // the rows of one result
  rows_extent.at(N - 1) = 1;
  const index_t count = product(reduced), outputs = product(kept);
  const index_t chunks = (count + kReduceChunk - 1) / kReduceChunk;
  std::vector<A> partials(chunks > 1 ? static_cast<std::size_t>(outputs * chunks) : 0);

  // Elements [e0, e1) of the result at `origin` (its kept index, zeros elsewhere).
  auto reduce_span = [&](const Dim<N>& origin, index_t e0, index_t e1) {
    index_t j = e0 % length;
    Dim<N> start = add_dims(origin, delinearize(e0 / length, rows_extent));
    if (j + (e1 - e0) <= length) return reduce_row<Op, C, kSimd>(rows.at(start), j, j + e1 - e0);
    Cascade<Op, A> cascade;
    while (e0 < e1) {
      const index_t n = std::min(length - j, e1 - e0);
      cascade.push(reduce_row<Op, C, kSimd>(rows.at(start), j, j + n));
      e0 += n;
      j = 0;
      next_index(start, rows_extent, N - 1);
    }
    return cascade.result();
  };

  for_each_part(outputs * chunks, outputs * count, [&](index_t begin, index_t end) {
    index_t output = begin / chunks, chunk = begin % chunks;
    Dim<N> origin = delinearize(output, kept);
    for (index_t item = begin; item < end; ++item) {
      const index_t e0 = chunk * kReduceChunk;
      const A value = reduce_span(origin, e0, std::min(count, e0 + kReduceChunk));
      if (chunks == 1) {
        save_result<Op, Saver>(dst + linearize(origin, space.dst_strides), value, count);
      } else {
        partials[static_cast<std::size_t>(item)] = value;
      }
      if (++chunk == chunks) {
        chunk = 0;
        next_index(origin, kept, N - 1);
      }
    }
  });
  if (chunks == 1) return;
  for_each_part(outputs, outputs * chunks, [&](index_t begin, index_t end) {
    Dim<N> origin = delinearize(begin, kept);
    for (index_t output = begin; output < end; ++output) {
      save_result<Op, Saver>(dst + linearize(origin, space.dst_strides),
                             combine_pairwise<Op>(&partials[output * chunks], chunks, 1), count);
      next_index(origin, kept, N - 1);
    }
  });
}

/// Combines input rows r0 .. r1 - 1 of one result row, the first at index `start` of the operand
/// (`reduced` the extent of the rows), into tile[0 .. j1 - j0) for columns j0 .. j1 - 1. With
/// kSimd, across the columns and four rows per pass, so that the tile is loaded and stored once
/// for four rows; the indexed reducers row by row, with the row's position.
template <class Op, class C, bool kSimd, int N, class Rows>
void accumulate_rows(accumulator_t<Op, C>* tile, const Rows& rows, Dim<N> start,
                     const Dim<N>& reduced, index_t j0, index_t j1, index_t r0, index_t r1) {
  index_t r = r0;
#if TENSORX_HAS_SIMD
  if constexpr (kSimd) {
    using B = simd_batch_t<C>;
    const index_t vector_end = j0 + (j1 - j0) / static_cast<index_t>(B::size) * B::size;
    for (; r + 4 <= r1; r += 4) {
      const auto row0 = rows.at(start);
      next_index(start, reduced, N - 1);
      const auto row1 = rows.at(start);
      next_index(start, reduced, N - 1);
      const auto row2 = rows.at(start);
      next_index(start, reduced, N - 1);
      const auto row3 = rows.at(start);
      next_index(start, reduced, N - 1);
      for (index_t j = j0; j < vector_end; j += B::size) {
        C* target = tile + (j - j0);
        const B group =
            Op::combine(Op::combine(row0.template batch<B>(j), row1.template batch<B>(j)),
                        Op::combine(row2.template batch<B>(j), row3.template batch<B>(j)));
        Op::combine(B::load_unaligned(target), group).store_unaligned(target);
      }
      for (index_t j = vector_end; j < j1; ++j) {
        const C group = Op::combine(Op::template combine<C>(row0.get(j), row1.get(j)),
                                    Op::template combine<C>(row2.get(j), row3.get(j)));
        tile[j - j0] = Op::combine(tile[j - j0], group);
      }
    }
  }
#endif
  for (; r < r1; ++r) {
    const auto row = rows.at(start);
    for (index_t j = j0; j < j1; ++j) {
      tile[j - j0] = Op::combine(tile[j - j0], Op::lift(static_cast<C>(row.get(j)), r));
    }
    next_index(start, reduced, N - 1);
  }
}

/// The column loop: the last axis of `space` is kept. Each result row (the kept index without
/// the last axis) accumulates its input rows, kColumnChunkRows at a time, into a tile of
/// accumulators across the last axis (several tiles only for rows longer than kColumnTileBytes).
template <class Op, class Saver, bool kSimd, class C, class T, int N, class Rows>
void reduce_columns(T* dst, const ReduceSpace<N>& space, const Rows& rows) {
  using A = accumulator_t<Op, C>;
  constexpr index_t kTile = static_cast<index_t>(kColumnTileBytes / sizeof(A));
  const index_t length = space.dims.at(N - 1);
  Dim<N> kept = space.kept_dims();
  kept.at(N - 1) = 1;  // the result rows
  const Dim<N> reduced = space.reduced_dims();
  const index_t count = product(reduced), result_rows = product(kept);
  const index_t tiles = (length + kTile - 1) / kTile;
  const index_t tile_length = std::min(length, kTile);
  const index_t chunks = (count + kColumnChunkRows - 1) / kColumnChunkRows;
  const index_t dst_step = space.dst_strides.at(N - 1);
  std::vector<A> partials(chunks > 1 ? static_cast<std::size_t>(result_rows * chunks * length) : 0);

  for_each_part(
      result_rows * tiles * chunks, result_rows * length * count, [&](index_t begin, index_t end) {
        std::vector<A> accumulators(static_cast<std::size_t>(tile_length));
        A* tile = accumulators.data();
        for (index_t item = begin; item < end; ++item) {
          const index_t chunk = item % chunks, result_row = item / chunks / tiles;
          const index_t j0 = item / chunks % tiles * kTile, j1 = std::min(length, j0 + kTile);
          const index_t r0 = chunk * kColumnChunkRows, r1 = std::min(count, r0 + kColumnChunkRows);
          const Dim<N> origin = delinearize(result_row, kept);
          for (index_t j = j0; j < j1; ++j) tile[j - j0] = Op::template identity<C>();
          accumulate_rows<Op, C, kSimd>(tile, rows, add_dims(origin, delinearize(r0, reduced)),
                                        reduced, j0, j1, r0, r1);
          if (chunks == 1) {
            T* target = dst + linearize(origin, space.dst_strides);
            for (index_t j = j0; j < j1; ++j) {
              save_result<Op, Saver>(target + j * dst_step, tile[j - j0], count);
            }
          } else {
            std::copy(tile, tile + (j1 - j0),
                      &partials[(result_row * chunks + chunk) * length + j0]);
          }
        }
      });
  if (chunks == 1) return;
  for_each_part(result_rows, result_rows * chunks * length, [&](index_t begin, index_t end) {
    for (index_t result_row = begin; result_row < end; ++result_row) {
      T* target = dst + linearize(delinearize(result_row, kept), space.dst_strides);
      const A* first = &partials[result_row * chunks * length];
      for (index_t j = 0; j < length; ++j) {
        save_result<Op, Saver>(target + j * dst_step,
                               combine_pairwise<Op>(first + j, chunks, length), count);
      }
    }
  });
}

template <class Op, class Saver, bool kSimd, class C, class T, int N, class Rows>
void reduce_space(T* dst, const ReduceSpace<N>& space, const Rows& rows) {
  if (space.is_reduced(N - 1)) {
    reduce_rows<Op, Saver, kSimd, C>(dst, space, rows);
  } else {
    reduce_columns<Op, Saver, kSimd, C>(dst, space, rows);
  }
}

/// reduce_cpu for a plan that is dense in space.dims, on its merged axes, without counting a pass.
template <class Op, class Saver, class T, int N, class Plan>
void reduce_dense(T* dst, const ReduceSpace<N>& space, const Plan& plan) {
  using C = std::decay_t<decltype(plan.at(Dim<N>()))>;
  const ReduceSpace<N> dense = merged(space);
  const FlatRows<decltype(plan.flat_row()), N> rows{plan.flat_row(),
                                                    contiguous_strides(dense.dims)};
  reduce_space<Op, Saver, !Op::kIndexed && plan_vectorizable<Plan, C>(), C>(dst, dense, rows);
}

/// Reduces `plan` (an operand planned over space.dims) with reducer Op into dst (its results at
/// space.dst_strides) through Saver: ONE pass on the calling thread and OpenMP threads. Every
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
  } else if (facts.unit_inner) {
    reduce_space<Op, Saver, kVectorizable, C>(dst, space, PlanRows<Plan>{plan});
  } else {
    reduce_space<Op, Saver, false, C>(dst, space, PlanRows<Plan>{plan});
  }
}

TENSORX_ENGINE_NAMESPACE_END
}  // namespace detail
}  // namespace tensorx
