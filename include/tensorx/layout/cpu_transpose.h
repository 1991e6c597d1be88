// The CPU's batched 2-D transpose (see plane_transpose.h): each plane is cut into blocks of
// kTransposeBlock x kTransposeBlock elements, whose source rows and destination rows stay in the
// cache while the block is copied, and a block into tiles of kTransposeTile x kTransposeTile.
// A tile is read along the source's rows into a local array and written from it along the
// destination's rows, so that both streams are unit-stride and the transposition itself happens
// in registers or the L1 cache. The element-wise engine instead reads the source with a large
// stride at every element (bench/layout_bench.cpp: 8 to 11 times slower on 4096 x 4096 floats).
// Blocks are shared out through parallel_for above the engine's size threshold.
#pragma once

#include <algorithm>

#include "tensorx/array/array.h"
#include "tensorx/core/stats.h"
#include "tensorx/engine/cpu_engine.h"
#include "tensorx/expr/exp.h"
#include "tensorx/layout/plane_transpose.h"

namespace tensorx {
namespace detail {
TENSORX_ENGINE_NAMESPACE_BEGIN

/// The side of a block and of a tile (sizes measured best on 4096 x 4096 floats).
constexpr index_t kTransposeBlock = 64;
constexpr int kTransposeTile = 8;

/// Writes `value` to `target` through Saver, computing in C.
template <class Saver, class T>
TENSORX_FORCE_INLINE void save_transposed(T* target, const T& value) {
  using C = compute_t<T>;
  C result = static_cast<C>(value);
  if constexpr (Saver::reads_destination) result = Saver::apply(static_cast<C>(*target), result);
  *target = to_storage<T>(result);
}

/// Copies rows [row0, row1) x columns [col0, col1) of one plane element by element.
template <class Saver, class T>
void transpose_rectangle(T* target, const T* source, index_t src_col_stride, index_t dst_row_stride,
                         index_t row0, index_t row1, index_t col0, index_t col1) {
  for (index_t r = row0; r < row1; ++r) {
    for (index_t c = col0; c < col1; ++c) {
      save_transposed<Saver>(target + r * dst_row_stride + c, source[r + c * src_col_stride]);
    }
  }
}

/// Copies one full tile whose first element is source[0] and target[0].
template <class Saver, class T>
TENSORX_FORCE_INLINE void transpose_tile(T* target, const T* source, index_t src_col_stride,
                                         index_t dst_row_stride) {
  T tile[kTransposeTile][kTransposeTile];
  for (int c = 0; c < kTransposeTile; ++c) {
    for (int r = 0; r < kTransposeTile; ++r) tile[c][r] = source[r + c * src_col_stride];
  }
  for (int r = 0; r < kTransposeTile; ++r) {
    for (int c = 0; c < kTransposeTile; ++c) {
      save_transposed<Saver>(target + r * dst_row_stride + c, tile[c][r]);
    }
  }
}

/// Copies blocks [first, last) of the batched transpose `plane` from src to dst with Saver.
template <class Saver, class T, int N>
void transpose_blocks(T* dst, const T* src, const PlaneTranspose<N>& plane, index_t first,
                      index_t last) {
  const index_t row_blocks = (plane.rows + kTransposeBlock - 1) / kTransposeBlock;
  const index_t col_blocks = (plane.cols + kTransposeBlock - 1) / kTransposeBlock;
  const index_t scs = plane.src_col_stride, drs = plane.dst_row_stride;
  for (index_t block = first; block < last; ++block) {
    const index_t col0 = block % col_blocks * kTransposeBlock;
    const index_t row0 = block / col_blocks % row_blocks * kTransposeBlock;
    const auto batch = delinearize(block / (col_blocks * row_blocks), plane.batch);
    const T* source = src + linearize(batch, plane.src_batch_strides);
    T* target = dst + linearize(batch, plane.dst_batch_strides);
    const index_t row1 = std::min(row0 + kTransposeBlock, plane.rows);
    const index_t col1 = std::min(col0 + kTransposeBlock, plane.cols);
    // Whole tiles, then the strips along the block's far edges that no whole tile covers.
    const index_t tiled_rows = row0 + (row1 - row0) / kTransposeTile * kTransposeTile;
    const index_t tiled_cols = col0 + (col1 - col0) / kTransposeTile * kTransposeTile;
    for (index_t r = row0; r < tiled_rows; r += kTransposeTile) {
      for (index_t c = col0; c < tiled_cols; c += kTransposeTile) {
        transpose_tile<Saver>(target + r * drs + c, source + r + c * scs, scs, drs);
      }
    }
    transpose_rectangle<Saver>(target, source, scs, drs, row0, tiled_rows, tiled_cols, col1);
    transpose_rectangle<Saver>(target, source, scs, drs, tiled_rows, row1, col0, col1);
  }
}

/// Runs the batched transpose `plane` from src to dst (not empty, not overlapping) as one pass.
template <class Saver, class T, int N>
void run_cpu_transpose(const Array<T, N>& dst, const Array<T, N>& src,
                       const PlaneTranspose<N>& plane) {
  stats::record_pass();
  const index_t blocks = product(plane.batch) *
                         ((plane.rows + kTransposeBlock - 1) / kTransposeBlock) *
                         ((plane.cols + kTransposeBlock - 1) / kTransposeBlock);
  parallel_for(blocks, std::max<index_t>(1, kParallelGrain / (kTransposeBlock * kTransposeBlock)),
               [&](index_t first, index_t last) {
                 transpose_blocks<Saver>(dst.data(), src.data(), plane, first, last);
               });
}

TENSORX_ENGINE_NAMESPACE_END
}  // namespace detail
}  // namespace tensorx
