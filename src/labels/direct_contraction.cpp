// Planning a direct contraction (tensorx/labels/direct_contraction.h): which pairs take it, and
// the offset tables its kernel reads.
#include "tensorx/labels/direct_contraction.h"

#include <algorithm>
#include <cstdlib>
#include <limits>

namespace tensorx {
namespace detail {
namespace {

/// Elements of the memory an operand's view spans, first to last.
index_t spanned_elements(const LabelledOperand& operand) {
  index_t span = 1;
  for (int i = 0; i < operand.rank; ++i)
    span += std::abs(operand.strides[i]) * (operand.dims[i] - 1);
  return span;
}

/// An overlapping view: more than twice as many elements as the memory it spans, so that a dense
/// copy of it (im2col) moves more bytes than reading it in place.
bool overlaps_itself(const LabelledOperand& operand) {
  return operand.numel() > 2 * spanned_elements(operand);
}

/// The ids of `mask`'s labels of extent above 1 (count in `count`), by the magnitude of their
/// stride in `order_by`, largest first: the last then varies fastest and steps through the
/// nearest memory.
int ordered_ids(const LabelTable& table, LabelMask mask, const LabelledOperand& order_by,
                int* ids) {
  int count = 0;
  for (int id = 0; id < table.size; ++id) {
    if (((mask >> id) & 1u) && table.extents[id] > 1) ids[count++] = id;
  }
  std::stable_sort(ids, ids + count, [&](int a, int b) {
    return std::abs(order_by.stride_of(a)) > std::abs(order_by.stride_of(b));
  });
  return count;
}

constexpr index_t kLargestIndex = std::numeric_limits<std::int32_t>::max();

/// Fills a multi-index of `mask`'s labels (their ids in `ids`, as ordered_ids orders them); false
/// when it has more than kMaxRank labels or 2^31 entries or more.
bool fill_index(const LabelTable& table, LabelMask mask, const LabelledOperand& order_by, int* ids,
                int& rank, std::uint32_t* extents, std::uint32_t& total) {
  rank = ordered_ids(table, mask, order_by, ids);
  if (rank > kMaxRank || table.extent_of(mask) > kLargestIndex) return false;
  for (int d = 0; d < rank; ++d) extents[d] = static_cast<std::uint32_t>(table.extents[ids[d]]);
  total = static_cast<std::uint32_t>(table.extent_of(mask));
  return true;
}

/// Offset `entry` of a multi-index over `ids` (the last varying fastest) along `operand`.
index_t offset_of(const LabelTable& table, const int* ids, int rank, index_t entry,
                  const LabelledOperand& operand) {
  index_t offset = 0;
  for (int d = rank - 1; d >= 0; --d) {
    offset += entry % table.extents[ids[d]] * operand.stride_of(ids[d]);
    entry /= table.extents[ids[d]];
  }
  return offset;
}

bool same_buffer(const LabelledOperand& a, const LabelledOperand& b) {
  return a.allocated() && b.allocated() && a.buffer->get() == b.buffer->get();
}

}  // namespace

bool plan_direct_contraction(const PairPlan& plan, const LabelTable& table,
                             const LabelledOperand& x, const LabelledOperand& y,
                             const LabelledOperand& c, DirectContraction& out) {
  if (!plan.gemm || same_buffer(c, x) || same_buffer(c, y)) return false;
  // A label of c alone would repeat each result along it: the GEMM route writes those copies.
  if (table.extent_of(c.mask & ~(x.mask | y.mask)) > 1) return false;
  const LabelMask rows_of_x = x.mask & c.mask & ~y.mask;
  const LabelMask columns_of_y = y.mask & c.mask & ~x.mask;
  const LabelMask inner = x.mask & y.mask & ~c.mask;
  const LabelMask batch = x.mask & y.mask & c.mask;
  // The long operand is the overlapping one; the short one's free labels are the columns.
  bool long_is_x;
  if (overlaps_itself(x) && table.extent_of(columns_of_y) <= kDirectMaxColumns) {
    long_is_x = true;
  } else if (overlaps_itself(y) && table.extent_of(rows_of_x) <= kDirectMaxColumns) {
    long_is_x = false;
  } else {
    return false;
  }
  const LabelledOperand& long_side = long_is_x ? x : y;
  const LabelledOperand& short_side = long_is_x ? y : x;
  const LabelMask rows = long_is_x ? rows_of_x : columns_of_y;
  const LabelMask columns = long_is_x ? columns_of_y : rows_of_x;
  if (table.extent_of(inner) > kDirectMaxInner) return false;

  DirectContraction work;
  work.long_is_x = long_is_x;
  int row_ids[kMaxLabels];
  int batch_ids[kMaxLabels];
  if (!fill_index(table, rows, long_side, row_ids, work.row_rank, work.row_extents, work.rows) ||
      !fill_index(table, batch, long_side, batch_ids, work.batch_rank, work.batch_extents,
                  work.batches)) {
    return false;
  }
  for (int d = 0; d < work.row_rank; ++d) {
    work.row_long_strides[d] = long_side.stride_of(row_ids[d]);
    work.row_c_strides[d] = c.stride_of(row_ids[d]);
  }
  for (int d = 0; d < work.batch_rank; ++d) {
    work.batch_long_strides[d] = long_side.stride_of(batch_ids[d]);
    work.batch_short_strides[d] = short_side.stride_of(batch_ids[d]);
    work.batch_c_strides[d] = c.stride_of(batch_ids[d]);
  }

  int column_ids[kMaxLabels];
  const int column_rank = ordered_ids(table, columns, short_side, column_ids);
  work.columns = static_cast<int>(table.extent_of(columns));
  for (int j = 0; j < work.columns; ++j) {
    work.column_short[j] = offset_of(table, column_ids, column_rank, j, short_side);
    work.column_c[j] = offset_of(table, column_ids, column_rank, j, c);
  }

  int inner_ids[kMaxLabels];
  const int inner_rank = ordered_ids(table, inner, long_side, inner_ids);
  work.inner = static_cast<int>(table.extent_of(inner));
  for (int k = 0; k < work.inner; ++k) {
    const index_t at_long = offset_of(table, inner_ids, inner_rank, k, long_side);
    const index_t at_short = offset_of(table, inner_ids, inner_rank, k, short_side);
    if (std::abs(at_long) > kLargestIndex || std::abs(at_short) > kLargestIndex) return false;
    work.inner_long[k] = static_cast<std::int32_t>(at_long);
    work.inner_short[k] = static_cast<std::int32_t>(at_short);
  }
  out = work;
  return true;
}

}  // namespace detail
}  // namespace tensorx
