// A permutation copy seen as a batch of 2-D transposes: the shape the tiled transpose kernels (CPU
// cache blocks, CUDA shared-memory tiles) work on. In the destination's index space the source is
// unit-stride along one axis (the "row" axis) and the destination along the last one (the "column"
// axis), so that a tile is read along rows and written along columns, both unit-stride; every
// other axis is a batch. The element-wise engine instead walks the destination row by row and
// reads the source with a large stride at every element.
#pragma once

#include <optional>

#include "tensorx/array/array.h"
#include "tensorx/shape/dim.h"

namespace tensorx {
namespace detail {
TENSORX_ENGINE_NAMESPACE_BEGIN

template <int N>
struct PlaneTranspose {
  static constexpr int kBatchRank = N > 2 ? N - 2 : 0;

  index_t rows = 0;            // extent along the row axis (the source's unit-stride axis)
  index_t cols = 0;            // extent along the last axis (the destination's unit-stride axis)
  index_t src_col_stride = 0;  // the source's stride along the last axis
  index_t dst_row_stride = 0;  // the destination's stride along the row axis
  Dim<kBatchRank> batch;       // extents of the other axes, in order
  Dim<kBatchRank> src_batch_strides;
  Dim<kBatchRank> dst_batch_strides;
};

/// The batched transpose that copies `src` (laid over dst's index space) to `dst`, where dst is
/// unit-stride along its last axis and src unit-stride along another axis of extent above 1; no
/// value where that is not so (the element-wise engine already reads and writes unit-stride).
template <class T, int N>
std::optional<PlaneTranspose<N>> plane_transpose(const Array<T, N>& dst, const Array<T, N>& src) {
  if constexpr (N < 2) {
    return std::nullopt;
  } else {
    const Dim<N>& dims = dst.dims();
    if (dims.at(N - 1) < 2 || dst.strides().at(N - 1) != 1 || src.strides().at(N - 1) == 1) {
      return std::nullopt;
    }
    int row_axis = -1;
    for (int i = N - 2; i >= 0 && row_axis < 0; --i) {
      if (dims.at(i) > 1 && src.strides().at(i) == 1) row_axis = i;
    }
    if (row_axis < 0) return std::nullopt;
    PlaneTranspose<N> plane;
    plane.rows = dims.at(row_axis);
    plane.cols = dims.at(N - 1);
    plane.src_col_stride = src.strides().at(N - 1);
    plane.dst_row_stride = dst.strides().at(row_axis);
    if constexpr (N > 2) {
      int b = 0;
      for (int i = 0; i < N - 1; ++i) {
        if (i == row_axis) continue;
        plane.batch.at(b) = dims.at(i);
        plane.src_batch_strides.at(b) = src.strides().at(i);
        plane.dst_batch_strides.at(b) = dst.strides().at(i);
        ++b;
      }
    }
    return plane;
  }
}

TENSORX_ENGINE_NAMESPACE_END
}  // namespace detail
}  // namespace tensorx
