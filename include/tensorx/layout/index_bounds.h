// The bounds check of gather indices (tx::take's, tx::cross_entropy's labels): every index must
// name a row of the table. It runs before the assignment's pass: on the host for CPU indices, and
// for GPU indices as a kernel of its own followed by a synchronisation (cuda_index_bounds.cuh, CUDA
// translation units only). The first index outside [0, rows), in row-major order, is reported by
// the caller's thrower (an IndexError naming it and its position); nothing of the destination is
// written.
#pragma once

#include "tensorx/array/array.h"
#include "tensorx/array/array_view.h"
#include "tensorx/core/error.h"
#include "tensorx/core/translation_unit.h"
#include "tensorx/engine/gpu_dispatch.h"

namespace tensorx {
namespace detail {

template <class I, int K>
[[noreturn]] void throw_row_out_of_range(I index, const Dim<K>& position, index_t rows) {
  throw IndexError(message("tx::take: index ", index, " at position ", position,
                           " is out of range for a table of ", rows, " rows"));
}

/// Calls out_of_range(index, position), which throws, for the first index (row-major) of a CPU
/// array outside [0, rows).
template <class I, int K, class Thrower>
void check_rows_on_host(const Array<I, K>& indices, index_t rows, const Thrower& out_of_range) {
  const auto view = make_view(indices);
  for (auto it = view.begin(); it != view.end(); ++it) {
    if (*it < 0 || *it >= rows) out_of_range(*it, it.index());
  }
}

/// Calls out_of_range(index, position), which throws, for the first index outside [0, rows): on
/// the host for CPU indices, by a kernel for GPU ones (CUDA translation units only; on_gpu reports
/// the others).
template <class TU, class I, int K, class Thrower>
void check_rows(TU tu, const Array<I, K>& indices, index_t rows, const Thrower& out_of_range) {
  if (is_gpu_place(indices.place())) {
    on_gpu(tu, indices.place(),
           [&](auto cuda) { check_rows_on_gpu(cuda, indices, rows, out_of_range); });
  } else {
    check_rows_on_host(indices, rows, out_of_range);
  }
}

/// tx::take's check: an IndexError naming the index, its position and the table's rows.
template <class TU, class I, int K>
void check_rows(TU tu, const Array<I, K>& indices, index_t rows) {
  check_rows(tu, indices, rows, [rows](I index, const Dim<K>& position) {
    throw_row_out_of_range(index, position, rows);
  });
}

}  // namespace detail
}  // namespace tensorx

#if defined(__CUDACC__)
#include "tensorx/layout/cuda_index_bounds.cuh"
#endif
