// The GEMM of a planned pair contraction (labels/gemm_pair.h).
#include "tensorx/labels/gemm_pair.h"

#include <algorithm>
#include <cstdlib>
#include <memory>

#include "labels/permute_copy.h"
#include "tensorx/blas/compiled_gemm.h"
#include "tensorx/core/stats.h"
#include "tensorx/labels/direct_contraction.h"
#include "tensorx/memory/allocation.h"
#include "tensorx/memory/strided_copy.h"

namespace tensorx {
namespace detail {
namespace {

// The bytes of `operand` (at `data` in `buffer` on `place`) with its axes visited in the order of
// `ids`. The buffer's stream record orders the copies across streams.
StridedBytes bytes_in_order(const LabelledOperand& operand, void* data, Allocation* buffer,
                            const Place& place, const std::int8_t* ids, int rank) {
  StridedBytes bytes;
  bytes.data = data;
  bytes.buffer = buffer;
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
    ref.matrix.buffer = buffer();
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
  /// The buffer data() lies in, whose stream record orders the GEMM and the copies on a GPU.
  Allocation* buffer() const { return temporary_ ? temporary_.get() : operand_buffer(); }
  Allocation* operand_buffer() const {
    return operand_.allocated() ? operand_.buffer->get() : nullptr;
  }
  StridedBytes dense_bytes() const {
    return bytes_in_order(dense_, temporary_->data(), temporary_.get(), operand_.place(),
                          side_.dense_ids, side_.dense_rank);
  }
  StridedBytes operand_bytes() const {
    return bytes_in_order(operand_, data_, operand_buffer(), operand_.place(), side_.dense_ids,
                          side_.dense_rank);
  }

  const GemmSide& side_;
  const LabelledOperand& operand_;
  std::size_t element_size_;
  void* data_ = nullptr;
  LabelledOperand dense_;
  std::unique_ptr<Allocation> temporary_;
};

// The GEMM of one plan, with its copies.
void run_planned(const PairPlan& plan, const LabelTable& table, const LabelledOperand& x,
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

// Bytes of dense copies a piece may make: about one core's L2 cache, so that a copy is still
// cached when its GEMM reads it (or, for the result, when it is copied back).
constexpr std::size_t kPieceCopyBytes = std::size_t{1} << 20;

// The bytes of the dense copies `plan` makes.
std::size_t copy_bytes(const PairPlan& plan, const LabelledOperand& x, const LabelledOperand& y,
                       const LabelledOperand& c, std::size_t element_size) {
  std::size_t bytes = 0;
  if (plan.x.permute) bytes += static_cast<std::size_t>(x.numel()) * element_size;
  if (plan.y.permute) bytes += static_cast<std::size_t>(y.numel()) * element_size;
  if (plan.c.permute) bytes += static_cast<std::size_t>(c.numel()) * element_size;
  return bytes;
}

// `operand` restricted to [start, start + count) along label `id` (unchanged if it lacks it).
LabelledOperand slice(const LabelledOperand& operand, int id, index_t start, index_t count) {
  LabelledOperand piece = operand;
  const int axis = operand.axis_of(id);
  if (axis >= 0) {
    piece.offset += start * operand.strides[axis];
    piece.dims[axis] = count;
  }
  return piece;
}

// The label to cut a contraction along so that each piece's copies stay in cache, or -1: a label
// of the result (never a contracted one) whose piece keeps the GEMM a GEMM (its group has other
// labels of extent above 1), such that the operands without it, which every piece reads again,
// fit in cache themselves; of those, the outermost in memory of the largest copied operand.
int split_label(const PairPlan& plan, const LabelTable& table, const LabelledOperand& x,
                const LabelledOperand& y, const LabelledOperand& c, std::size_t element_size) {
  const GemmSide* sides[3] = {&plan.x, &plan.y, &plan.c};
  const LabelledOperand* operands[3] = {&x, &y, &c};
  const LabelledOperand* copied = nullptr;
  for (int i = 0; i < 3; ++i) {
    if (sides[i]->permute && (copied == nullptr || operands[i]->numel() > copied->numel())) {
      copied = operands[i];
    }
  }
  const LabelMask rows = x.mask & c.mask & ~y.mask;
  const LabelMask cols = y.mask & c.mask & ~x.mask;
  int best = -1;
  for (int id = 0; id < table.size; ++id) {
    const LabelMask bit = LabelMask{1} << id;
    if (!(c.mask & bit) || table.extents[id] < 2) continue;
    if ((rows & bit) && table.extent_of(rows & ~bit) < 2) continue;
    if ((cols & bit) && table.extent_of(cols & ~bit) < 2) continue;
    std::size_t reread = 0;
    for (const LabelledOperand* operand : {&x, &y}) {
      if (!(operand->mask & bit))
        reread += static_cast<std::size_t>(operand->numel()) * element_size;
    }
    if (reread > kPieceCopyBytes) continue;
    if (best < 0 || std::abs(copied->stride_of(id)) > std::abs(copied->stride_of(best))) best = id;
  }
  return best;
}

}  // namespace

void run_gemm_pair(const PairPlan& plan, const LabelTable& table, const LabelledOperand& x,
                   const LabelledOperand& y, const LabelledOperand& c, DataType type, double alpha,
                   double beta) {
  // On a GPU, a pair that would copy an overlapping view (the windows of a convolution) and has
  // few columns runs as one kernel over the operands in place (labels/direct_contraction.h).
  if (is_gpu_place(c.place())) {
    DirectContraction direct;
    if (plan_direct_contraction(plan, table, x, y, c, direct)) {
      direct.alpha = alpha;
      direct.beta = beta;
      run_direct_contraction(direct, type, x, y, c);
      stats::record_pass();
      return;
    }
  }
  // A contraction that copies more than a cache holds (a grouped convolution's im2col of every
  // image at once) runs in pieces along a label of the result, as Caffe's im2col runs per image
  // and group: each piece's copies are made, read by its GEMM and copied back while cached. GPUs
  // take the whole (one launch per piece would cost more than the copies' traffic).
  const std::size_t size = size_of(type);
  const std::size_t bytes = copy_bytes(plan, x, y, c, size);
  const int id = bytes > kPieceCopyBytes && !is_gpu_place(c.place())
                     ? split_label(plan, table, x, y, c, size)
                     : -1;
  if (id < 0) {
    run_planned(plan, table, x, y, c, type, alpha, beta);
    return;
  }
  const index_t extent = table.extents[id];
  const index_t chunk = std::max<index_t>(
      1, static_cast<index_t>(static_cast<double>(extent) * kPieceCopyBytes / bytes));
  LabelTable piece_table = table;
  for (index_t start = 0; start < extent; start += chunk) {
    const index_t count = std::min(chunk, extent - start);
    piece_table.extents[id] = count;
    const LabelledOperand px = slice(x, id, start, count);
    const LabelledOperand py = slice(y, id, start, count);
    const LabelledOperand pc = slice(c, id, start, count);
    // Each piece is planned again: a piece of extent 1 drops the label from its group.
    run_gemm_pair(plan_pair(piece_table, px, py, c.mask, &pc, true), piece_table, px, py, pc, type,
                  alpha, beta);
  }
}

}  // namespace detail
}  // namespace tensorx
