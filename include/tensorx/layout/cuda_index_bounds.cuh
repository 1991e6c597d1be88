// The bounds check of GPU gather indices (see index_bounds.h): one kernel finds the first
// position, in row-major order, whose index names no row of the table; the host reads that one
// number back (a synchronisation) and, if there is one, the index there, to raise IndexError.
// The kernel counts as a pass in tx::stats, since it is a launch that the assignment adds.
#pragma once

#include <cuda_runtime.h>

#include <limits>

#include "tensorx/array/global_ops.h"
#include "tensorx/core/cuda_check.h"
#include "tensorx/core/stats.h"
#include "tensorx/engine/cuda_engine.cuh"
#include "tensorx/engine/gpu_stream.h"
#include "tensorx/layout/index_bounds.h"
#include "tensorx/place/device.h"
#include "tensorx/place/stream.h"

namespace tensorx {
namespace detail {

/// Lowers *first to the flat position of every index outside [0, rows).
template <class I, int K>
__global__ void __launch_bounds__(kCudaThreads)
    find_row_out_of_range(const I* data, Dim<K> dims, Dim<K> strides, index_t count, index_t rows,
                          unsigned long long* first) {
  const index_t step = static_cast<index_t>(gridDim.x) * blockDim.x;
  for (index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += step) {
    const I index = data[linearize(delinearize(i, dims), strides)];
    if (index < 0 || index >= rows) atomicMin(first, static_cast<unsigned long long>(i));
  }
}

/// Checks GPU indices with find_row_out_of_range on the current stream of their device (ordered
/// after the earlier writes to them on any stream); out_of_range(index, position) throws for the
/// first one outside [0, rows).
template <class I, int K, class Thrower>
void check_rows_on_gpu(CudaTranslationUnit, const Array<I, K>& indices, index_t rows,
                       const Thrower& out_of_range) {
  const index_t count = indices.numel();
  if (count == 0) return;
  constexpr auto kNone = std::numeric_limits<unsigned long long>::max();
  const int device = device_of(indices.place());
  cuda::DeviceGuard guard(device);
  Array<unsigned long long, 0> first(Dim<0>(), indices.place());
  fill(first, kNone);
  const StreamHandle stream = ordered_stream(first, indices);
  stats::record_pass();
  find_row_out_of_range<I, K><<<grid_size(count, device), kCudaThreads, 0, stream>>>(
      indices.data(), indices.dims(), indices.strides(), count, rows, first.data());
  TENSORX_CUDA_CHECK(cudaGetLastError());
  const unsigned long long position = first.item();
  if (position == kNone) return;
  const Dim<K> where = delinearize(static_cast<index_t>(position), indices.dims());
  const Array<I, 0> bad(indices.buffer(), Dim<0>(), Dim<0>(),
                        indices.offset() + linearize(where, indices.strides()));
  out_of_range(bad.item(), where);
}

}  // namespace detail
}  // namespace tensorx
