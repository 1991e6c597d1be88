// The bounds check of gather indices (tx::take): every index must name a row of the table. It runs
// in prepare(), before the assignment's pass: on the host for CPU indices, and for GPU indices as a
// kernel of its own followed by a synchronisation (engine/cuda_index_bounds.cuh, CUDA translation
// units only). An index outside [0, rows) is an IndexError naming it and its position; nothing of
// the destination is written.
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

/// Throws IndexError for the first index (row-major) of a CPU array outside [0, rows).
template <class I, int K>
void check_rows_on_host(const Array<I, K>& indices, index_t rows) {
  const auto view = make_view(indices);
  for (auto it = view.begin(); it != view.end(); ++it) {
    if (*it < 0 || *it >= rows) throw_row_out_of_range(*it, it.index(), rows);
  }
}

/// Throws IndexError for the first index outside [0, rows): on the host for CPU indices, by a
/// kernel for GPU ones (CUDA translation units only; on_gpu reports the others).
template <class TU, class I, int K>
void check_rows(TU tu, const Array<I, K>& indices, index_t rows) {
  if (is_gpu_place(indices.place())) {
    on_gpu(tu, indices.place(), [&](auto cuda) { check_rows_on_gpu(cuda, indices, rows); });
  } else {
    check_rows_on_host(indices, rows);
  }
}

}  // namespace detail
}  // namespace tensorx

#if defined(__CUDACC__)
#include "tensorx/layout/cuda_index_bounds.cuh"
#endif
