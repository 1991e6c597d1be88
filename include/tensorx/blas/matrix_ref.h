// MatrixRef and MatrixBatchRef: a strided matrix (or a batch of them) with its element type erased,
// which is how typed Arrays and DArrays reach the compiled BLAS layer through one entry point. Each
// names the buffer it lies in, through which the compiled layer orders GPU calls across streams.
#pragma once

#include "tensorx/array/array.h"
#include "tensorx/core/config.h"
#include "tensorx/core/data_type.h"
#include "tensorx/place/place.h"

namespace tensorx {
namespace detail {

/// A row-major strided matrix: element (i, j) is at data + i * row_stride + j * col_stride,
/// counted in elements of `type`.
struct MatrixRef {
  void* data = nullptr;
  DataType type = DataType::kFloat32;
  Place place;
  index_t rows = 0;
  index_t cols = 0;
  index_t row_stride = 0;
  index_t col_stride = 0;
  /// The buffer `data` lies in (memory/stream_order.h orders GPU work on it); nullptr for memory
  /// whose streams the caller orders itself.
  Allocation* buffer = nullptr;
};

/// `count` matrices of one layout, `stride` elements apart (0 repeats one matrix).
struct MatrixBatchRef {
  MatrixRef matrix;
  index_t count = 1;
  index_t stride = 0;
};

/// The matrix that a rank-2 array is.
template <class T>
MatrixRef matrix_ref(const Array<T, 2>& array) {
  MatrixRef ref;
  ref.data = array.data();
  ref.type = data_type_of<T>();
  ref.place = array.place();
  ref.rows = array.dims().at(0);
  ref.cols = array.dims().at(1);
  ref.row_stride = array.strides().at(0);
  ref.col_stride = array.strides().at(1);
  ref.buffer = array.buffer().get();
  return ref;
}

/// The batch of matrices that a rank-3 array is: dimension 0 counts the matrices.
template <class T>
MatrixBatchRef matrix_ref(const Array<T, 3>& array) {
  MatrixBatchRef ref;
  ref.matrix = matrix_ref(
      Array<T, 2>(array.buffer(), array.dims().tail, array.strides().tail, array.offset()));
  ref.count = array.dims().at(0);
  ref.stride = array.strides().at(0);
  return ref;
}

}  // namespace detail
}  // namespace tensorx
