// The two CUDA reduction kernels: rows (the reduced axis inner, one group of threads per piece of
// a row, 16-byte loads) and columns (the reduced axis outer, one warp across 32 x V columns per
// row of threads, V adjacent columns a thread); a result split over several blocks is finished by
// the last block to arrive, in a fixed order, so results are bitwise reproducible.
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

/// Takes a ticket of `ticket`, shared by `takers` blocks (or groups) of one kernel, and returns
/// true for the last of them to take one, after which the ticket is 0 again (atomicInc wraps at
/// takers - 1), as the stream's tickets must be left for the next kernel (reduce/stream_tickets.h).
__device__ TENSORX_FORCE_INLINE bool take_last_ticket(unsigned* ticket, unsigned takers) {
  return atomicInc(ticket, takers - 1) == takers - 1;
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
        last = take_last_ticket(&tickets[output], static_cast<unsigned>(work.splits));
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
/// in tiles of 32 x V columns (V the columns a thread takes), the reduced axes cut into `splits`
/// pieces of split_length; `vectors` where the thread's V columns are read with one 16-byte load.
struct ColumnWork {
  index_t outer;
  index_t reduced;
  index_t inner;
  index_t tiles;
  index_t split_length;
  int splits;
  bool vectors;
};

/// The column kernel's values of one row of threads: V columns a thread, kept in row_values as
/// [thread row][j * 32 + column] so that the 32 threads of a warp write 32 consecutive words.
template <class A, int V>
using ColumnRowValues = A[kColumnThreadRows][32 * V];

/// Saves the results of columns k .. k + mine - 1 of output row o.
template <class Op, class Saver, int V, class T, class Source, class A>
__device__ TENSORX_FORCE_INLINE void save_columns(T* dst, const Source& source,
                                                  const ColumnWork& work, index_t o, index_t k,
                                                  int mine, const A (&values)[V]) {
  TENSORX_UNROLL
  for (int j = 0; j < V; ++j) {
    if (j < mine) {
      save_element<Saver>(dst + source.dst_offset(source.cursor(o, k + j), o, k + j),
                          Op::finalize(values[j], work.reduced));
    }
  }
}

/// Combines the values of the block's rows of threads into row 0's, in row order (every thread
/// of the block calls it; row_values is free again when it returns).
template <class Op, int V, class A>
__device__ TENSORX_FORCE_INLINE void combine_thread_rows(A (&values)[V],
                                                         ColumnRowValues<A, V>& row_values) {
  const int column = static_cast<int>(threadIdx.x) % 32;
  const int thread_row = static_cast<int>(threadIdx.x) / 32;
  TENSORX_UNROLL
  for (int j = 0; j < V; ++j) row_values[thread_row][j * 32 + column] = values[j];
  __syncthreads();
  if (thread_row == 0) {
    for (int row = 1; row < kColumnThreadRows; ++row) {
      TENSORX_UNROLL
      for (int j = 0; j < V; ++j)
        values[j] = Op::combine(values[j], row_values[row][j * 32 + column]);
    }
  }
  __syncthreads();
}

/// The last block of a column tile combines the partials of every split: each row of threads
/// the splits row, row + kColumnThreadRows, ..., then the first row those sums, in row order.
/// One thread adding 24 partials after the other (the splits of a 4096-row column on an H100)
/// put float sums of 4096 values more than 2 FLT_EPSILON off; this way no sum is longer than
/// splits / 8 + 8. Every thread of the block calls it. Not inlined: inside the kernel its values
/// raised the whole kernel's registers from 32 to 48 a thread (ptxas, sm_90), five blocks a
/// multiprocessor instead of eight for the streaming loop that does all the reading.
template <class Op, class Saver, int V, class C, class T, class Source>
__device__ __noinline__ void finish_column_splits(
    T* dst, const Source& source, const ColumnWork& work, const accumulator_t<Op, C>* partials,
    index_t o, index_t k, int mine, ColumnRowValues<accumulator_t<Op, C>, V>& row_values) {
  using A = accumulator_t<Op, C>;
  const int thread_row = static_cast<int>(threadIdx.x) / 32;
  const index_t results = work.outer * work.inner;
  const index_t result = o * work.inner + k;
  __threadfence();  // pairs with the writers' fence before their tickets
  A totals[V];
  TENSORX_UNROLL
  for (int j = 0; j < V; ++j) totals[j] = Op::template identity<C>();
  for (int s = thread_row; s < work.splits; s += kColumnThreadRows) {
    TENSORX_UNROLL
    for (int j = 0; j < V; ++j) {
      if (j < mine) {
        totals[j] = Op::combine(totals[j], load_partial(&partials[s * results + result + j]));
      }
    }
  }
  combine_thread_rows<Op>(totals, row_values);
  if (thread_row == 0) save_columns<Op, Saver>(dst, source, work, o, k, mine, totals);
}

/// V values of a column-kernel thread, passed whole to and from a function.
template <class A, int V>
struct ColumnValues {
  A values[V];
};

/// `values` combined with the thread's `mine` columns (at most V, from `cursor` of a dense
/// source) of rows r, r + kColumnThreadRows, ... of [r, r1), one element a load, a row at a time,
/// in row order: the column kernel's reads where 16-byte loads are not allowed. Not inlined:
/// inside the kernel its loads and addresses raised the registers of the 16-byte loop, which does
/// the reading where rows are aligned (float 44 -> 54 a thread, five blocks a multiprocessor ->
/// four; ptxas, sm_90).
template <class Op, int V, class C, class Source, class A>
__device__ __noinline__ ColumnValues<A, V> columns_by_element(const Source& source, index_t cursor,
                                                              int mine, index_t r, index_t r1,
                                                              ColumnValues<A, V> acc) {
  for (; r < r1; r += kColumnThreadRows) {
    TENSORX_UNROLL
    for (int j = 0; j < V; ++j) {
      if (j < mine) {
        acc.values[j] = Op::combine(acc.values[j], Op::lift(source.value(cursor + j, r), r));
      }
    }
  }
  return acc;
}

/// Combines the thread's share of its `mine` columns (at most V), rows r, r + kColumnThreadRows,
/// ... of [r, r1), in row order, into `values`. With V > 1: where work.vectors, V adjacent
/// elements of a row a load, kReduceUnroll loads in flight, as the row kernel keeps; else one
/// element a load (columns_by_element). With V = 1 (any source): kColumnUnroll loads in flight.
template <class Op, int V, class C, class Source, class Cursor, class A>
__device__ TENSORX_FORCE_INLINE void accumulate_columns(const Source& source, const Cursor& cursor,
                                                        [[maybe_unused]] const ColumnWork& work,
                                                        [[maybe_unused]] int mine, index_t r,
                                                        index_t r1, A (&values)[V]) {
  if constexpr (V > 1) {
    if (!work.vectors) {
      ColumnValues<A, V> acc;
      TENSORX_UNROLL
      for (int j = 0; j < V; ++j) acc.values[j] = values[j];
      acc = columns_by_element<Op, V, C>(source, cursor, mine, r, r1, acc);
      TENSORX_UNROLL
      for (int j = 0; j < V; ++j) values[j] = acc.values[j];
      return;
    }
    // The elements of row r sit at cursor + r * inner: the row kernel's fetch and load of a
    // row's elements r * inner .. r * inner + V - 1.
    for (; r + (kReduceUnroll - 1) * kColumnThreadRows < r1;
         r += kReduceUnroll * kColumnThreadRows) {
      decltype(source.template fetch<V>(cursor, 0)) fetched[kReduceUnroll];
      TENSORX_UNROLL
      for (int u = 0; u < kReduceUnroll; ++u) {
        fetched[u] = source.template fetch<V>(cursor, (r + u * kColumnThreadRows) * work.inner);
      }
      TENSORX_UNROLL
      for (int u = 0; u < kReduceUnroll; ++u) {
        const Lanes<C, V> loaded = source.template lanes<V>(fetched[u]);
        TENSORX_UNROLL
        for (int j = 0; j < V; ++j) values[j] = Op::combine(values[j], loaded[j]);
      }
    }
    for (; r < r1; r += kColumnThreadRows) {
      const Lanes<C, V> loaded = source.template load<V>(cursor, r * work.inner);
      TENSORX_UNROLL
      for (int j = 0; j < V; ++j) values[j] = Op::combine(values[j], loaded[j]);
    }
  } else {
    for (; r + (kColumnUnroll - 1) * kColumnThreadRows < r1;
         r += kColumnUnroll * kColumnThreadRows) {
      C loaded[kColumnUnroll];
      TENSORX_UNROLL
      for (int u = 0; u < kColumnUnroll; ++u)
        loaded[u] = source.value(cursor, r + u * kColumnThreadRows);
      TENSORX_UNROLL
      for (int u = 0; u < kColumnUnroll; ++u) {
        values[0] = Op::combine(values[0], Op::lift(loaded[u], r + u * kColumnThreadRows));
      }
    }
    for (; r < r1; r += kColumnThreadRows)
      values[0] = Op::combine(values[0], Op::lift(source.value(cursor, r), r));
  }
}

/// The column kernel: each warp of a block across the 32 x V columns of a tile, the block's eight
/// warps down the rows of its split, V adjacent columns a thread. V > 1 only for a dense source
/// and a reducer that is not indexed (V of the row kernel's 16-byte loads: four floats, eight
/// float16): a warp then reads 512 bytes of a row of floats per load instead of 128, and each
/// thread keeps 64 bytes in flight instead of 32 (column sums of 8192 x 8192 floats with one
/// column a thread: 0.59 of a copy on an H200, 0.20 instructions issued a cycle, no eligible warp
/// in 80% of cycles; ncu, 2026-11-28). The V columns are read with one 16-byte load where every
/// row starts aligned (work.vectors), else an element at a time (columns_by_element): one kernel
/// for both, so that a reduction compiles no more kernels than it did with one column a thread
/// (nvcc's time is most of a CUDA unit's).
template <class Op, class Saver, int V, class C, class T, class Source>
__global__ void __launch_bounds__(kCudaThreads)
    reduce_columns_kernel(T* dst, Source source, ColumnWork work, accumulator_t<Op, C>* partials,
                          unsigned* tickets) {
  using A = accumulator_t<Op, C>;
  __shared__ ColumnRowValues<A, V> row_values;
  __shared__ bool last;
  const int column = static_cast<int>(threadIdx.x) % 32;
  const int thread_row = static_cast<int>(threadIdx.x) / 32;
  const index_t split = blockIdx.y;
  const index_t r0 = split * work.split_length;
  const index_t r1 = piece_end(work.reduced, r0, work.split_length);
  for (index_t unit = blockIdx.x; unit < work.outer * work.tiles; unit += gridDim.x) {
    const index_t o = unit / work.tiles;
    const index_t k = unit % work.tiles * (32 * V) + index_t{column} * V;  // the first column
    // The thread's columns within the row: V, fewer in a last tile's last thread, none past it.
    const int mine = k >= work.inner      ? 0
                     : work.inner - k < V ? static_cast<int>(work.inner - k)
                                          : V;
    A values[V];
    TENSORX_UNROLL
    for (int j = 0; j < V; ++j) values[j] = Op::template identity<C>();
    if (mine > 0) {
      accumulate_columns<Op, V, C>(source, source.cursor(o, k), work, mine, r0 + thread_row, r1,
                                   values);
    }
    combine_thread_rows<Op>(values, row_values);
    const index_t result = o * work.inner + k;
    if (work.splits == 1) {
      if (thread_row == 0) save_columns<Op, Saver>(dst, source, work, o, k, mine, values);
    } else {
      const index_t results = work.outer * work.inner;
      if (thread_row == 0) {
        TENSORX_UNROLL
        for (int j = 0; j < V; ++j) {
          if (j < mine) partials[split * results + result + j] = values[j];
        }
      }
      __threadfence();
      __syncthreads();
      if (threadIdx.x == 0) {
        last = take_last_ticket(&tickets[unit], static_cast<unsigned>(work.splits));
      }
      __syncthreads();
      // `last` is the same in every thread of the block: all of them reach the helper's barrier.
      if (last) {
        finish_column_splits<Op, Saver, V, C>(dst, source, work, partials, o, k, mine, row_values);
      }
      __syncthreads();  // `last` serves the next unit
    }
  }
}

TENSORX_ENGINE_NAMESPACE_END
}  // namespace detail
}  // namespace tensorx
