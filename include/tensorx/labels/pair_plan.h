// How the product of two labelled operands, summed over the labels they share that the result
// lacks, becomes ONE gemm or batch_gemm. Labels fall into four groups: batch (in both operands and
// the result), rows (the first operand and the result), columns (the second and the result) and
// inner (both operands, contracted). Each operand is then a batch of matrices when, in its memory,
// the labels of every group it has form one block of dims (a group "merges" into one stride); the
// BLAS layer turns the matrices' strides into transpose flags. An operand whose groups do not merge
// is first copied densely in group order (transpose-transpose-GEMM-transpose); the group orders are
// taken from the largest operands first, so that the fewest bytes move.
#pragma once

#include <cstdint>

#include "tensorx/labels/label_table.h"

namespace tensorx {
namespace detail {

/// How one operand (or the result) reaches the GEMM.
struct GemmSide {
  /// Copied into a dense temporary first, whose axes carry the labels dense_ids in order.
  bool permute = false;
  int dense_rank = 0;
  std::int8_t dense_ids[kMaxRank] = {};
  /// The batch of matrices (of the operand, or of its dense copy), strides in elements: matrix b
  /// starts batch_stride * b elements in, element (r, c) is at r * row_stride + c * col_stride.
  index_t batch_stride = 0;
  index_t row_stride = 0;
  index_t col_stride = 0;
};

/// The contraction of x and y into c as one (batched) GEMM: c = x * y, c m x n, x m x k, y k x n.
struct PairPlan {
  /// False where the product is not a GEMM (no row, column or inner labels, or elements a BLAS
  /// does not multiply): the element-wise or reducing form computes it then.
  bool gemm = false;
  bool batched = false;  // any batch label: batch_gemm, else gemm
  index_t batch = 1;
  index_t m = 1;
  index_t n = 1;
  index_t k = 1;
  GemmSide x;
  GemmSide y;
  GemmSide c;
  /// The labels of a result the plan lays out itself (see plan_pair), outermost first.
  int result_rank = 0;
  std::int8_t result_ids[kMaxRank] = {};
};

/// True when the product of operands with labels x_mask and y_mask into a result with labels
/// result_mask is a GEMM: elements a BLAS multiplies (`blas_type`), and row, column and inner
/// labels of extent above 1 (a product without them reads each element of its larger operand
/// once: the reduction engine runs it at memory bandwidth, a GEMM would not).
bool pair_is_gemm(const LabelTable& table, LabelMask x_mask, LabelMask y_mask,
                  LabelMask result_mask, bool blas_type);

/// Plans result = x * y summed over the labels in both and not in `result_mask`. Every label of
/// x or y must be in the other or in the result. `result` is the array written, or null for a
/// temporary that the plan lays out (result_ids, dense in that order; the caller allocates it and
/// describes it to run_gemm_pair as a dense operand). `blas_type` says whether the elements are
/// ones a BLAS multiplies.
PairPlan plan_pair(const LabelTable& table, const LabelledOperand& x, const LabelledOperand& y,
                   LabelMask result_mask, const LabelledOperand* result, bool blas_type);

/// A dense array of `table`'s extents whose axes carry `ids` in order: strides of the row-major
/// layout. `out` gets the description, without a buffer.
void dense_operand(const LabelTable& table, const std::int8_t* ids, int rank, LabelledOperand& out);

}  // namespace detail
}  // namespace tensorx
