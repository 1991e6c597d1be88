// The two CUDA reduction kernels: rows (the reduced axis inner, one group of threads per piece of
// a row, 16-byte loads) and columns (the reduced axis outer, one warp across 32 columns per row
// of threads); a result split over several blocks is finished by the last block to arrive, in a
// fixed order, so results are bitwise reproducible.
#pragma once

#include <cuda_runtime.h>

#include "tensorx/engine/cuda_engine.cuh"
#include "tensorx/reduce/cuda_reduce_sources.cuh"

namespace tensorx {
namespace detail {
TENSORX_ENGINE_NAMESPACE_BEGIN

/// The end of the piece of a reduced axis of `reduced` elements that starts at `begin`: a plain
/// comparison, because an unqualified `min` here finds tensorx::min (the DArray reduction) first.
__device__ TENSORX_FORCE_INLINE index_t piece_end(index_t reduced, index_t begin, index_t length) {
  return begin + length < reduced ? begin + length : reduced;
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
    const index_t r1 = valid ? piece_end(work.reduced, r0, work.split_length) : r0;
    const auto cursor = source.cursor(valid ? output : 0, 0);
    const index_t step = index_t{threads} * V;
    A acc = Op::template identity<C>();
    index_t r = r0 + index_t{lane} * V;
    if constexpr (V > 1) {
      // Whole vectors only: a row of a multiple of V elements has no other, and a single row
      // (the only kind allowed another length) ends in the partial vector after the loops.
      // All kReduceUnroll loads are issued before the first conversion (DenseSource::fetch), so
      // that a float16 thread keeps 64 bytes in flight, as a float thread does.
      for (; r + (kReduceUnroll - 1) * step + V <= r1; r += kReduceUnroll * step) {
        decltype(source.template fetch<V>(cursor, r)) fetched[kReduceUnroll];
        TENSORX_UNROLL
        for (int u = 0; u < kReduceUnroll; ++u) {
          fetched[u] = source.template fetch<V>(cursor, r + u * step);
        }
        TENSORX_UNROLL
        for (int u = 0; u < kReduceUnroll; ++u) {
          const Lanes<C, V> loaded = source.template lanes<V>(fetched[u]);
          TENSORX_UNROLL
          for (int k = 0; k < V; ++k) acc = Op::combine(acc, loaded[k]);
        }
      }
      for (; r + V <= r1; r += step) {
        const Lanes<C, V> loaded = source.template load<V>(cursor, r);
        TENSORX_UNROLL
        for (int k = 0; k < V; ++k) acc = Op::combine(acc, loaded[k]);
      }
      for (; r < r1; ++r) acc = Op::combine(acc, source.value(cursor, r));
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
        // Pairs with the writers' fence before their tickets: their partials are visible here.
        __threadfence();
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

/// The last block of a column tile combines the partials of every split: each row of threads
/// the splits row, row + kColumnThreadRows, ..., then the first row those sums, in row order.
/// One thread adding 24 partials after the other (the splits of a 4096-row column on an H100)
/// put float sums of 4096 values more than 2 FLT_EPSILON off; this way no sum is longer than
/// splits / 8 + 8. Every thread of the block calls it. Not inlined: inside the kernel its values
/// raised the whole kernel's registers from 32 to 48 a thread (ptxas, sm_90), five blocks a
/// multiprocessor instead of eight for the streaming loop that does all the reading.
template <class Op, class Saver, class C, class T, class Source>
__device__ __noinline__ void finish_column_splits(T* dst, const Source& source,
                                                  const ColumnWork& work,
                                                  const accumulator_t<Op, C>* partials, index_t o,
                                                  index_t k, bool active,
                                                  accumulator_t<Op, C> (*row_values)[32]) {
  using A = accumulator_t<Op, C>;
  const int column = static_cast<int>(threadIdx.x) % 32;
  const int thread_row = static_cast<int>(threadIdx.x) / 32;
  const index_t results = work.outer * work.inner;
  const index_t result = o * work.inner + k;
  __threadfence();  // pairs with the writers' fence before their tickets
  A total = Op::template identity<C>();
  if (active) {
    for (int s = thread_row; s < work.splits; s += kColumnThreadRows) {
      total = Op::combine(total, load_partial(&partials[s * results + result]));
    }
  }
  row_values[thread_row][column] = total;
  __syncthreads();
  if (thread_row == 0 && active) {
    for (int row = 1; row < kColumnThreadRows; ++row) {
      total = Op::combine(total, row_values[row][column]);
    }
    save_element<Saver>(dst + source.dst_offset(source.cursor(o, k), o, k),
                        Op::finalize(total, work.reduced));
  }
}

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
  const index_t r1 = piece_end(work.reduced, r0, work.split_length);
  for (index_t unit = blockIdx.x; unit < work.outer * work.tiles; unit += gridDim.x) {
    const index_t o = unit / work.tiles;
    const index_t k = unit % work.tiles * 32 + column;
    const bool active = k < work.inner;
    A acc = Op::template identity<C>();
    if (active) {
      const auto cursor = source.cursor(o, k);
      index_t r = r0 + thread_row;
      for (; r + (kColumnUnroll - 1) * kColumnThreadRows < r1;
           r += kColumnUnroll * kColumnThreadRows) {
        C loaded[kColumnUnroll];
        TENSORX_UNROLL
        for (int u = 0; u < kColumnUnroll; ++u)
          loaded[u] = source.value(cursor, r + u * kColumnThreadRows);
        TENSORX_UNROLL
        for (int u = 0; u < kColumnUnroll; ++u) {
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
      // `last` is the same in every thread of the block: all of them reach the helper's barrier.
      if (last) {
        finish_column_splits<Op, Saver, C>(dst, source, work, partials, o, k, active, row_values);
      }
    }
    __syncthreads();  // row_values and last serve the next unit
  }
}

TENSORX_ENGINE_NAMESPACE_END
}  // namespace detail
}  // namespace tensorx
