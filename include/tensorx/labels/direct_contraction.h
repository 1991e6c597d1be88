// A contraction computed where its operands lie, without the GEMM's dense copies: on a GPU, a pair
// whose larger operand is an overlapping view (tx::windows: a convolution's every window) and whose
// smaller one gives each result few columns (a grouped convolution's filters of a group). The
// GEMM route copies the windows densely first (im2col: nine times the image for 3 x 3 windows),
// then cuBLAS multiplies matrices of 4 or 16 columns with its small-N kernel, then the result is
// copied into place: 0.78 ms for Tensor Comprehensions' gconv (32, 32, 4, 4, 56, 56) on an H200,
// where cuDNN's direct kernel takes 0.45 (bench/RESULTS.md). Here one kernel gives each thread one
// row of the product: it reads the row's inner elements in place (neighbouring threads read
// neighbouring pixels) and keeps every column's sum in registers.
//
// The kernel is src/labels/direct_contraction_cuda.cu: a block stages its batch's short operand
// (at most kDirectMaxInner x kDirectMaxColumns values) in shared memory, where every thread reads
// the same values at once, then each thread computes its row. stage_direct_short and
// contract_direct_row, the kernel's whole work, are host and device code, so that a CPU test runs
// them on planned contractions too.
#pragma once

#include <cstdint>

#include "tensorx/core/config.h"
#include "tensorx/core/data_type.h"
#include "tensorx/labels/label_table.h"
#include "tensorx/labels/pair_plan.h"

namespace tensorx {
namespace detail {

/// The most columns (results per row) of a direct contraction: the kernel keeps each one's sum in
/// a register.
constexpr int kDirectMaxColumns = 16;
/// The most inner elements per result: their offsets travel in the kernel's parameters.
constexpr int kDirectMaxInner = 288;

/// A planned direct contraction, c(batch, row, column) = alpha * sum over k of long(batch, row, k)
/// * short(batch, k, column) + beta * c: every offset in elements from the operands' first
/// elements. Rows and batches are multi-indices over their labels (the last varying fastest),
/// columns and inner elements tables of offsets. Trivially copyable: the kernel's parameter.
struct DirectContraction {
  int row_rank = 0;
  std::uint32_t row_extents[kMaxRank] = {};
  index_t row_long_strides[kMaxRank] = {};
  index_t row_c_strides[kMaxRank] = {};
  std::uint32_t rows = 1;

  int batch_rank = 0;
  std::uint32_t batch_extents[kMaxRank] = {};
  index_t batch_long_strides[kMaxRank] = {};
  index_t batch_short_strides[kMaxRank] = {};
  index_t batch_c_strides[kMaxRank] = {};
  std::uint32_t batches = 1;

  /// Column j is at column_short[j] in the short operand and column_c[j] in c; columns past
  /// `columns` read the short operand's first column and write nothing.
  int columns = 0;
  index_t column_short[kDirectMaxColumns] = {};
  index_t column_c[kDirectMaxColumns] = {};

  /// Inner element k is at inner_long[k] in the long operand and inner_short[k] in the short one.
  int inner = 0;
  std::int32_t inner_long[kDirectMaxInner] = {};
  std::int32_t inner_short[kDirectMaxInner] = {};

  /// Whether the long operand is the pair's x (the product's first factor) rather than its y.
  bool long_is_x = true;
  double alpha = 1;
  double beta = 0;
};

/// Adds the offsets of entry `index` of a multi-index over `rank` extents (the last varying
/// fastest) along two stride lists, and a third unless it is null; `index` must be below the
/// extents' product.
TENSORX_HOST_DEVICE inline void add_offsets(std::uint32_t index, int rank,
                                            const std::uint32_t* extents, const index_t* first,
                                            const index_t* second, const index_t* third,
                                            index_t& at_first, index_t& at_second,
                                            index_t& at_third) {
  for (int d = rank - 1; d >= 0; --d) {
    const std::uint32_t next = index / extents[d];
    const auto digit = static_cast<index_t>(index - next * extents[d]);
    at_first += digit * first[d];
    at_second += digit * second[d];
    if (third != nullptr) at_third += digit * third[d];
    index = next;
  }
}

/// Stages the short operand's part of batch `batch` as staged[k * Columns + j], in the compute
/// type C (0 for the columns past w.columns): entries first, first + step, ... of the
/// w.inner * Columns, so that a block's threads share the work.
template <int Columns, class C, class T>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE void stage_direct_short(const DirectContraction& w,
                                                                 std::uint32_t batch,
                                                                 const T* short_data, C* staged,
                                                                 int first, int step) {
  index_t at = 0, unused_long = 0, unused_c = 0;
  add_offsets(batch, w.batch_rank, w.batch_extents, w.batch_short_strides, w.batch_long_strides,
              nullptr, at, unused_long, unused_c);
  for (int e = first; e < w.inner * Columns; e += step) {
    const int k = e / Columns, j = e % Columns;
    staged[e] = j < w.columns
                    ? static_cast<C>(short_data[at + w.inner_short[k] + w.column_short[j]])
                    : C(0);
  }
}

/// Writes the `w.columns` results of row `row` of batch `batch` from the batch's staged short
/// operand (stage_direct_short), summing in the compute type C, inner elements in table order.
/// Columns is the kernel's register budget, at least w.columns.
template <int Columns, class C, class T>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE void contract_direct_row(const DirectContraction& w,
                                                                  std::uint32_t batch,
                                                                  std::uint32_t row,
                                                                  const T* long_data,
                                                                  const C* staged, T* c_data) {
  index_t long_at = 0, c_at = 0, unused = 0;
  add_offsets(batch, w.batch_rank, w.batch_extents, w.batch_long_strides, w.batch_c_strides,
              nullptr, long_at, c_at, unused);
  add_offsets(row, w.row_rank, w.row_extents, w.row_long_strides, w.row_c_strides, nullptr, long_at,
              c_at, unused);
  C sums[Columns];
  TENSORX_UNROLL
  for (int j = 0; j < Columns; ++j) sums[j] = C(0);
  const T* long_row = long_data + long_at;
  for (int k = 0; k < w.inner; ++k) {
    const auto value = static_cast<C>(long_row[w.inner_long[k]]);
    const C* short_row = staged + k * Columns;
    TENSORX_UNROLL
    for (int j = 0; j < Columns; ++j) sums[j] += value * short_row[j];
  }
  T* out = c_data + c_at;
  TENSORX_UNROLL
  for (int j = 0; j < Columns; ++j) {
    if (j < w.columns) {
      T& element = out[w.column_c[j]];
      C result = static_cast<C>(w.alpha) * sums[j];
      // beta is 0 or 1 (the saver's); a 0 never reads c, which may hold NaN, as in a BLAS.
      if (w.beta != 0) result += static_cast<C>(w.beta) * static_cast<C>(element);
      element = static_cast<T>(result);
    }
  }
}

/// The columns a kernel keeps in registers for `columns` results a row: 4, 8 or 16.
constexpr int direct_column_budget(int columns) {
  return columns <= 4 ? 4 : columns <= 8 ? 8 : kDirectMaxColumns;
}

/// Plans `plan`'s pair (c = alpha x y + beta c, planned by plan_pair) as a direct contraction
/// where it suits one: one of x and y an overlapping view (more than twice as many elements as
/// the memory it spans), the other giving at most kDirectMaxColumns columns, at most
/// kDirectMaxInner inner elements whose offsets fit 32 bits, fewer than 2^31 rows and batches,
/// and c in a buffer that neither reads. Sets `out` (alpha 1, beta 0) and returns true then;
/// returns false otherwise.
bool plan_direct_contraction(const PairPlan& plan, const LabelTable& table,
                             const LabelledOperand& x, const LabelledOperand& y,
                             const LabelledOperand& c, DirectContraction& out);

/// Runs a planned direct contraction of GPU operands x and y into c (one kernel on the current
/// stream of their device, ordered after the operands' earlier uses). Throws CudaError when the
/// launch fails, DeviceError in a build without CUDA.
void run_direct_contraction(const DirectContraction& work, DataType type, const LabelledOperand& x,
                            const LabelledOperand& y, const LabelledOperand& c);

}  // namespace detail
}  // namespace tensorx
