// How a SIMD batch of a compute type loads from and stores to elements in memory. An element type
// that is its own compute type loads and stores directly. bfloat16 is the top half of a float, so
// a batch of floats loads from it with one widening move and a 16-bit shift, and stores to it with
// the rounding add of core/bfloat16.h and one narrowing move: a handful of instructions per batch,
// where lane-by-lane conversion through memory costs more than the whole computation. This is
// written for x86 registers of 16 (SSE2), 32 (AVX2) and 64 bytes (AVX-512F); elsewhere, and for
// float16 (whose portable conversion branches on subnormals), the CPU loops stay scalar.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "tensorx/core/bfloat16.h"
#include "tensorx/core/config.h"
#include "tensorx/core/simd.h"

// <immintrin.h> declares every x86 instruction set and costs a third of a second of every
// translation unit that includes tensorx; a baseline (SSE2) build needs only <emmintrin.h>.
#if TENSORX_HAS_SIMD && (defined(__AVX2__) || defined(__AVX512F__))
#include <immintrin.h>
#elif TENSORX_HAS_SIMD && defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace tensorx {
namespace detail {

#if TENSORX_HAS_SIMD

// widen_bfloat16(data, R) reads as many bfloat16 elements as a float register R holds and returns
// them as floats (each pattern shifted into the top half of a 32-bit lane); narrow_bfloat16(data,
// high) writes the low 16 bits of each 32-bit lane of `high`, which holds sign-extended values.
#if defined(__SSE2__)
TENSORX_FORCE_INLINE __m128 widen_bfloat16(const bfloat16* data, __m128) {
  const __m128i bits = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(data));
  return _mm_castsi128_ps(_mm_unpacklo_epi16(_mm_setzero_si128(), bits));
}
TENSORX_FORCE_INLINE void narrow_bfloat16(bfloat16* data, __m128i high) {
  _mm_storel_epi64(reinterpret_cast<__m128i*>(data), _mm_packs_epi32(high, high));
}
#endif
#if defined(__AVX2__)
TENSORX_FORCE_INLINE __m256 widen_bfloat16(const bfloat16* data, __m256) {
  const __m128i bits = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data));
  return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(bits), 16));
}
TENSORX_FORCE_INLINE void narrow_bfloat16(bfloat16* data, __m256i high) {
  const __m128i packed =
      _mm_packs_epi32(_mm256_castsi256_si128(high), _mm256_extracti128_si256(high, 1));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(data), packed);
}
#endif
#if defined(__AVX512F__)
TENSORX_FORCE_INLINE __m512 widen_bfloat16(const bfloat16* data, __m512) {
  const __m256i bits = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(data));
  return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(bits), 16));
}
TENSORX_FORCE_INLINE void narrow_bfloat16(bfloat16* data, __m512i high) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(data), _mm512_cvtepi32_epi16(high));
}
#endif

/// Whether widen_bfloat16 and narrow_bfloat16 exist for float registers of `bytes` bytes.
constexpr bool has_bfloat16_registers(std::size_t bytes) {
  return
#if defined(__SSE2__)
      bytes == 16 ||
#endif
#if defined(__AVX2__)
      bytes == 32 ||
#endif
#if defined(__AVX512F__)
      bytes == 64 ||
#endif
      false;
}

/// The bfloat16 patterns of a batch of floats, rounded to nearest even with NaNs kept quiet, in the
/// low 16 bits of 32-bit lanes (sign-extended): float_to_bfloat16_bits lane by lane.
template <class B>
TENSORX_FORCE_INLINE auto bfloat16_patterns(const B& values) {
  using I = xsimd::batch<std::int32_t, typename B::arch_type>;
  const I bits = xsimd::bitwise_cast<I>(values);
  // Integer lanes wrap: the addition is the unsigned one on the bit patterns.
  const I rounded = bits + I(0x7fff) + ((bits >> 16) & I(1));
  const auto nan = (bits & I(0x7fffffff)) > I(0x7f800000);
  return xsimd::select(nan, bits | I(0x00400000), rounded) >> 16;
}

#endif  // TENSORX_HAS_SIMD

/// True when batches of type B load from and store to elements of type T (a batch of the element
/// type itself, or floats from bfloat16 where the target has the registers for it).
template <class T, class B>
constexpr bool batch_storage_v = [] {
#if TENSORX_HAS_SIMD
  if constexpr (std::is_same_v<T, bfloat16> && std::is_same_v<typename B::value_type, float>) {
    return has_bfloat16_registers(sizeof(typename B::register_type));
  }
#endif
  return std::is_same_v<T, typename B::value_type>;
}();

/// Elements data[0 .. B::size - 1] as a batch B (batch_storage_v<T, B>; any alignment).
template <class B, class T>
TENSORX_FORCE_INLINE B load_batch(const T* data) {
  if constexpr (std::is_same_v<T, typename B::value_type>) {
    return B::load_unaligned(data);
  } else {
#if TENSORX_HAS_SIMD
    return B(widen_bfloat16(data, typename B::register_type{}));
#endif
  }
}

/// Writes the lanes of `batch` to data[0 .. B::size - 1] (batch_storage_v<T, B>; any alignment).
template <class T, class B>
TENSORX_FORCE_INLINE void store_batch(T* data, const B& batch) {
  if constexpr (std::is_same_v<T, typename B::value_type>) {
    batch.store_unaligned(data);
  } else {
#if TENSORX_HAS_SIMD
    const auto patterns = bfloat16_patterns(batch);
    narrow_bfloat16(data, static_cast<typename decltype(patterns)::register_type>(patterns));
#endif
  }
}

}  // namespace detail
}  // namespace tensorx
