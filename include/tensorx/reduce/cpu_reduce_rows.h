// The CPU row loop (the last axis reduced): each result reduces its elements, a row at a time,
// with several SIMD accumulators per block of kReduceBlock elements, the blocks combined pairwise;
// a result of many elements is cut into chunks that threads share and combined in a fixed order.
#pragma once

#include <algorithm>
#include <vector>

#include "tensorx/reduce/cpu_reduce_common.h"

namespace tensorx {
namespace detail {
TENSORX_ENGINE_NAMESPACE_BEGIN

/// Elements of one chunk of a row reduction: the unit of work of a thread.
constexpr index_t kReduceChunk = index_t{1} << 14;

/// Elements [j0, j1) (at most kReduceBlock, at least one) of `row` reduced: four SIMD
/// accumulators when the types allow batches (kSimd) and the layout does (`simd`), else four
/// scalar ones (one for the indexed reducers, whose element positions are j).
template <class Op, class C, bool kSimd, class Row>
TENSORX_FORCE_INLINE accumulator_t<Op, C> reduce_block(const Row& row, index_t j0, index_t j1,
                                                       [[maybe_unused]] bool simd) {
  using A = accumulator_t<Op, C>;
  index_t j = j0;
#if TENSORX_HAS_SIMD
  if constexpr (kSimd) {
    using B = simd_batch_t<C>;
    constexpr index_t kLanes = B::size;
    if (simd && j1 - j0 >= kLanes) {
      B acc0(Op::template identity<C>()), acc1 = acc0, acc2 = acc0, acc3 = acc0;
      for (; j + 4 * kLanes <= j1; j += 4 * kLanes) {
        acc0 = Op::combine(acc0, batch_of<B>(row, j));
        acc1 = Op::combine(acc1, batch_of<B>(row, j + kLanes));
        acc2 = Op::combine(acc2, batch_of<B>(row, j + 2 * kLanes));
        acc3 = Op::combine(acc3, batch_of<B>(row, j + 3 * kLanes));
      }
      for (; j + kLanes <= j1; j += kLanes) acc0 = Op::combine(acc0, batch_of<B>(row, j));
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
/// reduce_block, the loop's whole body, is inlined at one place only (a second call for rows of
/// one block repeated it in every reduction).
template <class Op, class C, bool kSimd, class Row>
accumulator_t<Op, C> reduce_row(const Row& row, index_t j0, index_t j1, bool simd) {
  using A = accumulator_t<Op, C>;
  const index_t blocks = (j1 - j0 + kReduceBlock - 1) / kReduceBlock;
  Cascade<Op, A> cascade;
  for (index_t block = 0;; ++block) {
    const index_t j = j0 + block * kReduceBlock;
    const A value = reduce_block<Op, C, kSimd>(row, j, std::min(j1, j + kReduceBlock), simd);
    if (blocks == 1) return value;
    cascade.push(value);
    if (block + 1 == blocks) return cascade.result();
  }
}

/// The last pass of a row reduction whose results span several chunks: each result (in row-major
/// order of `kept`, at dst_strides) combines its `chunks` partial values pairwise and is saved.
/// It depends on the reducer, the saver and the types only, so it is compiled once for all the
/// operands reduced alike (a lambda inside reduce_rows was compiled again for each).
template <class Op, class Saver, class T, int N, class A>
void save_row_partials(T* dst, const Dim<N>& kept, const Dim<N>& dst_strides,
                       const std::vector<A>& partials, index_t chunks, index_t count) {
  for_each_part(product(kept), product(kept) * chunks, [&](index_t begin, index_t end) {
    Dim<N> origin = delinearize(begin, kept);
    for (index_t output = begin; output < end; ++output) {
      save_result<Op, Saver>(dst + linearize(origin, dst_strides),
                             combine_pairwise<Op>(&partials[output * chunks], chunks, 1), count);
      next_index(origin, kept, N - 1);
    }
  });
}

/// The row loop: the last axis of `space` is reduced. Each result reduces its `count` elements
/// (its rows, in row-major order) in chunks of kReduceChunk; in SIMD batches when kSimd and
/// `simd` (see reduce_block).
template <class Op, class Saver, bool kSimd, class C, class T, int N, class Rows>
void reduce_rows(T* dst, const ReduceSpace<N>& space, const Rows& rows, bool simd) {
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
    if (j + (e1 - e0) <= length)
      return reduce_row<Op, C, kSimd>(rows.at(start), j, j + e1 - e0, simd);
    Cascade<Op, A> cascade;
    while (e0 < e1) {
      const index_t n = std::min(length - j, e1 - e0);
      cascade.push(reduce_row<Op, C, kSimd>(rows.at(start), j, j + n, simd));
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
  if (chunks > 1) {
    save_row_partials<Op, Saver>(dst, kept, space.dst_strides, partials, chunks, count);
  }
}

TENSORX_ENGINE_NAMESPACE_END
}  // namespace detail
}  // namespace tensorx
