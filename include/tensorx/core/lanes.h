// Lanes<C, V>: V consecutive elements that one CUDA thread holds in registers, and the aligned
// block accesses that fill and drain them. The CUDA engine's dense kernel evaluates a plan V
// elements at a time through the plans' load<V>(i) (expr/plan_access.h), so that every operand is
// read with 16-byte accesses.
#pragma once

#include <cstddef>
#include <cstring>

#include "tensorx/core/compute_type.h"
#include "tensorx/core/config.h"

namespace tensorx {
namespace detail {

/// V values of the compute type C, one per lane.
template <class C, int V>
struct Lanes {
  C values[V];

  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE C& operator[](int k) { return values[k]; }
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE const C& operator[](int k) const { return values[k]; }
};

/// The largest power of two, at most 16, that divides `bytes`: the alignment of a block of
/// `bytes` that starts at a multiple of its own size in a 16-byte aligned buffer.
constexpr std::size_t block_alignment(std::size_t bytes) {
  std::size_t alignment = 16;
  while (bytes % alignment != 0) alignment /= 2;
  return alignment;
}

/// V stored elements as one aligned block, so that copying it is one vector access (two or more
/// 16-byte ones when it is larger, as for double operands of a float destination).
template <class T, int V>
struct alignas(block_alignment(sizeof(T) * V)) LaneBlock {
  T values[V];
};

/// The stored block at data[0 .. V - 1]; `data` must be aligned like LaneBlock<T, V>, which holds
/// where the buffer is 16-byte aligned and the element index is a multiple of V.
template <class T, int V>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE LaneBlock<T, V> load_block(const T* data) {
  return *reinterpret_cast<const LaneBlock<T, V>*>(data);
}

/// A stored block's elements converted to C.
template <class C, class T, int V>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE Lanes<C, V> convert_lanes(const LaneBlock<T, V>& block) {
  Lanes<C, V> lanes;
  TENSORX_UNROLL
  for (int k = 0; k < V; ++k) lanes[k] = static_cast<C>(block.values[k]);
  return lanes;
}

/// Elements data[0 .. V - 1] converted to C (`data` aligned as for load_block).
template <class C, int V, class T>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE Lanes<C, V> load_lanes(const T* data) {
  return convert_lanes<C>(load_block<T, V>(data));
}

/// Writes the lanes, converted to the element type T, to data[0 .. V - 1] (aligned as above; in
/// device code, in global memory: every GPU array is).
template <class T, int V, class C>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE void store_lanes(T* data, const Lanes<C, V>& lanes) {
  LaneBlock<T, V> block;
  TENSORX_UNROLL
  for (int k = 0; k < V; ++k) block.values[k] = to_storage<T>(lanes[k]);
#if TENSORX_DEVICE_CODE
  // Whole 16-byte words go out through st.global.v4, written as an asm statement (CUDA's __stwb
  // gives st.global.wb, which ptxas makes a strong store, STG.E.128.STRONG.SM): copied as a
  // LaneBlock, or as uint4 words, the block became four 4-byte stores in the fused row kernels'
  // output loop (PTX st.global.f32 at +0, +4, +8, +12; nvcc 13.0, sm_90), though the dense
  // kernel's same call gave one st.global.v4 and the dense kernels' code is unchanged this way.
  if constexpr (sizeof(block) % 16 == 0) {
    constexpr int kWords = static_cast<int>(sizeof(block) / 16);
    uint4 words[kWords];
    memcpy(words, &block, sizeof(block));
    TENSORX_UNROLL
    for (int w = 0; w < kWords; ++w) {
      asm volatile(
          "st.global.v4.b32 [%0], {%1, %2, %3, %4};" ::"l"(reinterpret_cast<uint4*>(data) + w),
          "r"(words[w].x), "r"(words[w].y), "r"(words[w].z), "r"(words[w].w)
          : "memory");
    }
    return;
  }
#endif
  *reinterpret_cast<LaneBlock<T, V>*>(data) = block;
}

}  // namespace detail
}  // namespace tensorx
