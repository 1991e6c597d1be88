// save_results: the kernel that writes computed results into a destination of any (outer, inner)
// strides through a saver. The compiled GPU reductions apply the savers that read the destination
// with it, after reducing into a dense temporary, and write the results of empty reductions.
// Private to src/.
#pragma once

#include <cuda_runtime.h>

#include "tensorx/core/stats.h"
#include "tensorx/reduce/cuda_reduce.cuh"

namespace tensorx {
namespace detail {

/// Results stored densely in the element type R.
template <class R>
struct StoredValues {
  const R* values;
  __device__ compute_t<R> operator()(index_t i) const {
    return static_cast<compute_t<R>>(values[i]);
  }
};

/// One value for every result (the finalized identity of an empty reduction).
template <class C>
struct ConstantValue {
  C value;
  __device__ C operator()(index_t) const { return value; }
};

template <class Saver, class T, class Values>
__global__ void __launch_bounds__(kCudaThreads)
    save_results_kernel(T* dst, Values values, ThreeAxes axes) {
  const index_t count = axes.outer * axes.inner;
  const index_t step = index_t{gridDim.x} * blockDim.x;
  for (index_t i = index_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count; i += step) {
    const index_t o = i / axes.inner, k = i - o * axes.inner;
    save_element<Saver>(dst + o * axes.dst_outer + k * axes.dst_inner, values(i));
  }
}

/// Queues save_results_kernel for every result of `axes` on `stream` (one pass).
template <class Saver, class T, class Values>
void save_results(T* dst, const Values& values, const ThreeAxes& axes, int device,
                  StreamHandle stream) {
  stats::record_pass();
  const auto blocks = static_cast<unsigned>(std::max<index_t>(
      1, std::min(ceil_div(axes.outer * axes.inner, kCudaThreads), 4 * wave_blocks(device))));
  save_results_kernel<Saver><<<blocks, kCudaThreads, 0, stream>>>(dst, values, axes);
  TENSORX_CUDA_CHECK(cudaGetLastError());
}

}  // namespace detail
}  // namespace tensorx
