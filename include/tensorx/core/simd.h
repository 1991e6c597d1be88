// The SIMD vocabulary of the CPU loops: xsimd batches of the widest instruction set the
// translation unit is compiled for (-mavx2, -march=native, ...). Without xsimd, or in CUDA
// translation units, the CPU loops run scalar code, which the compiler may still vectorise.
//
// One trap of xsimd 8: on AVX and AVX-512 batches, a != b compares ordered (_CMP_NEQ_OQ) and is
// false where either lane is NaN, where C++ and xsimd's SSE and NEON forms say true. tensorx's
// kernels write !(a == b), and xsimd::isnan for a NaN test; test_x86_64_v3 reruns the math
// and comparison tests on AVX2 batches.
#pragma once

#if !defined(__CUDACC__) && __has_include(<xsimd/xsimd.hpp>)
#include <xsimd/xsimd.hpp>
#define TENSORX_HAS_SIMD 1
#else
#define TENSORX_HAS_SIMD 0
#endif

#include <cstdint>
#include <type_traits>

namespace tensorx {
namespace detail {

#if TENSORX_HAS_SIMD
/// A batch of C when xsimd supports C on this target, else void.
template <class C, class = void>
struct simd_batch {
  using type = void;
};
template <class C>
struct simd_batch<
    C, std::enable_if_t<std::is_same_v<C, float> || std::is_same_v<C, double> ||
                        std::is_same_v<C, std::int32_t> || std::is_same_v<C, std::int64_t>>> {
  using type = xsimd::batch<C>;
};
template <class C>
using simd_batch_t = typename simd_batch<C>::type;
#endif

}  // namespace detail
}  // namespace tensorx
