// The GPU's batched 2-D transpose (see plane_transpose.h): each block of 32 x 8 threads moves
// 32 x 32 tiles through shared memory. A warp reads 32 consecutive rows of one column, where the
// source is unit-stride, and later writes 32 consecutive columns of one row, where the
// destination is unit-stride: both coalesced. The tile has one padding column, so that the
// column-wise reads from shared memory fall in 32 different banks. Tiles are spread over at most
// one full wave of blocks by a grid-stride loop.
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

template <class Saver, class T, int N>
__global__ void __launch_bounds__(kCudaThreads)
    tiled_transpose_kernel(T* dst, const T* src, PlaneTranspose<N> plane, index_t row_tiles,
                           index_t col_tiles, index_t tiles) {
  using C = compute_t<T>;
  // Raw bytes: element types with constructors (float16) cannot be __shared__ arrays.
  __shared__ alignas(T) unsigned char storage[sizeof(T) * kTile * (kTile + 1)];
  T(*tile)[kTile + 1] = reinterpret_cast<T(*)[kTile + 1]>(storage);
  for (index_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const index_t col0 = t % col_tiles * kTile;
    const index_t row0 = t / col_tiles % row_tiles * kTile;
    const auto batch = delinearize(t / (col_tiles * row_tiles), plane.batch);
    const T* source = src + linearize(batch, plane.src_batch_strides);
    T* target = dst + linearize(batch, plane.dst_batch_strides);
    const index_t row = row0 + threadIdx.x;
    for (int k = threadIdx.y; k < kTile; k += kTileRowsPerStep) {
      const index_t col = col0 + k;
      if (row < plane.rows && col < plane.cols) {
        tile[k][threadIdx.x] = source[row + col * plane.src_col_stride];
      }
    }
    __syncthreads();
    const index_t col = col0 + threadIdx.x;
    for (int k = threadIdx.y; k < kTile; k += kTileRowsPerStep) {
      const index_t out_row = row0 + k;
      if (out_row < plane.rows && col < plane.cols) {
        save_element<Saver>(target + out_row * plane.dst_row_stride + col,
                            static_cast<C>(tile[threadIdx.x][k]));
      }
    }
    // The next tile reuses the shared memory.
    __syncthreads();
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
