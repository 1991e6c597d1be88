// Portability macros and the index type shared by every layer of tensorx.
// Everything here must compile in plain C++ and in CUDA translation units alike.
#pragma once

#include <cstdint>

namespace tensorx {

/// Signed 64-bit index used for every extent, stride and offset.
using index_t = std::int64_t;

}  // namespace tensorx

#if defined(__CUDACC__)
#define TENSORX_HOST_DEVICE __host__ __device__
#define TENSORX_DEVICE __device__
#define TENSORX_FORCE_INLINE __forceinline__
#else
#define TENSORX_HOST_DEVICE
#define TENSORX_DEVICE
#define TENSORX_FORCE_INLINE inline __attribute__((always_inline))
#endif

// True while compiling code that runs on a GPU (the device pass of nvcc or clang CUDA).
#if defined(__CUDA_ARCH__)
#define TENSORX_DEVICE_CODE 1
#else
#define TENSORX_DEVICE_CODE 0
#endif
