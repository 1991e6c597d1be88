// Portability macros and the index type shared by every layer of tensorx.
// Everything here must compile in plain C++ and in CUDA translation units alike.
#pragma once

#include <cstdint>

/// Everything public in tensorx (`namespace tx = tensorx;` in the examples). Implementation names
/// live in tensorx::detail and are not part of the API.
namespace tensorx {

/// Signed 64-bit index used for every extent, stride and offset.
using index_t = std::int64_t;

}  // namespace tensorx

#if defined(__CUDACC__)
#define TENSORX_HOST_DEVICE __host__ __device__
#define TENSORX_DEVICE __device__
#else
#define TENSORX_HOST_DEVICE
#define TENSORX_DEVICE
#endif

// The SIMD kernels and element evaluation are inlined by force into the loops that use them, where
// the compiler optimises: in device code (which nvcc always optimises) and in optimised host code.
// In unoptimised host code (-O0: Debug builds, sanitizer builds, the host half of the CUDA tests)
// nothing else is inlined and forcing it only copies every expression's whole evaluation into
// each loop: a test unit compiled 28% faster under ASan without it (test/layout, 60 s to 44 s),
// and the results are the same.
#if !defined(__CUDA_ARCH__) && !defined(__OPTIMIZE__)
#define TENSORX_FORCE_INLINE inline
#elif defined(__CUDACC__)
#define TENSORX_FORCE_INLINE __forceinline__
#else
#define TENSORX_FORCE_INLINE inline __attribute__((always_inline))
#endif

// True while compiling code that runs on a GPU (the device pass of nvcc or clang CUDA).
// Before a __host__ __device__ function template that calls what its template arguments provide,
// host-only for some (the CPU engine's) and device-only for others (a kernel's): nvcc then checks
// each instantiation only where it is compiled, instead of warning about the other side.
#if defined(__CUDACC__) && !defined(__clang__)
#define TENSORX_EXEC_CHECK_DISABLE _Pragma("nv_exec_check_disable")
#else
#define TENSORX_EXEC_CHECK_DISABLE
#endif

#if defined(__CUDA_ARCH__)
#define TENSORX_DEVICE_CODE 1
#else
#define TENSORX_DEVICE_CODE 0
#endif

// Unrolls the loop that follows in device code, where lanes must stay in registers: a lane index
// that is not a compile-time constant moves the lanes to local memory. Host compilers would warn
// about the pragma, and host code never walks lanes.
#if TENSORX_DEVICE_CODE
#define TENSORX_UNROLL _Pragma("unroll")
#else
#define TENSORX_UNROLL
#endif

// The namespace of tensorx's engines: the loops and kernels that compute, and the geometry they run
// on. Their inline functions and templates are weak symbols, of which the linker keeps one copy
// per program; were the compiled layer's copies and a user's the same symbols, a user's copy,
// built with other flags or by a compiler that gets it wrong, would replace the compiled layer's
// at link time (g++ 12.2 at -O1 miscompiled the reduction geometry, and libtensorx's DArray
// reductions then wrote past their results). libtensorx is built with TENSORX_COMPILED_LAYER, so
// its engines are distinct symbols that only it calls. Inline, so callers name none of this:
//   namespace detail {
//   TENSORX_ENGINE_NAMESPACE_BEGIN
//   ...
//   TENSORX_ENGINE_NAMESPACE_END
//   }  // namespace detail
#if defined(TENSORX_COMPILED_LAYER)
#define TENSORX_ENGINE_NAMESPACE_BEGIN inline namespace compiled_layer_engine {
#else
#define TENSORX_ENGINE_NAMESPACE_BEGIN inline namespace engine {
#endif
#define TENSORX_ENGINE_NAMESPACE_END }
