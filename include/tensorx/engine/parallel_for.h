// The one CPU parallel loop of tensorx: element-wise passes, reductions, transposes and the
// compiled layer's strided copies all cut their work into chunks and run them here.
//
// Chunks are claimed as threads arrive, from a persistent pool (src/engine/thread_pool.cpp), and
// the calling thread works too. The pass ends when every chunk is done, not when every thread has
// reported in: a worker that the system has preempted (a data loader or a GPU-feeding thread on
// the same cores) simply claims nothing when it wakes, instead of holding the whole pass up for a
// scheduler tick as the barrier at the end of an OpenMP region did (2 cores with one busy thread
// beside: triad 2^24 floats 1.84x slower than Eigen's pool, sigmoid 2.14x). An exception thrown
// by a chunk stops the claiming of further chunks and is rethrown on the calling thread, once
// every chunk that started has finished.
#pragma once

#include <algorithm>
#include <type_traits>

#include "tensorx/core/config.h"

namespace tensorx {

/// The threads a CPU pass uses, the calling thread included: set_num_threads' value, else the
/// environment's TENSORX_NUM_THREADS or OMP_NUM_THREADS, else the hardware's thread count.
int num_threads();

/// Sets the threads CPU passes use from now on (1 runs every pass on the calling thread). Throws
/// Error for a count below 1.
void set_num_threads(int threads);

namespace detail {

/// Elements that one chunk of an element-wise pass covers, and below twice which a pass runs on
/// the calling thread alone (waking threads costs more than it saves). A multiple of every SIMD
/// width and cache line, so that threads never share a cache line of a dense destination.
constexpr index_t kParallelGrain = index_t{1} << 16;

/// Calls run(context, chunk) for every chunk in [0, chunks) on the pool and the calling thread;
/// rethrows the first exception a call threw. Runs serially when called from inside a chunk, or
/// while another thread's pass holds the pool.
void run_chunks(index_t chunks, void (*run)(void* context, index_t chunk), void* context);

/// What run_chunks hands each chunk of a parallel_for.
template <class F>
struct ChunkedBody {
  F& body;
  index_t items;
  index_t chunk_items;

  /// run_chunks' callback: one function per body type (a lambda converted to a function pointer
  /// compiles three).
  static void run(void* opaque, index_t chunk) {
    const auto& c = *static_cast<const ChunkedBody*>(opaque);
    const index_t begin = chunk * c.chunk_items;
    c.body(begin, std::min(c.items, begin + c.chunk_items));
  }
};

/// Calls body(begin, end) over [0, items) in chunks of `chunk_items` (the last one shorter), in
/// parallel where there are at least two chunks and more than one thread. body must be safe to
/// call concurrently on disjoint ranges; the ranges never depend on the thread count.
template <class F>
void parallel_for(index_t items, index_t chunk_items, F&& body) {
  chunk_items = std::max<index_t>(chunk_items, 1);
  const index_t chunks = (items + chunk_items - 1) / chunk_items;
  if (chunks < 2) {
    if (items > 0) body(index_t{0}, items);
    return;
  }
  ChunkedBody<std::remove_reference_t<F>> context{body, items, chunk_items};
  run_chunks(chunks, &ChunkedBody<std::remove_reference_t<F>>::run, &context);
}

/// Items per chunk for work of `items` items that read `elements` elements in all: about
/// kParallelGrain elements per chunk.
inline index_t chunk_items_for(index_t items, index_t elements) {
  if (items <= 0 || elements <= 0) return 1;
  const index_t per_item = std::max<index_t>(1, elements / items);
  return std::max<index_t>(1, kParallelGrain / per_item);
}

}  // namespace detail
}  // namespace tensorx
