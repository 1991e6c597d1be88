// Lanes<C, V>: V consecutive elements that one CUDA thread holds in registers, and the aligned
// block accesses that fill and drain them. The CUDA engine's dense kernel evaluates a plan V
// elements at a time through the plans' load<V>(i) (expr/plan_access.h), so that every operand is
// read with 16-byte accesses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "tensorx/core/compute_type.h"
#include "tensorx/core/config.h"
#include "tensorx/core/float_bits.h"

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

#if TENSORX_DEVICE_CODE
/// V stored float16 values as floats, as static_cast<float> gives them: the conversion
/// instruction for all V, then, only where a NaN is among them (its magnitude above 0x7c00, found
/// two at a time by the carry into bit 15 of each half), float16's own conversion, which keeps the
/// NaN's payload. The check is a few integer instructions per pair and its branch is almost never
/// taken; the per-element select of float16's conversion (core/float16.h) needs more registers,
/// for which ptxas sank the row kernel's later loads behind the first one's conversions (SASS,
/// sm_90), and took about four instructions an element where this takes about two (the fused row
/// kernels' float16 sweeps, 2026-12-02).
template <int V>
__device__ __noinline__ Lanes<float, V> float16_lanes_with_nans(LaneBlock<float16, V> block) {
  Lanes<float, V> lanes;
  TENSORX_UNROLL
  for (int k = 0; k < V; ++k) lanes[k] = static_cast<float>(block.values[k]);
  return lanes;
}
template <int V>
__device__ TENSORX_FORCE_INLINE Lanes<float, V> float16_lanes(const LaneBlock<float16, V>& block) {
  static_assert(V % 2 == 0, "float16 lanes are converted two at a time");
  std::uint32_t words[V / 2];
  memcpy(words, &block, sizeof(words));
  std::uint32_t nan = 0;
  TENSORX_UNROLL
  for (int j = 0; j < V / 2; ++j) nan |= ((words[j] & 0x7fff7fffu) + 0x03ff03ffu) & 0x80008000u;
  Lanes<float, V> lanes;
  TENSORX_UNROLL
  for (int k = 0; k < V; ++k) lanes[k] = __half2float(__ushort_as_half(block.values[k].bits()));
  // A call, not inlined code: inlined, its registers counted in the whole row kernel (57 a
  // thread, four blocks a multiprocessor, against 48 and five with the call; sm_90).
  if (nan != 0) lanes = float16_lanes_with_nans(block);
  return lanes;
}
#endif

/// A stored block's elements converted to C.
template <class C, class T, int V>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE Lanes<C, V> convert_lanes(const LaneBlock<T, V>& block) {
#if TENSORX_DEVICE_CODE
  if constexpr (std::is_same_v<T, float16> && std::is_same_v<C, float> && V % 2 == 0) {
    return float16_lanes(block);
  }
#endif
  Lanes<C, V> lanes;
  if constexpr (std::is_same_v<T, bfloat16> && std::is_same_v<C, float> && V % 2 == 0) {
    // A bfloat16 is the top half of its float, so a 32-bit word of two of them gives the first
    // shifted up and the second masked: one instruction each. Converted one by one, the second
    // of a pair was moved down (PRMT) and shifted back up: two (SASS, sm_90).
    std::uint32_t words[V / 2];
    memcpy(words, &block, sizeof(block));
    TENSORX_UNROLL
    for (int w = 0; w < V / 2; ++w) {
      lanes[2 * w] = float_from_bits(words[w] << 16);
      lanes[2 * w + 1] = float_from_bits(words[w] & 0xffff0000u);
    }
  } else {
    TENSORX_UNROLL
    for (int k = 0; k < V; ++k) lanes[k] = static_cast<C>(block.values[k]);
  }
  return lanes;
}

/// Elements data[0 .. V - 1] converted to C (`data` aligned as for load_block).
template <class C, int V, class T>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE Lanes<C, V> load_lanes(const T* data) {
  return convert_lanes<C>(load_block<T, V>(data));
}

#if TENSORX_DEVICE_CODE
/// True when a lane holds a NaN: a PTX comparison per pair of lanes, which no fast-math option
/// of the host compiler can fold away as it may fold `x != x`.
template <int V>
__device__ TENSORX_FORCE_INLINE bool any_nan_lane(const Lanes<float, V>& lanes) {
  static_assert(V % 2 == 0, "lanes are compared two at a time");
  unsigned found = 0;
  TENSORX_UNROLL
  for (int k = 0; k < V; k += 2) {
    asm("{\n\t.reg .pred p;\n\tsetp.nan.f32 p, %1, %2;\n\tselp.u32 %0, 1, %3, p;\n\t}"
        : "=r"(found)
        : "f"(lanes[k]), "f"(lanes[k + 1]), "r"(found));
  }
  return found != 0;
}

/// Float lanes rounded to the narrow float T (bfloat16 or float16) two at a time, with the
/// instructions that round a pair at once (cvt.rn.bf16x2.f32, cvt.rn.f16x2.f32). Their NaN is
/// canonical, where to_storage keeps a NaN's sign and payload, so a block holding a NaN (seldom:
/// four setp a 16-byte block tell) takes to_storage element by element. Element by element,
/// each conversion's NaN select took about four instructions: 27 of the 69 per eight elements
/// of the bfloat16 softmax's output loop (SASS, sm_90).
template <class T, int V>
__device__ __noinline__ LaneBlock<T, V> narrow_each(Lanes<float, V> lanes) {
  LaneBlock<T, V> block;
  TENSORX_UNROLL
  for (int k = 0; k < V; ++k) block.values[k] = to_storage<T>(lanes[k]);
  return block;
}

template <class T, int V>
__device__ TENSORX_FORCE_INLINE LaneBlock<T, V> narrow_pairs(const Lanes<float, V>& lanes) {
  if (any_nan_lane(lanes)) return narrow_each<T>(lanes);
  LaneBlock<T, V> block;
  std::uint32_t words[V / 2];
  TENSORX_UNROLL
  for (int w = 0; w < V / 2; ++w) {
    if constexpr (std::is_same_v<T, bfloat16>) {
      const __nv_bfloat162 pair = __floats2bfloat162_rn(lanes[2 * w], lanes[2 * w + 1]);
      memcpy(&words[w], &pair, sizeof(pair));
    } else {
      const __half2 pair = __floats2half2_rn(lanes[2 * w], lanes[2 * w + 1]);
      memcpy(&words[w], &pair, sizeof(pair));
    }
  }
  memcpy(&block, words, sizeof(block));
  return block;
}
#endif

/// The lanes converted to the element type T, as one stored block.
template <class T, int V, class C>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE LaneBlock<T, V> narrow_lanes(const Lanes<C, V>& lanes) {
#if TENSORX_DEVICE_CODE
  if constexpr (is_narrow_float_v<T> && std::is_same_v<C, float> && V % 2 == 0) {
    return narrow_pairs<T>(lanes);
  }
#endif
  LaneBlock<T, V> block;
  TENSORX_UNROLL
  for (int k = 0; k < V; ++k) block.values[k] = to_storage<T>(lanes[k]);
  return block;
}

/// Writes the lanes, converted to the element type T, to data[0 .. V - 1] (aligned as above; in
/// device code, in global memory: every GPU array is).
template <class T, int V, class C>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE void store_lanes(T* data, const Lanes<C, V>& lanes) {
  const LaneBlock<T, V> block = narrow_lanes<T>(lanes);
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
