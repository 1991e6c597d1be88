// The bounds check of gather indices (tx::take): every index must name a row of the table. It runs
// in prepare(), before the assignment's pass: on the host for CPU indices, and for GPU indices as a
// kernel of its own followed by a synchronisation (engine/cuda_index_bounds.cuh, CUDA translation
// units only). An index outside [0, rows) is an IndexError naming it and its position; nothing of
// the destination is written.
#pragma once

#include "tensorx/array/array.h"
#include "tensorx/array/array_view.h"
#include "tensorx/core/error.h"
#include "tensorx/engine/assign.h"
#include "tensorx/engine/translation_unit.h"

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

/// Checks indices on the CPU (those on a GPU cannot be reached from plain C++, which
/// check_can_run reports).
template <class I, int K>
void check_rows(HostTranslationUnit, const Array<I, K>& indices, index_t rows) {
  check_can_run(HostTranslationUnit{}, indices.place());
  check_rows_on_host(indices, rows);
}

}  // namespace detail
}  // namespace tensorx

#if defined(__CUDACC__)
#include "tensorx/engine/cuda_index_bounds.cuh"
#endif
