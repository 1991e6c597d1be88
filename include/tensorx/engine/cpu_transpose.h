// The CPU's batched 2-D transpose (see plane_transpose.h): each plane is cut into square blocks of
// kTransposeBlock x kTransposeBlock elements. A block's source rows (unit-stride in the source)
// stay in the L1 cache while the block is written column after column (unit-stride in the
// destination), so every cache line and page is fetched once per block instead of once per
// element, as the element-wise engine's walk down the source's columns does. Blocks are split
// over OpenMP threads above the engine's size threshold.
#pragma once

#include <algorithm>

#if defined(_OPENMP)
#include <omp.h>
#endif

#include "tensorx/array/array.h"
#include "tensorx/core/stats.h"
#include "tensorx/engine/cpu_engine.h"
#include "tensorx/engine/plane_transpose.h"
#include "tensorx/expr/exp.h"

namespace tensorx {
namespace detail {

/// The side of a block: 32 rows of a source block fill 32 cache lines of 4-byte elements at most
/// twice over, far below any L1 cache.
constexpr index_t kTransposeBlock = 32;

/// Copies blocks [first, last) of the batched transpose `plane` from src to dst with Saver.
template <class Saver, class T, int N>
void transpose_blocks(T* dst, const T* src, const PlaneTranspose<N>& plane, index_t first,
                      index_t last) {
  using C = compute_t<T>;
  const index_t row_blocks = (plane.rows + kTransposeBlock - 1) / kTransposeBlock;
  const index_t col_blocks = (plane.cols + kTransposeBlock - 1) / kTransposeBlock;
  for (index_t block = first; block < last; ++block) {
    const index_t col0 = block % col_blocks * kTransposeBlock;
    const index_t row0 = block / col_blocks % row_blocks * kTransposeBlock;
    const auto batch = delinearize(block / (col_blocks * row_blocks), plane.batch);
    const T* source = src + linearize(batch, plane.src_batch_strides);
    T* target = dst + linearize(batch, plane.dst_batch_strides);
    const index_t row1 = std::min(row0 + kTransposeBlock, plane.rows);
    const index_t col1 = std::min(col0 + kTransposeBlock, plane.cols);
    for (index_t r = row0; r < row1; ++r) {
      T* target_row = target + r * plane.dst_row_stride;
      const T* source_row = source + r;
      for (index_t c = col0; c < col1; ++c) {
        C value = static_cast<C>(source_row[c * plane.src_col_stride]);
        if constexpr (Saver::reads_destination) {
          value = Saver::apply(static_cast<C>(target_row[c]), value);
        }
        target_row[c] = to_storage<T>(value);
      }
    }
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
  const index_t total = dst.numel();
  int threads = 1;
#if defined(_OPENMP)
  if (total >= 2 * kParallelGrain && !omp_in_parallel()) {
    threads = static_cast<int>(
        std::min<index_t>({omp_get_max_threads(), total / kParallelGrain, blocks}));
  }
#endif
  if (threads <= 1) {
    transpose_blocks<Saver>(dst.data(), src.data(), plane, 0, blocks);
    return;
  }
#if defined(_OPENMP)
#pragma omp parallel num_threads(threads)
  {
    const index_t part = (blocks + threads - 1) / threads;
    const index_t first = std::min(blocks, part * omp_get_thread_num());
    transpose_blocks<Saver>(dst.data(), src.data(), plane, first, std::min(blocks, first + part));
  }
#endif
}

}  // namespace detail
}  // namespace tensorx
