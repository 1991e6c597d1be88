// The checks every gemm and batch_gemm passes before any work, with messages that name the
// formula and all three shapes. Private to src/.
#pragma once

#include "tensorx/blas/matrix_ref.h"
#include "tensorx/blas/trans.h"

namespace tensorx {
namespace detail {

/// One requested product, as the user wrote it (row-major, op() applied to A and B).
struct GemmRequest {
  bool batched = false;  // batch_gemm (shapes print with their batch extent) or gemm
  Trans trans_a = Trans::kNo;
  Trans trans_b = Trans::kNo;
  MatrixBatchRef a;
  MatrixBatchRef b;
  MatrixBatchRef c;
};

/// Throws TypeError (element types differ or are not float32, float64, float16 or bfloat16),
/// ShapeError (negative extents, op(A) and op(B) do not chain, the product does not fit C, a batch
/// extent of A or B is neither 1 nor C's), PlaceError (A, B and C not on one place) or DeviceError
/// (that place is an unusable GPU), in that order.
void check_gemm(const GemmRequest& request);

/// K, the extent that op(A) and op(B) share.
index_t inner_extent(const GemmRequest& request);

}  // namespace detail
}  // namespace tensorx
