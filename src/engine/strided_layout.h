// The loop nest of a strided copy or fill, merged once (shape/merge_axes.h) so that every backend
// runs the shortest one: dense data becomes one flat run. Row-major: axis rank - 1 is the
// innermost. A trivially-copyable value that CUDA kernels take by value.
#pragma once

#include "tensorx/core/config.h"
#include "tensorx/shape/merge_axes.h"

namespace tensorx {
namespace detail {

/// Extents shared by `Operands` strided arrays and each one's strides, in elements; at least one
/// axis (a scalar is one run of one element).
template <int Operands>
struct StridedLayout : MergedAxes<Operands> {
  /// True when operand `op` is one dense run, in the same order as the elements.
  bool is_dense(int op) const {
    return this->rank == 1 && (this->dims[0] == 1 || this->strides[op][0] == 1);
  }
  index_t inner_extent() const { return this->dims[this->rank - 1]; }
  index_t inner_stride(int op) const { return this->strides[op][this->rank - 1]; }
};

/// The merged layout of `Operands` arrays with `rank` extents `dims` (outermost first, none of
/// them 0) and strides `strides[op]`.
template <int Operands>
StridedLayout<Operands> make_strided_layout(int rank, const index_t* dims,
                                            const index_t* const (&strides)[Operands]) {
  StridedLayout<Operands> layout;
  static_cast<MergedAxes<Operands>&>(layout) = merge_axes<Operands>(rank, dims, strides);
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
