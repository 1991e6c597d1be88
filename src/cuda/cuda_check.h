// TENSORX_CUDA_CHECK(call) for the compiled layer (the public check the CUDA engine uses too), and
// cuda_ignore for calls made where nothing may throw. Private to the compiled layer.
#pragma once

#include <cuda_runtime.h>

#include "tensorx/engine/cuda_check.cuh"

namespace tensorx {
namespace detail {

/// Swallows the status of a call made where nothing may throw (destructors), with the same reset
/// of the runtime's last error as cuda_check.
inline void cuda_ignore(cudaError_t status) {
  if (status != cudaSuccess) static_cast<void>(cudaGetLastError());
}

}  // namespace detail
}  // namespace tensorx
