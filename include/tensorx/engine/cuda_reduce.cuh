// The CUDA reduction engine: ONE kernel launch per reduction, fused with its element-wise operand,
// on the current stream of the destination's device. Two kernels cover every axis set:
//  - rows (the last axis reduced, or every axis): a group of threads per result (up to a warp for
//    short rows, the whole block for long ones), combined with warp shuffles. When there are too
//    few results to fill the GPU (a full reduction has one), each result is split over several
//    groups whose values go to scratch memory; the LAST group to finish a result, found with an
//    atomic ticket after __threadfence, combines them in split order;
//  - columns (the last axis kept): the 32 threads of a warp across the kept last axis (coalesced),
//    eight warps down the reduced axes, combined through shared memory in a fixed order; too few
//    columns to fill the GPU are split along the reduced axes, with a ticket per column tile.
// A dense operand is read in the three-axis form (outer, reduced, inner) of its merged axes, with
// 16-byte loads for rows; any other through its multi-index. Every grouping depends only on the
// shape and the device, so the same input gives bitwise the same result on every run. Values
// accumulate in the compute type (float for float16). Scratch memory comes from the
// stream-ordered allocator. Included by engine/reduce_assign.h in CUDA translation units only.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "tensorx/core/stats.h"
#include "tensorx/engine/cpu_engine.h"
#include "tensorx/engine/cuda_check.cuh"
#include "tensorx/engine/cuda_engine.cuh"
#include "tensorx/engine/reduce_geometry.h"
#include "tensorx/expr/lanes.h"
#include "tensorx/memory/allocation.h"
#include "tensorx/ops/reduce_ops.h"
#include "tensorx/place/device.h"
#include "tensorx/place/stream.h"

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
    return plan.template load<V>(cursor + r);
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

/// What the row kernel reduces: `outputs` results of `reduced` elements, each cut into `splits`
/// pieces of split_length (a multiple of the vector width), one group of threads per piece.
struct RowWork {
  index_t outputs;
  index_t reduced;
  index_t split_length;
  int splits;
  int group_threads;  // a power of two up to 32, or kCudaThreads
};

template <class Op, class Saver, int V, class C, class T, class Source>
__global__ void __launch_bounds__(kCudaThreads)
    reduce_rows_kernel(T* dst, Source source, RowWork work, accumulator_t<Op, C>* partials,
                       unsigned* tickets) {
  using A = accumulator_t<Op, C>;
  __shared__ A warp_values[kCudaThreads / 32];
  __shared__ bool last_flag;
  const int threads = work.group_threads;
  const int lane = static_cast<int>(threadIdx.x) % threads;
  const index_t groups = kCudaThreads / threads;
  const index_t units = work.outputs * work.splits;
  // The loop runs alike in every thread of the block, so that all of them reach the shuffles and
  // barriers; groups past the last unit carry the identity and write nothing.
  for (index_t first = blockIdx.x * groups; first < units; first += gridDim.x * groups) {
    const index_t unit = first + threadIdx.x / threads;
    const bool valid = unit < units;
    const index_t output = unit / work.splits;
    const index_t r0 = unit % work.splits * work.split_length;
    const index_t r1 = valid ? min(work.reduced, r0 + work.split_length) : r0;
    const auto cursor = source.cursor(valid ? output : 0, 0);
    const index_t step = index_t{threads} * V;
    A acc = Op::template identity<C>();
    index_t r = r0 + index_t{lane} * V;
    if constexpr (V > 1) {
      for (; r + (kReduceUnroll - 1) * step < r1; r += kReduceUnroll * step) {
        Lanes<C, V> loaded[kReduceUnroll];
        TENSORX_UNROLL
        for (int u = 0; u < kReduceUnroll; ++u) {
          loaded[u] = source.template load<V>(cursor, r + u * step);
        }
        TENSORX_UNROLL
        for (int u = 0; u < kReduceUnroll; ++u) {
          TENSORX_UNROLL
          for (int k = 0; k < V; ++k) acc = Op::combine(acc, loaded[u][k]);
        }
      }
      for (; r < r1; r += step) {
        const Lanes<C, V> loaded = source.template load<V>(cursor, r);
        TENSORX_UNROLL
        for (int k = 0; k < V; ++k) acc = Op::combine(acc, loaded[k]);
      }
    } else {
      for (; r + (kReduceUnroll - 1) * step < r1; r += kReduceUnroll * step) {
        C loaded[kReduceUnroll];
        TENSORX_UNROLL
        for (int u = 0; u < kReduceUnroll; ++u) loaded[u] = source.value(cursor, r + u * step);
        TENSORX_UNROLL
        for (int u = 0; u < kReduceUnroll; ++u) {
          acc = Op::combine(acc, Op::lift(loaded[u], r + u * step));
        }
      }
      for (; r < r1; r += step) acc = Op::combine(acc, Op::lift(source.value(cursor, r), r));
    }
    acc = group_combine<Op>(acc, threads, warp_values);
    if (work.splits == 1) {
      if (valid && lane == 0) {
        save_element<Saver>(dst + source.dst_offset(cursor, output, 0),
                            Op::finalize(acc, work.reduced));
      }
    } else {
      bool last = false;
      if (valid && lane == 0) {
        partials[unit] = acc;
        __threadfence();
        last = atomicAdd(&tickets[output], 1u) == static_cast<unsigned>(work.splits - 1);
      }
      // The last group of a result combines the partials of every group, in split order.
      last = group_broadcast(last, threads, &last_flag);
      A total = Op::template identity<C>();
      if (last) {
        for (int split = lane; split < work.splits; split += threads) {
          total = Op::combine(total, load_partial(&partials[output * work.splits + split]));
        }
      }
      total = group_combine<Op>(total, threads, warp_values);
      if (last && lane == 0) {
        save_element<Saver>(dst + source.dst_offset(cursor, output, 0),
                            Op::finalize(total, work.reduced));
      }
    }
  }
}

/// What the column kernel reduces: results (o, k), `outer` x `inner`, of `reduced` elements each,
/// in tiles of 32 columns, the reduced axes cut into `splits` pieces of split_length.
struct ColumnWork {
  index_t outer;
  index_t reduced;
  index_t inner;
  index_t tiles;
  index_t split_length;
  int splits;
};

template <class Op, class Saver, class C, class T, class Source>
__global__ void __launch_bounds__(kCudaThreads)
    reduce_columns_kernel(T* dst, Source source, ColumnWork work, accumulator_t<Op, C>* partials,
                          unsigned* tickets) {
  using A = accumulator_t<Op, C>;
  __shared__ A row_values[kColumnThreadRows][32];
  __shared__ bool last;
  const int column = static_cast<int>(threadIdx.x) % 32;
  const int thread_row = static_cast<int>(threadIdx.x) / 32;
  const index_t split = blockIdx.y;
  const index_t r0 = split * work.split_length;
  const index_t r1 = min(work.reduced, r0 + work.split_length);
  for (index_t unit = blockIdx.x; unit < work.outer * work.tiles; unit += gridDim.x) {
    const index_t o = unit / work.tiles;
    const index_t k = unit % work.tiles * 32 + column;
    const bool active = k < work.inner;
    A acc = Op::template identity<C>();
    if (active) {
      const auto cursor = source.cursor(o, k);
      index_t r = r0 + thread_row;
      for (; r + (kReduceUnroll - 1) * kColumnThreadRows < r1;
           r += kReduceUnroll * kColumnThreadRows) {
        C loaded[kReduceUnroll];
        TENSORX_UNROLL
        for (int u = 0; u < kReduceUnroll; ++u)
          loaded[u] = source.value(cursor, r + u * kColumnThreadRows);
        TENSORX_UNROLL
        for (int u = 0; u < kReduceUnroll; ++u) {
          acc = Op::combine(acc, Op::lift(loaded[u], r + u * kColumnThreadRows));
        }
      }
      for (; r < r1; r += kColumnThreadRows)
        acc = Op::combine(acc, Op::lift(source.value(cursor, r), r));
    }
    row_values[thread_row][column] = acc;
    __syncthreads();
    if (thread_row == 0) {
      for (int row = 1; row < kColumnThreadRows; ++row)
        acc = Op::combine(acc, row_values[row][column]);
    }
    const index_t result = o * work.inner + k;
    if (work.splits == 1) {
      if (thread_row == 0 && active) {
        save_element<Saver>(dst + source.dst_offset(source.cursor(o, k), o, k),
                            Op::finalize(acc, work.reduced));
      }
    } else {
      const index_t results = work.outer * work.inner;
      if (thread_row == 0 && active) partials[split * results + result] = acc;
      __threadfence();
      __syncthreads();
      if (threadIdx.x == 0) {
        last = atomicAdd(&tickets[unit], 1u) == static_cast<unsigned>(work.splits - 1);
      }
      __syncthreads();
      if (last && thread_row == 0 && active) {
        A total = load_partial(&partials[result]);
        for (int s = 1; s < work.splits; ++s) {
          total = Op::combine(total, load_partial(&partials[s * results + result]));
        }
        save_element<Saver>(dst + source.dst_offset(source.cursor(o, k), o, k),
                            Op::finalize(total, work.reduced));
      }
    }
    __syncthreads();  // row_values and last serve the next unit
  }
}

constexpr index_t ceil_div(index_t a, index_t b) {
  return (a + b - 1) / b;
}

/// Scratch memory of a split reduction: `count` partial values, then `tickets` counters set to 0
/// on `stream`. Freed, stream-ordered, when it goes out of scope after the launch.
template <class A>
struct ReduceScratch {
  ReduceScratch(index_t count, index_t tickets, const Place& place, StreamHandle stream)
      : ticket_offset(ceil_div(count * static_cast<index_t>(sizeof(A)), 16) * 16),
        memory(static_cast<std::size_t>(ticket_offset + tickets * index_t{sizeof(unsigned)}),
               place) {
    TENSORX_CUDA_CHECK(cudaMemsetAsync(
        this->tickets(), 0, static_cast<std::size_t>(tickets) * sizeof(unsigned), stream));
  }
  A* partials() const { return static_cast<A*>(memory.data()); }
  unsigned* tickets() const {
    return reinterpret_cast<unsigned*>(static_cast<char*>(memory.data()) + ticket_offset);
  }

  index_t ticket_offset;
  Allocation memory;
};

/// Blocks in one full wave of `device`.
inline index_t wave_blocks(int device) {
  return index_t{multiprocessor_count(device)} * kCudaBlocksPerMultiprocessor;
}

/// Threads per result of the row kernel: the whole block for rows longer than kWarpRowLimit,
/// else the power of two up to a warp that gives each thread about four loads.
inline int row_group_threads(index_t reduced, int vector_width) {
  if (reduced > kWarpRowLimit) return kCudaThreads;
  int threads = 1;
  while (threads < 32 && threads * 4 * vector_width < reduced) threads *= 2;
  return threads;
}

/// Queues the row kernel over `outputs` results of `reduced` elements each.
template <class Op, class Saver, int V, class C, class T, class Source>
void launch_rows(T* dst, const Source& source, index_t outputs, index_t reduced, const Place& place,
                 StreamHandle stream) {
  using A = accumulator_t<Op, C>;
  const index_t wave = wave_blocks(device_of(place));
  RowWork work;
  work.outputs = outputs;
  work.reduced = reduced;
  work.group_threads = row_group_threads(reduced, V);
  index_t splits = 1;
  if (work.group_threads == kCudaThreads && outputs < wave) {
    splits = std::max<index_t>(1, std::min(ceil_div(wave, outputs), reduced / kMinRowSplit));
  }
  work.split_length = ceil_div(ceil_div(reduced, splits), V) * V;
  work.splits = static_cast<int>(ceil_div(reduced, work.split_length));
  const index_t groups = kCudaThreads / work.group_threads;
  const index_t units = outputs * work.splits;
  const auto blocks = static_cast<unsigned>(std::min(ceil_div(units, groups), 4 * wave));
  if (work.splits == 1) {
    reduce_rows_kernel<Op, Saver, V, C>
        <<<blocks, kCudaThreads, 0, stream>>>(dst, source, work, nullptr, nullptr);
  } else {
    const ReduceScratch<A> scratch(units, outputs, place, stream);
    reduce_rows_kernel<Op, Saver, V, C><<<blocks, kCudaThreads, 0, stream>>>(
        dst, source, work, scratch.partials(), scratch.tickets());
  }
  TENSORX_CUDA_CHECK(cudaGetLastError());
}

/// Queues the column kernel over outer x inner results of `reduced` elements each.
template <class Op, class Saver, class C, class T, class Source>
void launch_columns(T* dst, const Source& source, index_t outer, index_t reduced, index_t inner,
                    const Place& place, StreamHandle stream) {
  using A = accumulator_t<Op, C>;
  const index_t wave = wave_blocks(device_of(place));
  ColumnWork work;
  work.outer = outer;
  work.reduced = reduced;
  work.inner = inner;
  work.tiles = ceil_div(inner, 32);
  const index_t units = outer * work.tiles;
  index_t splits = 1;
  if (units < 2 * wave) {
    splits = std::max<index_t>(
        1, std::min({ceil_div(2 * wave, units), reduced / kMinColumnSplit, index_t{65535}}));
  }
  work.split_length = ceil_div(reduced, splits);
  work.splits = static_cast<int>(ceil_div(reduced, work.split_length));
  const dim3 grid(static_cast<unsigned>(std::min(units, 8 * wave)),
                  static_cast<unsigned>(work.splits));
  if (work.splits == 1) {
    reduce_columns_kernel<Op, Saver, C>
        <<<grid, kCudaThreads, 0, stream>>>(dst, source, work, nullptr, nullptr);
  } else {
    const ReduceScratch<A> scratch(work.splits * outer * inner, units, place, stream);
    reduce_columns_kernel<Op, Saver, C><<<grid, kCudaThreads, 0, stream>>>(
        dst, source, work, scratch.partials(), scratch.tickets());
  }
  TENSORX_CUDA_CHECK(cudaGetLastError());
}

/// Reduces a dense operand in three-axis form, with 16-byte loads where rows allow them.
template <class Op, class Saver, class C, class T, class Plan>
void reduce_three_axes(T* dst, const Plan& plan, const ThreeAxes& axes, bool aligned,
                       const Place& place, StreamHandle stream) {
  const DenseSource<Plan> source{plan, axes};
  if (axes.inner > 1) {
    launch_columns<Op, Saver, C>(dst, source, axes.outer, axes.reduced, axes.inner, place, stream);
    return;
  }
  constexpr int V = Op::kIndexed ? 1 : kVectorWidth<C>;
  if (V > 1 && aligned && axes.reduced % V == 0) {
    launch_rows<Op, Saver, V, C>(dst, source, axes.outer, axes.reduced, place, stream);
  } else {
    launch_rows<Op, Saver, 1, C>(dst, source, axes.outer, axes.reduced, place, stream);
  }
}

/// Reduces any operand through its multi-index, with Divider's index arithmetic.
template <class Op, class Saver, class Divider, class C, class T, int N, class Plan>
void reduce_strided(T* dst, const Plan& plan, const ReduceSpace<N>& space, const Place& place,
                    StreamHandle stream) {
  const index_t inner = space.is_reduced(N - 1) ? 1 : space.dims.at(N - 1);
  const StridedSource<Plan, N, Divider> source{plan, IndexSpace<N, Divider>(space.kept_dims()),
                                               IndexSpace<N, Divider>(space.reduced_dims()),
                                               space.dst_strides, inner};
  if (inner > 1) {
    launch_columns<Op, Saver, C>(dst, source, space.outputs() / inner, space.reduced_count(), inner,
                                 place, stream);
  } else {
    launch_rows<Op, Saver, 1, C>(dst, source, space.outputs(), space.reduced_count(), place,
                                 stream);
  }
}

/// Reduces `plan` (an operand planned over space.dims) with reducer Op into the GPU memory dst
/// (results at space.dst_strides) through Saver: ONE kernel on the current stream of the place's
/// device. Every result must have at least one element. Throws CudaError when a launch fails.
template <class Op, class Saver, class T, int N, class Plan>
void reduce_gpu(CudaTranslationUnit, T* dst, const Place& place, const ReduceSpace<N>& space,
                const Plan& plan) {
  using C = std::decay_t<decltype(plan.at(Dim<N>()))>;
  const int device = device_of(place);
  cuda::DeviceGuard guard(device);
  const StreamHandle stream = current_stream(device);
  stats::record_pass();
  LayoutFacts<N> facts;
  bool aligned = true;
  plan.visit_leaves([&](const void* data, const Dim<N>& strides, std::size_t) {
    facts.add(space.dims, strides);
    aligned = aligned && is_16_byte_aligned(data);
  });
  ThreeAxes axes;
  if (facts.dense && three_axes_form(merged(space), &axes)) {
    reduce_three_axes<Op, Saver, C>(dst, plan, axes, aligned, place, stream);
  } else if (space.outputs() <= std::numeric_limits<std::int32_t>::max() &&
             space.reduced_count() <= std::numeric_limits<std::int32_t>::max()) {
    reduce_strided<Op, Saver, FastDivider32, C>(dst, plan, space, place, stream);
  } else {
    reduce_strided<Op, Saver, Divider64, C>(dst, plan, space, place, stream);
  }
}

TENSORX_ENGINE_NAMESPACE_END
}  // namespace detail
}  // namespace tensorx
