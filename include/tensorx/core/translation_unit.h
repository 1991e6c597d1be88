// Which compiler built the calling translation unit. Entry points that evaluate expressions take it
// as a defaulted template argument, so that a g++-built and an nvcc-built instantiation of the same
// assignment are distinct symbols: the linker can never hand a CUDA caller the host-only copy (or
// the other way round), which would silently break the one-definition rule.
#pragma once

namespace tensorx {
namespace detail {

/// A translation unit compiled as plain C++: GPU destinations cannot be evaluated here.
struct HostTranslationUnit {};
/// A translation unit compiled as CUDA (nvcc or clang): GPU destinations run as kernels.
struct CudaTranslationUnit {};

#if defined(__CUDACC__)
using ThisTranslationUnit = CudaTranslationUnit;
#else
using ThisTranslationUnit = HostTranslationUnit;
#endif

}  // namespace detail
}  // namespace tensorx
