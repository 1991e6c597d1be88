// What the CUDA reduction kernels (cuda_reduce_kernels.cuh) read and how their threads combine:
// the operand as a dense three-axis source or a strided one, the loads of partials other blocks
// wrote, and the fixed-order combination of a group's values.
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "tensorx/core/float16.h"
#include "tensorx/core/lanes.h"
#include "tensorx/engine/cuda_launch.cuh"
#include "tensorx/expr/array_leaf.h"
#include "tensorx/expr/plan_access.h"
#include "tensorx/reduce/reduce_geometry.h"
#include "tensorx/reduce/reducers.h"

namespace tensorx {
namespace detail {
TENSORX_ENGINE_NAMESPACE_BEGIN

/// Rows of threads in a column-kernel block; each row is one warp across 32 columns.
constexpr int kColumnThreadRows = kCudaThreads / 32;
/// Rows up to this length are reduced by one warp each, longer ones by a whole block.
constexpr index_t kWarpRowLimit = 2048;
/// Elements a split of a long row takes at least, and rows a split of a column at least.
constexpr index_t kMinRowSplit = 4096;
constexpr index_t kMinColumnSplit = 64;
/// Loads each thread issues before it combines them, to keep enough bytes in flight.
constexpr int kReduceUnroll = 4;
/// The same for a column-kernel thread that takes one column (strided sources, indexed
/// reducers), one element a load; threads of four or eight columns read 16 bytes a load and use
/// kReduceUnroll. With 4, each thread had 16 bytes in flight, and column sums of 8192 x 8192
/// floats kept an H200's DRAM 70% busy, at 0.57 of a device copy (ncu --clock-control none,
/// 2026-11-28); 8 gave 0.59.
constexpr int kColumnUnroll = 8;

/// A dense operand in three-axis form: element (o, r, k) at flat position
/// (o * reduced + r) * inner + k; result (o, k) at o * dst_outer + k * dst_inner.
template <class Plan>
struct DenseSource {
  Plan plan;
  ThreeAxes axes;

  /// The flat position of element (o, 0, k).
  __device__ TENSORX_FORCE_INLINE index_t cursor(index_t o, index_t k) const {
    return o * axes.reduced * axes.inner + k;
  }
  __device__ TENSORX_FORCE_INLINE auto value(index_t cursor, index_t r) const {
    return plan.flat(cursor + r * axes.inner);
  }
  /// Elements r .. r + V - 1 of a row (inner == 1), r a multiple of V.
  template <int V>
  __device__ TENSORX_FORCE_INLINE auto load(index_t cursor, index_t r) const {
    return load_of<V>(plan, cursor + r);
  }
  /// The same elements in two steps, so that a thread issues all its loads before it converts
  /// any: fetch reads them, lanes gives them as the compute type. An array's elements stay as
  /// stored (16 bytes: four registers) in between; any other plan's are computed by fetch. With
  /// the conversion inside each load, the float16 row kernel issued each of its four loads behind
  /// the previous one's eight conversions, each in a branch of its own (SASS, sm_90): about one
  /// 16-byte load in flight a thread where float keeps four, in 63 registers (4 blocks a
  /// multiprocessor), 0.73 of a copy's bandwidth on an H100.
  template <int V>
  __device__ TENSORX_FORCE_INLINE auto fetch(index_t cursor, index_t r) const {
    if constexpr (is_leaf_plan<Plan>::value) {
      return load_block<std::remove_cv_t<std::remove_pointer_t<decltype(plan.data)>>, V>(
          plan.data + cursor + r);
    } else {
      return load_of<V>(plan, cursor + r);
    }
  }
  template <int V, class Fetched>
  __device__ TENSORX_FORCE_INLINE auto lanes(const Fetched& fetched) const {
    if constexpr (is_leaf_plan<Plan>::value) {
      using T = std::remove_cv_t<std::remove_pointer_t<decltype(plan.data)>>;
      return convert_lanes<compute_t<T>>(fetched);
    } else {
      return fetched;
    }
  }
  __device__ TENSORX_FORCE_INLINE index_t dst_offset(index_t, index_t o, index_t k) const {
    return o * axes.dst_outer + k * axes.dst_inner;
  }
};

/// Any operand: result (o, k) is the kept index of flat position o * inner + k, its element r
/// that index plus the reduced index of flat position r, both found by division.
template <class Plan, int N, class Divider>
struct StridedSource {
  using Index = typename Divider::index_type;
  Plan plan;
  IndexSpace<N, Divider> kept;     // over the kept extents, reduced axes of extent 1
  IndexSpace<N, Divider> reduced;  // over the reduced extents, kept axes of extent 1
  Dim<N> dst_strides;
  index_t inner;

  __device__ TENSORX_FORCE_INLINE Dim<N> cursor(index_t o, index_t k) const {
    return kept.index_of(static_cast<Index>(o * inner + k));
  }
  __device__ TENSORX_FORCE_INLINE auto value(const Dim<N>& at, index_t r) const {
    return plan.at(add_dims(at, reduced.index_of(static_cast<Index>(r))));
  }
  __device__ TENSORX_FORCE_INLINE index_t dst_offset(const Dim<N>& at, index_t, index_t) const {
    return linearize(at, dst_strides);
  }
};

template <class A>
__device__ TENSORX_FORCE_INLINE A shuffle_down(const A& value, int delta, int width) {
  return __shfl_down_sync(0xffffffffu, value, delta, width);
}
template <class C>
__device__ TENSORX_FORCE_INLINE Located<C> shuffle_down(const Located<C>& located, int delta,
                                                        int width) {
  return {shuffle_down(located.value, delta, width),
          static_cast<index_t>(shuffle_down(static_cast<long long>(located.index), delta, width))};
}

/// A partial written by another block: read from L2, never from a stale L1 line.
template <class A>
__device__ TENSORX_FORCE_INLINE A load_partial(const A* partial) {
  return __ldcg(partial);
}
template <class C>
__device__ TENSORX_FORCE_INLINE Located<C> load_partial(const Located<C>* partial) {
  return {__ldcg(&partial->value),
          static_cast<index_t>(__ldcg(reinterpret_cast<const long long*>(&partial->index)))};
}

/// The values of each group of `threads` threads (a power of two up to 32, or the whole block)
/// combined into its first thread in a fixed tree; `shared` holds one value per warp. Every
/// thread of the block must call it.
template <class Op, class A>
__device__ A group_combine(A value, int threads, A* shared) {
  const int width = threads < 32 ? threads : 32;
  for (int offset = width / 2; offset > 0; offset /= 2) {
    value = Op::combine(value, shuffle_down(value, offset, width));
  }
  if (threads <= 32) return value;
  if (threadIdx.x % 32 == 0) shared[threadIdx.x / 32] = value;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int warp = 1; warp < kCudaThreads / 32; ++warp) value = Op::combine(value, shared[warp]);
  }
  __syncthreads();
  return value;
}

/// The flag of each group's first thread, in every thread of the group; every thread of the
/// block must call it.
__device__ inline bool group_broadcast(bool flag, int threads, bool* shared) {
  if (threads <= 32) return __shfl_sync(0xffffffffu, flag, 0, threads);
  if (threadIdx.x == 0) *shared = flag;
  __syncthreads();
  flag = *shared;
  __syncthreads();
  return flag;
}

TENSORX_ENGINE_NAMESPACE_END
}  // namespace detail
}  // namespace tensorx
