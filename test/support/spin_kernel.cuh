// Kernels that keep a stream busy for some milliseconds, for GPU tests of stream order: work queued
// behind a spin on one stream and work on another stream run in the order the test expects only if
// tensorx ordered them, so a missing wait shows as stale or overwritten values. Launch each kernel
// once (warm_spin_kernels) before the spin of a case: CUDA's lazy module loading may wait for
// running kernels when it loads one, which would order the work by itself and hide a missing wait.
#pragma once

#include <cuda_runtime.h>

#include <boost/test/unit_test.hpp>

#include "tensorx/core/config.h"

namespace tensorx {
namespace testing {

/// Cycles of one spin: some milliseconds, far longer than queuing the work behind it takes.
constexpr long long kSpinCycles = 20'000'000;

__device__ inline void spin_for(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

/// Spins, then sets data[0 .. count) to `value` with the block's threads. (A template, also where
/// it fills nothing, so that programs of several units that include this header link.)
template <class T>
__global__ void spin_then_fill_kernel(T* data, index_t count, T value, long long cycles) {
  spin_for(cycles);
  for (index_t i = threadIdx.x; i < count; i += blockDim.x) data[i] = value;
}

/// Keeps `stream` busy for kSpinCycles.
inline void delay(cudaStream_t stream) {
  spin_then_fill_kernel<int><<<1, 1, 0, stream>>>(nullptr, 0, 0, kSpinCycles);
  BOOST_TEST_REQUIRE(cudaGetLastError() == cudaSuccess);
}

/// Queues, on `stream`, a spin of `cycles` and then the fill of data[0 .. count) with `value`.
template <class T>
void spin_then_fill(cudaStream_t stream, T* data, index_t count, T value,
                    long long cycles = kSpinCycles) {
  spin_then_fill_kernel<T><<<1, 256, 0, stream>>>(data, count, value, cycles);
  BOOST_TEST_REQUIRE(cudaGetLastError() == cudaSuccess);
}

/// Loads the spinning kernels (delay's, and spin_then_fill's for each of Ts) and waits for the
/// device.
template <class... Ts>
void warm_spin_kernels() {
  spin_then_fill_kernel<int><<<1, 1>>>(nullptr, 0, 0, 0);
  (spin_then_fill_kernel<Ts><<<1, 1>>>(nullptr, 0, Ts{}, 0), ...);
  static_cast<void>(cudaDeviceSynchronize());
}

}  // namespace testing
}  // namespace tensorx
