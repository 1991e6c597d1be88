// TENSORX_CUDA_CHECK(call): turns a failed CUDA runtime call into a CudaError that carries the
// error's name, its description and where it happened. Public, because the CUDA engine launches its
// kernels from users' CUDA translation units; the compiled layer uses the same check, and
// cuda_ignore for calls made where nothing may throw. Include only where CUDA is available.
#pragma once

#include <cuda_runtime.h>

#include "tensorx/core/error.h"

namespace tensorx {
namespace detail {

/// Throws CudaError for any status but cudaSuccess.
inline void cuda_check(cudaError_t status, const char* file, int line) {
  if (status == cudaSuccess) return;
  // A failed call also becomes the runtime's "last error"; reset it so that the launch check of a
  // later, unrelated kernel does not report this failure a second time.
  static_cast<void>(cudaGetLastError());
  throw CudaError(cudaGetErrorName(status), cudaGetErrorString(status), file, line);
}

/// Swallows the status of a call made where nothing may throw (destructors), with the same reset
/// of the runtime's last error as cuda_check.
inline void cuda_ignore(cudaError_t status) {
  if (status != cudaSuccess) static_cast<void>(cudaGetLastError());
}

}  // namespace detail
}  // namespace tensorx

#define TENSORX_CUDA_CHECK(call) ::tensorx::detail::cuda_check((call), __FILE__, __LINE__)
