// Four-entry table lookups per lane, for kernels that pick their constants by interval (erf): on
// x86 batches of eight floats with FMA (AVX2's -march=x86-64-v3 and -march=native), vpermilps
// takes for every lane the entry its index names from a table of four floats repeated in both
// 128-bit halves, one instruction issued like an FMA. On Zen 3, AVX2's cross-lane vpermps (eight
// entries) takes 2.5 times its issue slots and a gather 19 times (bench/HISTORY.md, the
// thirty-first run). Other batches (SSE, AVX-512, NEON) have no such lookup here: kHasLaneTables<A>
// says which, and kernels keep another form for them.
#pragma once

#include <cstdint>
#include <type_traits>

#include "tensorx/core/config.h"
#include "tensorx/core/simd.h"

#if TENSORX_HAS_SIMD && defined(__AVX__) && defined(__FMA__)
#include <immintrin.h>
#define TENSORX_HAS_LANE_TABLES 1
#else
#define TENSORX_HAS_LANE_TABLES 0
#endif

#if TENSORX_HAS_SIMD

namespace tensorx {
namespace detail {

/// Whether float batches of architecture A have lane_table: eight floats in one AVX register,
/// with FMA (the kernels that use it count on fused multiply-adds for their accuracy).
template <class A>
constexpr bool kHasLaneTables =
#if TENSORX_HAS_LANE_TABLES
    std::is_same_v<typename xsimd::batch<float, A>::register_type, __m256>;
#else
    false;
#endif

#if TENSORX_HAS_LANE_TABLES
/// table[index[l]] in every lane l; each index in [0, 4) (only its two low bits are read).
template <class A>
TENSORX_FORCE_INLINE xsimd::batch<float, A> lane_table(const float (&table)[4],
                                                       const xsimd::batch<std::int32_t, A>& index) {
  static_assert(kHasLaneTables<A>, "lane_table takes batches of eight floats");
  // Built from the values (constants where the table is), not loaded through a pointer: a
  // constant register stays out of the loop that calls this, a load stays in it.
  const __m256 entries = _mm256_setr_ps(table[0], table[1], table[2], table[3], table[0], table[1],
                                        table[2], table[3]);
  return _mm256_permutevar_ps(entries, index);
}
#endif

}  // namespace detail
}  // namespace tensorx

#endif
