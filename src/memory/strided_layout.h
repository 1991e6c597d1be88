// The loop nest of a strided copy or fill, simplified once so that every backend runs the shortest
// one: size-1 dimensions are dropped and dimensions that are contiguous in every operand merged, so
// dense data becomes one flat run. A trivially-copyable value that CUDA kernels take by value.
#pragma once

#include "tensorx/core/config.h"
#include "tensorx/shape/dim.h"

namespace tensorx {
namespace detail {

/// Extents shared by `Operands` strided arrays and each one's strides, in elements. Dimension 0 is
/// the innermost (fastest), so that loops and kernels index it with compile-time constants.
template <int Operands>
struct StridedLayout {
  int rank = 1;
  index_t dims[kMaxRank] = {1};
  index_t strides[Operands][kMaxRank] = {};

  /// True when operand `op` is one dense run, in the same order as the elements.
  bool is_dense(int op) const { return rank == 1 && (dims[0] == 1 || strides[op][0] == 1); }
};

/// The simplified layout of `Operands` arrays with `rank` extents `dims` (outermost first, none of
/// them 0) and strides `strides[op]`. A rank-0 (scalar) loop nest becomes one run of one element.
template <int Operands>
StridedLayout<Operands> simplify(int rank, const index_t* dims,
                                 const index_t* const (&strides)[Operands]) {
  StridedLayout<Operands> layout;
  layout.rank = 0;
  for (int d = rank - 1; d >= 0; --d) {
    if (dims[d] == 1) continue;
    const int inner = layout.rank - 1;
    // Dimension d continues the current inner one when, in every operand, stepping d once is
    // stepping the inner dimension past its end.
    bool merges = inner >= 0;
    for (int op = 0; op < Operands && merges; ++op) {
      merges = strides[op][d] == layout.strides[op][inner] * layout.dims[inner];
    }
    if (merges) {
      layout.dims[inner] *= dims[d];
      continue;
    }
    layout.dims[layout.rank] = dims[d];
    for (int op = 0; op < Operands; ++op) layout.strides[op][layout.rank] = strides[op][d];
    ++layout.rank;
  }
  if (layout.rank == 0) {
    layout.rank = 1;
    layout.dims[0] = 1;
  }
  return layout;
}

/// The number of elements the layout visits.
template <int Operands>
index_t numel(const StridedLayout<Operands>& layout) {
  index_t count = 1;
  for (int d = 0; d < layout.rank; ++d) count *= layout.dims[d];
  return count;
}

}  // namespace detail
}  // namespace tensorx
