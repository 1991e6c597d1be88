// The CPU column loop (the last axis kept): each result row accumulates whole input rows, four at
// a time, SIMD across the kept last axis, into a tile of accumulators that stays in cache (never a
// strided walk down a column).
#pragma once

#include <algorithm>
#include <vector>

#include "tensorx/reduce/cpu_reduce_common.h"

namespace tensorx {
namespace detail {
TENSORX_ENGINE_NAMESPACE_BEGIN

/// Input rows one chunk of a column reduction accumulates in sequence.
constexpr index_t kColumnChunkRows = 128;
/// Bytes of accumulators one column tile keeps at most. A tile spans whole input rows up to this
/// size (they then stream through memory in order, which is what hardware prefetchers follow;
/// tiles of part of a row measured several times slower), and stays in the L2 cache.
constexpr std::size_t kColumnTileBytes = std::size_t{1} << 18;

/// Combines input rows r0 .. r1 - 1 of one result row, the first at index `start` of the operand
/// (`reduced` the extent of the rows), into tile[0 .. j1 - j0) for columns j0 .. j1 - 1. With
/// kSimd and `simd`, across the columns and four rows per pass, so that the tile is loaded and
/// stored once for four rows; else, and for the indexed reducers, row by row, with the row's
/// position.
template <class Op, class C, bool kSimd, int N, class Rows>
void accumulate_rows(accumulator_t<Op, C>* tile, const Rows& rows, Dim<N> start,
                     const Dim<N>& reduced, index_t j0, index_t j1, index_t r0, index_t r1,
                     [[maybe_unused]] bool simd) {
  index_t r = r0;
#if TENSORX_HAS_SIMD
  if constexpr (kSimd) {
    using B = simd_batch_t<C>;
    const index_t vector_end = j0 + (j1 - j0) / static_cast<index_t>(B::size) * B::size;
    for (; simd && r + 4 <= r1; r += 4) {
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
        const B group = Op::combine(Op::combine(batch_of<B>(row0, j), batch_of<B>(row1, j)),
                                    Op::combine(batch_of<B>(row2, j), batch_of<B>(row3, j)));
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

// The two savers of the column loop depend on the reducer, the saver and the types only: as
// functions of their own they are compiled once for all the operands reduced alike (as lambdas
// inside reduce_columns they were compiled again for each, two thirds of its code).

/// Saves `n` results from `tile`, the first at `target`, `step` apart.
template <class Op, class Saver, class T, class A>
void save_tile(T* target, index_t step, const A* tile, index_t n, index_t count) {
  for (index_t j = 0; j < n; ++j) save_result<Op, Saver>(target + j * step, tile[j], count);
}

/// The last pass of a column reduction cut into chunks: each result row (in row-major order of
/// `kept`, its last extent 1) combines, for each of its `length` columns, the `chunks` partial
/// values pairwise and saves them at dst_strides.
template <class Op, class Saver, class T, int N, class A>
void save_column_partials(T* dst, const Dim<N>& kept, const Dim<N>& dst_strides, index_t length,
                          const std::vector<A>& partials, index_t chunks, index_t count) {
  const index_t result_rows = product(kept);
  for_each_part(result_rows, result_rows * chunks * length, [&](index_t begin, index_t end) {
    for (index_t result_row = begin; result_row < end; ++result_row) {
      T* target = dst + linearize(delinearize(result_row, kept), dst_strides);
      const A* first = &partials[result_row * chunks * length];
      for (index_t j = 0; j < length; ++j) {
        save_result<Op, Saver>(target + j * dst_strides.at(N - 1),
                               combine_pairwise<Op>(first + j, chunks, length), count);
      }
    }
  });
}

/// The column loop: the last axis of `space` is kept. Each result row (the kept index without
/// the last axis) accumulates its input rows, kColumnChunkRows at a time, into a tile of
/// accumulators across the last axis (several tiles only for rows longer than kColumnTileBytes);
/// in SIMD batches when kSimd and `simd` (see accumulate_rows).
template <class Op, class Saver, bool kSimd, class C, class T, int N, class Rows>
void reduce_columns(T* dst, const ReduceSpace<N>& space, const Rows& rows, bool simd) {
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
                                        reduced, j0, j1, r0, r1, simd);
          if (chunks == 1) {
            save_tile<Op, Saver>(dst + linearize(origin, space.dst_strides) + j0 * dst_step,
                                 dst_step, tile, j1 - j0, count);
          } else {
            std::copy(tile, tile + (j1 - j0),
                      &partials[(result_row * chunks + chunk) * length + j0]);
          }
        }
      });
  if (chunks > 1) {
    save_column_partials<Op, Saver>(dst, kept, space.dst_strides, length, partials, chunks, count);
  }
}

TENSORX_ENGINE_NAMESPACE_END
}  // namespace detail
}  // namespace tensorx
