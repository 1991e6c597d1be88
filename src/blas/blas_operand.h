// How a row-major strided matrix (or batch) reaches a column-major BLAS: read where it lies when
// its strides allow, else through a dense temporary. Private to src/.
#pragma once

#include <memory>

#include "blas/gemm_call.h"
#include "tensorx/blas/matrix_ref.h"
#include "tensorx/memory/allocation.h"

namespace tensorx {
namespace detail {

/// A matrix batch as the BLAS reads it.
struct PreparedOperand {
  BlasOperand blas;
  /// True when the row-major matrix is the transpose of the column-major one the BLAS reads
  /// (column stride 1); false when it is that matrix itself (row stride 1, a transposed view).
  bool transposed = true;
  /// The dense copy the BLAS reads and writes instead of the matrix, when there is one.
  std::unique_ptr<Allocation> temporary;
};

/// An input: read in place when one stride is 1 and the other a valid leading dimension, and
/// batches are a non-negative stride apart; else a dense copy. A batch of one matrix gets stride
/// 0, so that it serves every matrix of the product.
PreparedOperand prepare_input(const MatrixBatchRef& x);

/// The output: written in place when it could be read in place, its matrices do not overlap one
/// another and it shares no memory with `a` or `b` (a BLAS must not read what it writes); else a
/// dense temporary that holds C's values when `read_values` (beta != 0).
PreparedOperand prepare_output(const MatrixBatchRef& c, const MatrixBatchRef& a,
                               const MatrixBatchRef& b, bool read_values);

/// Copies a prepared output's temporary, if it has one, back into `c`.
void write_back(const PreparedOperand& prepared, const MatrixBatchRef& c);

/// An m x k and a k x n batch of zeros, k = 1, for products whose inner extent is 0.
struct ZeroOperands {
  MatrixBatchRef a;
  MatrixBatchRef b;
  std::unique_ptr<Allocation> storage;
};
ZeroOperands zero_operands(DataType type, const Place& place, index_t m, index_t n);

}  // namespace detail
}  // namespace tensorx
