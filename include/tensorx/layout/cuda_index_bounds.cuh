// The bounds check of GPU gather indices (see index_bounds.h): one kernel finds, block by block,
// the first position in row-major order whose index names no row of the table, and writes each
// block's into the thread's report words (memory/kernel_report.h), pinned host memory; the host
// waits for the stream and takes the least: a launch and a synchronisation, where a device word
// to allocate, fill and copy back (pageable) added a fill and a copy to the stream and their host
// calls to every gather. Only if there is a bad index does the host read one more element, the
// index there, to raise IndexError. The kernel counts as a pass in tx::stats, since it is a launch
// that the assignment adds.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <limits>

#include "tensorx/core/cuda_check.h"
#include "tensorx/core/stats.h"
#include "tensorx/engine/cuda_engine.cuh"
#include "tensorx/engine/gpu_stream.h"
#include "tensorx/engine/operand_list.h"
#include "tensorx/layout/index_bounds.h"
#include "tensorx/memory/kernel_report.h"
#include "tensorx/place/device.h"
#include "tensorx/place/stream.h"

namespace tensorx {
namespace detail {

/// A block's report when all its indices name rows.
constexpr unsigned long long kNoBadPosition = std::numeric_limits<unsigned long long>::max();

/// Sets block_first[blockIdx.x] to the least flat position, among those the block visits, of an
/// index outside [0, rows), or to kNoBadPosition. Every block writes its word, so the words need
/// no setting beforehand.
template <class I, int K>
__global__ void __launch_bounds__(kCudaThreads)
    find_row_out_of_range(const I* data, Dim<K> dims, Dim<K> strides, index_t count, index_t rows,
                          unsigned long long* block_first) {
  __shared__ unsigned long long first;
  if (threadIdx.x == 0) first = kNoBadPosition;
  __syncthreads();
  const index_t step = static_cast<index_t>(gridDim.x) * blockDim.x;
  for (index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += step) {
    const I index = data[linearize(delinearize(i, dims), strides)];
    if (index < 0 || index >= rows) {
      // A thread's later positions are larger: its first bad one is all it can contribute.
      atomicMin(&first, static_cast<unsigned long long>(i));
      break;
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) block_first[blockIdx.x] = first;
}

/// Checks GPU indices with find_row_out_of_range on the current stream of their device (ordered
/// after the earlier writes to them on any stream) and waits for it; out_of_range(index, position)
/// throws for the first one outside [0, rows).
template <class I, int K, class Thrower>
void check_rows_on_gpu(CudaTranslationUnit, const Array<I, K>& indices, index_t rows,
                       const Thrower& out_of_range) {
  const index_t count = indices.numel();
  if (count == 0) return;
  const int device = device_of(indices.place());
  cuda::DeviceGuard guard(device);
  OperandList reads;
  collect_operands(indices, reads);
  const StreamHandle stream = ordered_stream(device, nullptr, reads);
  const unsigned blocks = grid_size(count, device);
  unsigned long long* block_first = thread_report_words(blocks);
  stats::record_pass();
  find_row_out_of_range<I, K><<<blocks, kCudaThreads, 0, stream>>>(
      indices.data(), indices.dims(), indices.strides(), count, rows, block_first);
  TENSORX_CUDA_CHECK(cudaGetLastError());
  TENSORX_CUDA_CHECK(cudaStreamSynchronize(stream));
  const unsigned long long position = *std::min_element(block_first, block_first + blocks);
  if (position == kNoBadPosition) return;
  const Dim<K> where = delinearize(static_cast<index_t>(position), indices.dims());
  const Array<I, 0> bad(indices.buffer(), Dim<0>(), Dim<0>(),
                        indices.offset() + linearize(where, indices.strides()));
  out_of_range(bad.item(), where);
}

}  // namespace detail
}  // namespace tensorx
