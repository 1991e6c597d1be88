// The layout rules of blas_operand.h. A column-major BLAS reads a matrix given a leading dimension
// ld: element (i, j) at i + j * ld. A row-major view with column stride 1 is therefore the
// transpose of the column-major matrix with ld = row stride, and a view with row stride 1 (a
// transposed view) is that matrix itself with ld = column stride; gemm.cpp turns both into
// transpose flags. Anything else (both strides above 1, a stride of 0 or below) is copied densely.
#include "blas/blas_operand.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "tensorx/memory/strided_copy.h"

namespace tensorx {
namespace detail {
namespace {

struct InPlaceLayout {
  bool fits = false;
  bool transposed = true;
  index_t ld = 1;
};

InPlaceLayout in_place_layout(const MatrixRef& x) {
  // The stride of an extent of 0 or 1 is never stepped, so any value serves there.
  const bool one_row = x.rows <= 1;
  const bool one_col = x.cols <= 1;
  const index_t cols = std::max<index_t>(x.cols, 1);
  const index_t rows = std::max<index_t>(x.rows, 1);
  if ((one_col || x.col_stride == 1) && (one_row || x.row_stride >= cols)) {
    return {true, true, one_row ? cols : x.row_stride};
  }
  if ((one_row || x.row_stride == 1) && (one_col || x.col_stride >= rows)) {
    return {true, false, one_col ? rows : x.col_stride};
  }
  return {};
}

// Elements from the first to one past the last element of one matrix laid out as `layout`.
index_t matrix_span(const MatrixRef& x, const InPlaceLayout& layout) {
  const index_t outer = layout.transposed ? x.rows : x.cols;
  const index_t inner = layout.transposed ? x.cols : x.rows;
  return (outer - 1) * layout.ld + inner;
}

StridedBytes strided_bytes_of(const MatrixBatchRef& x) {
  const MatrixRef& m = x.matrix;
  return strided_bytes(m.data, m.place, make_dim(x.count, m.rows, m.cols),
                       make_dim(x.stride, m.row_stride, m.col_stride), m.buffer);
}

// A dense row-major batch of x's extents filling `buffer`.
StridedBytes dense_bytes_of(Allocation& buffer, const MatrixBatchRef& x) {
  const MatrixRef& m = x.matrix;
  return strided_bytes(buffer.data(), m.place, make_dim(x.count, m.rows, m.cols),
                       make_dim(m.rows * m.cols, m.cols, index_t{1}), &buffer);
}

PreparedOperand in_place(const MatrixBatchRef& x, const InPlaceLayout& layout) {
  PreparedOperand prepared;
  prepared.blas = {x.matrix.data, layout.ld, x.count == 1 ? 0 : x.stride, x.matrix.buffer};
  prepared.transposed = layout.transposed;
  return prepared;
}

// A dense row-major copy of x (row-major: the transpose of a column-major matrix with ld = cols).
PreparedOperand dense_copy(const MatrixBatchRef& x, bool copy_values) {
  const MatrixRef& m = x.matrix;
  const std::size_t element_size = size_of(m.type);
  PreparedOperand prepared;
  prepared.temporary = std::make_unique<Allocation>(
      static_cast<std::size_t>(x.count * m.rows * m.cols) * element_size, m.place);
  if (copy_values) {
    copy_strided(dense_bytes_of(*prepared.temporary, x), strided_bytes_of(x), element_size);
  }
  prepared.blas = {prepared.temporary->data(), std::max<index_t>(m.cols, 1),
                   x.count == 1 ? 0 : m.rows * m.cols, prepared.temporary.get()};
  prepared.transposed = true;
  return prepared;
}

// The bytes a batch touches, [begin, end); strides may be negative.
struct ByteRange {
  std::uintptr_t begin;
  std::uintptr_t end;
};

ByteRange byte_range(const MatrixBatchRef& x) {
  const MatrixRef& m = x.matrix;
  index_t low = 0;
  index_t high = 0;
  for (const auto& [extent, stride] :
       {std::pair(x.count, x.stride), std::pair(m.rows, m.row_stride),
        std::pair(m.cols, m.col_stride)}) {
    const index_t reach = (extent - 1) * stride;
    (reach < 0 ? low : high) += reach;
  }
  const auto size = static_cast<index_t>(size_of(m.type));
  const auto base = reinterpret_cast<std::uintptr_t>(m.data);
  return {base + static_cast<std::uintptr_t>(low * size),
          base + static_cast<std::uintptr_t>((high + 1) * size)};
}

bool is_empty(const MatrixBatchRef& x) {
  return x.count == 0 || x.matrix.rows == 0 || x.matrix.cols == 0;
}

bool overlaps(const MatrixBatchRef& x, const MatrixBatchRef& y) {
  if (x.matrix.place != y.matrix.place || is_empty(x) || is_empty(y)) return false;
  const ByteRange r = byte_range(x);
  const ByteRange s = byte_range(y);
  return r.begin < s.end && s.begin < r.end;
}

}  // namespace

PreparedOperand prepare_input(const MatrixBatchRef& x) {
  const InPlaceLayout layout = in_place_layout(x.matrix);
  if (layout.fits && (x.count == 1 || x.stride >= 0)) return in_place(x, layout);
  return dense_copy(x, true);
}

PreparedOperand prepare_output(const MatrixBatchRef& c, const MatrixBatchRef& a,
                               const MatrixBatchRef& b, bool read_values) {
  const InPlaceLayout layout = in_place_layout(c.matrix);
  const bool disjoint_batch = c.count == 1 || c.stride >= matrix_span(c.matrix, layout);
  if (layout.fits && disjoint_batch && !overlaps(c, a) && !overlaps(c, b)) {
    return in_place(c, layout);
  }
  return dense_copy(c, read_values);
}

void write_back(const PreparedOperand& prepared, const MatrixBatchRef& c) {
  if (!prepared.temporary) return;
  copy_strided(strided_bytes_of(c), dense_bytes_of(*prepared.temporary, c), size_of(c.matrix.type));
}

ZeroOperands zero_operands(DataType type, const Place& place, index_t m, index_t n) {
  const std::size_t element_size = size_of(type);
  const index_t length = std::max(m, n);
  ZeroOperands zeros;
  zeros.storage =
      std::make_unique<Allocation>(static_cast<std::size_t>(length) * element_size, place);
  // All-zero bytes are 0 in every floating-point element type.
  const std::uint64_t zero = 0;
  Allocation* const storage = zeros.storage.get();
  fill_strided(
      strided_bytes(storage->data(), place, make_dim(length), make_dim(index_t{1}), storage), &zero,
      element_size);
  // One dense row-major column (m x 1) and row (1 x n), sharing the zeros.
  zeros.a.matrix = {storage->data(), type, place, m, 1, 1, 1, storage};
  zeros.b.matrix = {storage->data(), type, place, 1, n, n, 1, storage};
  return zeros;
}

}  // namespace detail
}  // namespace tensorx
