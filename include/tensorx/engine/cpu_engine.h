// The CPU engine: ONE pass over the destination per assignment. Above a size threshold the
// iteration space is cut into chunks that OpenMP threads take in turn; each chunk is walked row by
// row (the innermost dimension), every operand's row start computed once and its stride hoisted.
// A destination and operands that are all dense form a single row. Rows whose operands all have
// inner stride 0 or 1 run in SIMD batches when the functors accept batches.
#pragma once

#include <algorithm>

#if defined(_OPENMP)
#include <omp.h>
#endif

#include "tensorx/array/array.h"
#include "tensorx/core/stats.h"
#include "tensorx/engine/simd.h"
#include "tensorx/expr/exp.h"

namespace tensorx {
namespace detail {
TENSORX_ENGINE_NAMESPACE_BEGIN

/// Below this many elements an assignment runs on the calling thread alone: starting a thread
/// team costs more than it saves. It is also the size of the chunks that threads take in turn.
constexpr index_t kParallelGrain = index_t{1} << 16;

/// How an operand or destination sits in the iteration space.
template <int N>
struct LayoutFacts {
  bool dense = true;       // element i at data[i]
  bool unit_inner = true;  // inner stride 0 or 1: the row can be loaded in batches

  void add(const Dim<N>& dims, const Dim<N>& strides) {
    if constexpr (N > 0) {
      const Dim<N> expected = contiguous_strides(dims);
      for (int i = 0; i < N; ++i) {
        if (dims.at(i) != 1 && strides.at(i) != expected.at(i)) dense = false;
      }
      const index_t inner = strides.at(N - 1);
      if (dims.at(N - 1) != 1 && inner != 0 && inner != 1) unit_inner = false;
    }
  }
};

/// Evaluates elements [j0, j1) of one row into dst (stride dst_stride).
template <bool kSimd, class Saver, class T, class RowPlan>
TENSORX_FORCE_INLINE void run_row(T* dst, index_t dst_stride, const RowPlan& row, index_t j0,
                                  index_t j1) {
  using C = compute_t<T>;
  index_t j = j0;
#if TENSORX_HAS_SIMD
  if constexpr (kSimd) {
    using B = simd_batch_t<C>;
    for (; j + static_cast<index_t>(B::size) <= j1; j += B::size) {
      B value = row.template batch<B>(j);
      if constexpr (Saver::reads_destination)
        value = Saver::apply(B::load_unaligned(dst + j), value);
      value.store_unaligned(dst + j);
    }
  }
#endif
  for (; j < j1; ++j) {
    T* target = dst + j * dst_stride;
    C value = row.get(j);
    if constexpr (Saver::reads_destination) value = Saver::apply(static_cast<C>(*target), value);
    *target = to_storage<T>(value);
  }
}

/// Evaluates the elements [begin, end) of the row-major iteration space.
template <bool kSimd, class Saver, class T, int N, class Plan>
void run_range(const Array<T, N>& dst, const Plan& plan, bool dense, index_t begin, index_t end) {
  if (dense) {
    run_row<kSimd, Saver>(dst.data(), 1, plan.flat_row(), begin, end);
    return;
  }
  if constexpr (N > 0) {
    const Dim<N>& dims = dst.dims();
    const index_t length = dims.at(N - 1);
    Dim<N> index = delinearize(begin, dims);
    index_t j = index.at(N - 1);
    index.at(N - 1) = 0;
    for (index_t done = begin; done < end;) {
      const index_t count = std::min(length - j, end - done);
      run_row<kSimd, Saver>(dst.data() + linearize(index, dst.strides()), dst.strides().at(N - 1),
                            plan.row(index), j, j + count);
      done += count;
      j = 0;
      // Next row: an odometer over the outer dimensions.
      for (int i = N - 2; i >= 0; --i) {
        if (++index.at(i) < dims.at(i)) break;
        index.at(i) = 0;
      }
    }
  }
}

/// Runs the iteration space in chunks of kParallelGrain elements that the threads take in turn as
/// they finish the previous one. With one equal part per thread instead, a thread that the OS
/// preempts (or that shares its core) held up the whole pass by its part: on a machine with any
/// other load the pass ran 10 to 25% below the memory bandwidth that Eigen's thread pool, which
/// hands out blocks the same way, reached. Chunks start on multiples of kParallelGrain elements,
/// so SIMD stores of different threads never share a cache line of a dense destination.
template <bool kSimd, class Saver, class T, int N, class Plan>
void run_parallel(const Array<T, N>& dst, const Plan& plan, bool dense) {
  const index_t total = dst.numel();
  int threads = 1;
#if defined(_OPENMP)
  if (total >= 2 * kParallelGrain && !omp_in_parallel()) {
    threads = static_cast<int>(std::min<index_t>(omp_get_max_threads(), total / kParallelGrain));
  }
#endif
  if (threads <= 1) {
    run_range<kSimd, Saver>(dst, plan, dense, 0, total);
    return;
  }
#if defined(_OPENMP)
  const index_t chunks = (total + kParallelGrain - 1) / kParallelGrain;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (index_t chunk = 0; chunk < chunks; ++chunk) {
    const index_t begin = chunk * kParallelGrain;
    run_range<kSimd, Saver>(dst, plan, dense, begin, std::min(total, begin + kParallelGrain));
  }
#endif
}

/// Runs one pass evaluating `plan` into `dst` with `Saver`.
/// TU (engine/translation_unit.h) keeps the g++ instantiation, which may use SIMD, and the nvcc
/// one, which does not, distinct symbols.
template <class Saver, class TU, class T, int N, class Plan>
void run_cpu(const Array<T, N>& dst, const Plan& plan) {
  stats::record_pass();
  LayoutFacts<N> facts;
  facts.add(dst.dims(), dst.strides());
  plan.visit_leaves(
      [&](const void*, const Dim<N>& strides, std::size_t) { facts.add(dst.dims(), strides); });
  constexpr bool kVectorizable =
      plan_vectorizable<Plan, compute_t<T>>() && std::is_same_v<compute_t<T>, T>;
  if constexpr (kVectorizable) {
    if (facts.dense || facts.unit_inner) {
      run_parallel<true, Saver>(dst, plan, facts.dense);
      return;
    }
  }
  run_parallel<false, Saver>(dst, plan, facts.dense);
}

TENSORX_ENGINE_NAMESPACE_END
}  // namespace detail
}  // namespace tensorx
