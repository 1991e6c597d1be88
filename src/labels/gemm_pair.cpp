// The GEMM of a planned pair contraction (labels/gemm_pair.h).
#include "tensorx/labels/gemm_pair.h"

#include <memory>

#include "labels/permute_copy.h"
#include "tensorx/blas/compiled_gemm.h"
#include "tensorx/core/stats.h"
#include "tensorx/memory/allocation.h"
#include "tensorx/memory/strided_copy.h"

namespace tensorx {
namespace detail {
namespace {

// The bytes of `operand` (at `data` on `place`) with its axes visited in the order of `ids`.
StridedBytes bytes_in_order(const LabelledOperand& operand, void* data, const Place& place,
                            const std::int8_t* ids, int rank) {
  StridedBytes bytes;
  bytes.data = data;
  bytes.place = place;
  bytes.rank = rank;
  for (int i = 0; i < rank; ++i) {
    const int axis = operand.axis_of(ids[i]);
    bytes.dims[i] = operand.dims[axis];
    bytes.strides[i] = operand.strides[axis];
  }
  return bytes;
}

// One side of the GEMM: the operand where it is, or its dense copy in side.dense_ids order
// (holding its values when `copy_in`).
class SideData {
 public:
  SideData(const GemmSide& side, const LabelTable& table, const LabelledOperand& operand,
           std::size_t element_size, bool copy_in)
      : side_(side), operand_(operand), element_size_(element_size) {
    data_ = operand.data(element_size);
    if (!side.permute) return;
    dense_operand(table, side.dense_ids, side.dense_rank, dense_);
    temporary_ = std::make_unique<Allocation>(
        static_cast<std::size_t>(operand.numel()) * element_size, operand.place());
    if (copy_in) {
      permute_copy(dense_bytes(), operand_bytes(), element_size);
      stats::record_pass();
    }
  }

  void* data() const { return temporary_ ? temporary_->data() : data_; }

  /// Copies the dense temporary, if there is one, back into the operand.
  void copy_out() const {
    if (!temporary_) return;
    permute_copy(operand_bytes(), dense_bytes(), element_size_);
    stats::record_pass();
  }

  MatrixBatchRef matrices(DataType type, index_t rows, index_t cols, index_t batch) const {
    MatrixBatchRef ref;
    ref.matrix.data = data();
    ref.matrix.type = type;
    ref.matrix.place = operand_.place();
    ref.matrix.rows = rows;
    ref.matrix.cols = cols;
    ref.matrix.row_stride = side_.row_stride;
    ref.matrix.col_stride = side_.col_stride;
    ref.count = batch;
    ref.stride = side_.batch_stride;
    return ref;
  }

 private:
  StridedBytes dense_bytes() const {
    return bytes_in_order(dense_, temporary_->data(), operand_.place(), side_.dense_ids,
                          side_.dense_rank);
  }
  StridedBytes operand_bytes() const {
    return bytes_in_order(operand_, data_, operand_.place(), side_.dense_ids, side_.dense_rank);
  }

  const GemmSide& side_;
  const LabelledOperand& operand_;
  std::size_t element_size_;
  void* data_ = nullptr;
  LabelledOperand dense_;
  std::unique_ptr<Allocation> temporary_;
};

}  // namespace

void run_gemm_pair(const PairPlan& plan, const LabelTable& table, const LabelledOperand& x,
                   const LabelledOperand& y, const LabelledOperand& c, DataType type, double alpha,
                   double beta) {
  const std::size_t size = size_of(type);
  const SideData a(plan.x, table, x, size, true);
  const SideData b(plan.y, table, y, size, true);
  const SideData out(plan.c, table, c, size, beta != 0);
  const MatrixBatchRef a_ref = a.matrices(type, plan.m, plan.k, plan.batch);
  const MatrixBatchRef b_ref = b.matrices(type, plan.k, plan.n, plan.batch);
  const MatrixBatchRef c_ref = out.matrices(type, plan.m, plan.n, plan.batch);
  if (plan.batched) {
    batch_gemm(Trans::kNo, Trans::kNo, alpha, a_ref, b_ref, beta, c_ref);
  } else {
    gemm(Trans::kNo, Trans::kNo, alpha, a_ref.matrix, b_ref.matrix, beta, c_ref.matrix);
  }
  stats::record_pass();
  out.copy_out();
}

}  // namespace detail
}  // namespace tensorx
