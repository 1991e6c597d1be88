// The CUDA reduction engine: ONE kernel launch per reduction, fused with its element-wise operand,
// on the stream the caller ordered (engine/gpu_stream.h). Two kernels cover every axis set:
//  - rows (the last axis reduced, or every axis): a group of threads per result (up to a warp for
//    short rows, the whole block for long ones), combined with warp shuffles. When there are too
//    few results to fill the GPU (a full reduction has one), each result is split over several
//    groups whose values go to scratch memory; the LAST group to finish a result, found with an
//    atomic ticket after __threadfence, combines them in split order (the tickets are the stream's,
//    each left at 0 again by the kernel: reduce/stream_tickets.h);
//  - columns (the last axis kept): the 32 threads of a warp across the kept last axis (coalesced),
//    each thread four adjacent float columns (one 16-byte load) where the rows allow it, else
//    one, eight warps down the reduced axes, combined through shared memory in a fixed order; too
//    few columns to fill the GPU are split along the reduced axes, with a ticket per column tile.
// A dense operand is read in the three-axis form (outer, reduced, inner) of its merged axes, with
// 16-byte loads of its narrowest element for rows (eight float16 values per load, accumulated in
// float); any other through its multi-index. Every grouping depends only on the shape and the
// device, so the same input gives bitwise the same result on every run, and the compiled layer's
// reductions (src/reduce/), which run these very kernels, give the same bits as a CUDA
// translation unit for a dense operand. Values accumulate in the compute type (float for
// float16 and bfloat16). Scratch memory comes from the stream-ordered pool. Included by
// reduce/reduce_writer.h in CUDA translation units only.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "tensorx/core/cuda_check.h"
#include "tensorx/core/stats.h"
#include "tensorx/engine/layout_facts.h"
#include "tensorx/memory/allocation.h"
#include "tensorx/place/device.h"
#include "tensorx/place/stream.h"
#include "tensorx/reduce/cuda_reduce_kernels.cuh"
#include "tensorx/reduce/stream_tickets.h"

namespace tensorx {
namespace detail {
TENSORX_ENGINE_NAMESPACE_BEGIN

constexpr index_t ceil_div(index_t a, index_t b) {
  return (a + b - 1) / b;
}

/// Scratch memory of a split reduction on the current stream of `place`'s device: `count`
/// partial values, freed, stream-ordered, when it goes out of scope after the launch; and
/// `tickets` of the stream's tickets, each 0, which the kernel must leave at 0
/// (reduce/stream_tickets.h).
template <class A>
struct ReduceScratch {
  ReduceScratch(index_t count, index_t tickets, const Place& place)
      : memory(static_cast<std::size_t>(count) * sizeof(A), place),
        ticket_counters(stream_tickets(device_of(place), tickets)) {}
  A* partials() const { return static_cast<A*>(memory.data()); }
  unsigned* tickets() const { return ticket_counters; }

  Allocation memory;
  unsigned* ticket_counters;
};

/// Blocks of a kernel with `resident` blocks per multiprocessor (resident_blocks) in one full
/// wave of `device`. A kernel's own occupancy, not kCudaBlocksPerMultiprocessor: a kernel over
/// 32 registers a thread holds fewer blocks (the float16 row kernel once took 63, four blocks),
/// and a grid sized for eight would end in a partial wave.
inline index_t wave_blocks(int device, int resident = kCudaBlocksPerMultiprocessor) {
  return index_t{multiprocessor_count(device)} * resident;
}

/// Pieces each of `units` column tiles is split into: at least `least` (enough blocks to fill
/// the device twice), at most `most`, and of those the fewest whose blocks fill their last wave
/// to 15/16 at least (else the fullest, up to four times `least`). Column sums of an 8192 x 8192
/// float matrix on an H100 (256 tiles, waves of 1056 blocks) once took 9 splits, 2304 blocks:
/// 2.18 waves, the third one 18% full, 79% of the DRAM peak and 0.83 of a copy's bandwidth
/// (Nsight Compute put the partial wave at up to 33% of the time). 12 splits give 3072 blocks,
/// 2.91 waves: 0.85 -> 0.89 of a copy, measured in one run. Depends only on the shape and the
/// device, as the combination order must.
inline index_t column_splits(index_t units, index_t wave, index_t least, index_t most) {
  least = std::max<index_t>(1, std::min(least, most));
  index_t best = least;
  index_t best_filled = 0;  // in 1/16 of a wave: how full the last wave of the best is
  for (index_t splits = least; splits <= std::min(most, 4 * least); ++splits) {
    const index_t blocks = units * splits;
    const index_t filled = blocks * 16 / (ceil_div(blocks, wave) * wave);
    if (filled >= 15) return splits;
    if (filled > best_filled) {
      best = splits;
      best_filled = filled;
    }
  }
  return best;
}

/// Threads per result of the row kernel: the whole block for rows longer than kWarpRowLimit,
/// else the power of two up to a warp that gives each thread about four loads.
inline int row_group_threads(index_t reduced, int width) {
  if (reduced > kWarpRowLimit) return kCudaThreads;
  int threads = 1;
  while (threads < 32 && threads * 4 * width < reduced) threads *= 2;
  return threads;
}

/// Queues the row kernel over `outputs` results of `reduced` elements each.
template <class Op, class Saver, int V, class C, class T, class Source>
void launch_rows(T* dst, const Source& source, index_t outputs, index_t reduced, const Place& place,
                 StreamHandle stream) {
  using A = accumulator_t<Op, C>;
  const auto kernel = reduce_rows_kernel<Op, Saver, V, C, T, Source>;
  static const int resident = resident_blocks(reinterpret_cast<const void*>(kernel));
  const index_t wave = wave_blocks(device_of(place), resident);
  RowWork work;
  work.outputs = outputs;
  work.reduced = reduced;
  work.group_threads = row_group_threads(reduced, V);
  index_t splits = 1;
  if (work.group_threads == kCudaThreads && outputs < wave) {
    // One wave of groups: four waves of smaller splits measured slower for a full float sum of
    // 2^26 values on an H100 (0.84 of a copy's bandwidth against 0.92).
    splits = std::max<index_t>(1, std::min(ceil_div(wave, outputs), reduced / kMinRowSplit));
  }
  work.split_length = ceil_div(ceil_div(reduced, splits), V) * V;
  work.splits = static_cast<int>(ceil_div(reduced, work.split_length));
  const index_t groups = kCudaThreads / work.group_threads;
  const index_t units = outputs * work.splits;
  const auto blocks = static_cast<unsigned>(std::min(ceil_div(units, groups), 4 * wave));
  if (work.splits == 1) {
    kernel<<<blocks, kCudaThreads, 0, stream>>>(dst, source, work, nullptr, nullptr);
  } else {
    const ReduceScratch<A> scratch(units, outputs, place);
    kernel<<<blocks, kCudaThreads, 0, stream>>>(dst, source, work, scratch.partials(),
                                                scratch.tickets());
  }
  TENSORX_CUDA_CHECK(cudaGetLastError());
}

/// Queues the column kernel over outer x inner results of `reduced` elements each, V adjacent
/// columns a thread (reduce_columns_kernel says when V may exceed 1), read with one 16-byte load
/// where `vectors`.
template <class Op, class Saver, int V, class C, class T, class Source>
void launch_columns(T* dst, const Source& source, index_t outer, index_t reduced, index_t inner,
                    bool vectors, const Place& place, StreamHandle stream) {
  using A = accumulator_t<Op, C>;
  const auto kernel = reduce_columns_kernel<Op, Saver, V, C, T, Source>;
  static const int resident = resident_blocks(reinterpret_cast<const void*>(kernel));
  const index_t wave = wave_blocks(device_of(place), resident);
  ColumnWork work;
  work.outer = outer;
  work.reduced = reduced;
  work.inner = inner;
  work.tiles = ceil_div(inner, 32 * V);
  work.vectors = vectors;
  const index_t units = outer * work.tiles;
  index_t splits = 1;
  if (units < 2 * wave) {
    const index_t most = std::max<index_t>(1, std::min(reduced / kMinColumnSplit, index_t{65535}));
    splits = column_splits(units, wave, ceil_div(2 * wave, units), most);
  }
  work.split_length = ceil_div(reduced, splits);
  work.splits = static_cast<int>(ceil_div(reduced, work.split_length));
  const dim3 grid(static_cast<unsigned>(std::min(units, 8 * wave)),
                  static_cast<unsigned>(work.splits));
  if (work.splits == 1) {
    kernel<<<grid, kCudaThreads, 0, stream>>>(dst, source, work, nullptr, nullptr);
  } else {
    const ReduceScratch<A> scratch(work.splits * outer * inner, units, place);
    kernel<<<grid, kCudaThreads, 0, stream>>>(dst, source, work, scratch.partials(),
                                              scratch.tickets());
  }
  TENSORX_CUDA_CHECK(cudaGetLastError());
}

/// Elements per load of the row kernel, and columns a thread of the column kernel: 16 bytes of
/// the narrowest element the plan reads (of the compute type where it reads none), one for the
/// indexed reducers, which lift every element.
template <class Op, class C, class Plan>
constexpr int kRowLoadWidth = Op::kIndexed ? 1
                                           : vector_width(narrowest_load_v<Plan> != 0
                                                              ? narrowest_load_v<Plan>
                                                              : sizeof(C));

/// Reduces a dense operand in three-axis form, with 16-byte loads where rows allow them: every
/// row starts aligned when its length is a multiple of V, and a single row may end in a partial
/// vector. A column-kernel thread takes V adjacent columns, read with one 16-byte load where the
/// kept inner extent is a multiple of V.
template <class Op, class Saver, class C, class T, class Plan>
void reduce_three_axes(T* dst, const Plan& plan, const ThreeAxes& axes, bool aligned,
                       const Place& place, StreamHandle stream) {
  const DenseSource<Plan> source{plan, axes};
  constexpr int V = kRowLoadWidth<Op, C, Plan>;
  if (axes.inner > 1) {
    launch_columns<Op, Saver, V, C>(dst, source, axes.outer, axes.reduced, axes.inner,
                                    V > 1 && aligned && axes.inner % V == 0, place, stream);
    return;
  }
  if (V > 1 && aligned && (axes.reduced % V == 0 || axes.outer == 1)) {
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
    launch_columns<Op, Saver, 1, C>(dst, source, space.outputs() / inner, space.reduced_count(),
                                    inner, false, place, stream);
  } else {
    launch_rows<Op, Saver, 1, C>(dst, source, space.outputs(), space.reduced_count(), place,
                                 stream);
  }
}

/// Reduces `plan` (an operand planned over space.dims) with reducer Op into the GPU memory dst
/// (results at space.dst_strides) through Saver: ONE kernel on `stream` of the place's device.
/// Every result must have at least one element. Throws CudaError when a launch fails.
template <class Op, class Saver, class T, int N, class Plan>
void reduce_gpu(CudaTranslationUnit, Op, Saver, T* dst, const Place& place,
                const ReduceSpace<N>& space, const Plan& plan, StreamHandle stream) {
  using C = std::decay_t<decltype(plan.at(Dim<N>()))>;
  const int device = device_of(place);
  cuda::DeviceGuard guard(device);
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
