// The GPU's batched 2-D transpose (see plane_transpose.h): each block of 32 x 8 threads moves
// 32 x 32 tiles through shared memory, reading the next tile while it writes one. A warp reads 32
// consecutive rows of one column, where the source is unit-stride, and later writes 32 consecutive
// columns of one row, where the destination is unit-stride: both coalesced. The tile has one
// padding column, so that the column-wise reads from shared memory fall in 32 different banks.
// Tiles are spread over at most one full wave of blocks by a grid-stride loop.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>

#include "tensorx/array/array.h"
#include "tensorx/core/cuda_check.h"
#include "tensorx/core/stats.h"
#include "tensorx/core/translation_unit.h"
#include "tensorx/engine/cuda_engine.cuh"
#include "tensorx/engine/gpu_stream.h"
#include "tensorx/layout/plane_transpose.h"
#include "tensorx/place/device.h"
#include "tensorx/place/stream.h"

namespace tensorx {
namespace detail {
TENSORX_ENGINE_NAMESPACE_BEGIN

/// The side of a tile, and the rows of it a block's threads cover in one step.
constexpr int kTile = 32;
constexpr int kTileRowsPerStep = kCudaThreads / kTile;

/// Where tile t of a batched transpose starts: its first row and column, and the source and
/// destination planes of its batch.
template <class T>
struct TransposeTile {
  index_t row0;
  index_t col0;
  const T* source;
  T* target;
};

template <class T, int N>
__device__ TENSORX_FORCE_INLINE TransposeTile<T> transpose_tile(T* dst, const T* src,
                                                                const PlaneTranspose<N>& plane,
                                                                index_t row_tiles,
                                                                index_t col_tiles, index_t t) {
  const auto batch = delinearize(t / (col_tiles * row_tiles), plane.batch);
  return {t / col_tiles % row_tiles * kTile, t % col_tiles * kTile,
          src + linearize(batch, plane.src_batch_strides),
          dst + linearize(batch, plane.dst_batch_strides)};
}

/// The elements of a tile each thread moves: kTile / kTileRowsPerStep of a column of it.
constexpr int kTileElementsPerThread = kTile / kTileRowsPerStep;

/// This thread's elements of `tile` from the source, where they lie inside the plane.
template <class T, int N>
__device__ TENSORX_FORCE_INLINE void load_tile_column(const TransposeTile<T>& tile,
                                                      const PlaneTranspose<N>& plane,
                                                      T (&values)[kTileElementsPerThread]) {
  const index_t row = tile.row0 + threadIdx.x;
  TENSORX_UNROLL
  for (int e = 0; e < kTileElementsPerThread; ++e) {
    const index_t col = tile.col0 + threadIdx.y + e * kTileRowsPerStep;
    if (row < plane.rows && col < plane.cols) {
      values[e] = tile.source[row + col * plane.src_col_stride];
    }
  }
}

/// Each tile in two halves: the block's threads read it (a thread a column's kTile /
/// kTileRowsPerStep elements) into shared memory, then write it out transposed. The next tile's
/// reads are issued before the current tile is written, so that they are in flight while it is:
/// with a tile's reads waiting for the writes of the tile before, each multiprocessor had at
/// most its eight blocks' 4 KiB tiles of float reads in flight, half of the time, and the
/// transpose of 8192 x 8192 floats ran at 0.66 of a copy's bandwidth on an H200 (0.87 on an
/// H100, whose memory is slower).
template <class Saver, class T, int N>
__global__ void __launch_bounds__(kCudaThreads)
    tiled_transpose_kernel(T* dst, const T* src, PlaneTranspose<N> plane, index_t row_tiles,
                           index_t col_tiles, index_t tiles) {
  using C = compute_t<T>;
  // Raw bytes: element types with constructors (float16) cannot be __shared__ arrays.
  __shared__ alignas(T) unsigned char storage[sizeof(T) * kTile * (kTile + 1)];
  T(*staged)[kTile + 1] = reinterpret_cast<T(*)[kTile + 1]>(storage);
  index_t t = blockIdx.x;
  if (t >= tiles) return;
  TransposeTile<T> tile = transpose_tile(dst, src, plane, row_tiles, col_tiles, t);
  // Elements outside the plane keep T() or an earlier tile's values: staged, never written out
  // (the writes' bounds are the reads').
  T values[kTileElementsPerThread] = {};
  load_tile_column(tile, plane, values);
  for (;;) {
    TENSORX_UNROLL
    for (int e = 0; e < kTileElementsPerThread; ++e) {
      staged[threadIdx.y + e * kTileRowsPerStep][threadIdx.x] = values[e];
    }
    __syncthreads();
    const index_t next = t + gridDim.x;
    TransposeTile<T> next_tile = tile;
    if (next < tiles) {
      next_tile = transpose_tile(dst, src, plane, row_tiles, col_tiles, next);
      load_tile_column(next_tile, plane, values);
    }
    const index_t col = tile.col0 + threadIdx.x;
    TENSORX_UNROLL
    for (int e = 0; e < kTileElementsPerThread; ++e) {
      const int k = threadIdx.y + e * kTileRowsPerStep;
      const index_t out_row = tile.row0 + k;
      if (out_row < plane.rows && col < plane.cols) {
        save_element<Saver>(tile.target + out_row * plane.dst_row_stride + col,
                            static_cast<C>(staged[threadIdx.x][k]));
      }
    }
    if (next >= tiles) return;
    // The next tile reuses the shared memory.
    __syncthreads();
    t = next;
    tile = next_tile;
  }
}

/// Queues the batched transpose `plane` from src to dst (on one GPU, not empty, not overlapping)
/// as one kernel on the current stream of dst's device, ordered after the earlier uses of both.
/// Throws CudaError when the launch fails.
template <class Saver, class T, int N>
void run_gpu_transpose(CudaTranslationUnit, Saver, const Array<T, N>& dst, const Array<T, N>& src,
                       const PlaneTranspose<N>& plane) {
  const int device = device_of(dst.place());
  cuda::DeviceGuard guard(device);
  const index_t row_tiles = (plane.rows + kTile - 1) / kTile;
  const index_t col_tiles = (plane.cols + kTile - 1) / kTile;
  const index_t tiles = product(plane.batch) * row_tiles * col_tiles;
  const index_t wave = index_t{multiprocessor_count(device)} * kCudaBlocksPerMultiprocessor;
  const StreamHandle stream = ordered_stream(dst, src);
  stats::record_pass();
  tiled_transpose_kernel<Saver, T, N>
      <<<static_cast<unsigned>(std::min(tiles, wave)), dim3(kTile, kTileRowsPerStep), 0, stream>>>(
          dst.data(), src.data(), plane, row_tiles, col_tiles, tiles);
  TENSORX_CUDA_CHECK(cudaGetLastError());
}

TENSORX_ENGINE_NAMESPACE_END
}  // namespace detail
}  // namespace tensorx
