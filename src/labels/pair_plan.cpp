// Planning a pair contraction as one GEMM (labels/pair_plan.h).
#include "tensorx/labels/pair_plan.h"

#include <cstdlib>

#include "tensorx/labels/small_sort.h"

namespace tensorx {
namespace detail {
namespace {

// The labels of one group in an order, outermost first.
struct Group {
  LabelMask mask = 0;
  int size = 0;
  std::int8_t ids[kMaxRank] = {};
};

// The labels of `mask` in `operand`, ordered by decreasing stride (its memory order).
Group in_memory_order(const LabelledOperand& operand, LabelMask mask) {
  Group group;
  group.mask = mask;
  for (int axis = 0; axis < operand.rank; ++axis) {
    if ((mask >> operand.ids[axis]) & 1u) group.ids[group.size++] = operand.ids[axis];
  }
  small_stable_sort(group.ids, group.ids + group.size, [&](int a, int b) {
    return std::abs(operand.stride_of(a)) > std::abs(operand.stride_of(b));
  });
  return group;
}

// True, with the group's one stride in *stride, when stepping the group's labels in order is
// stepping one axis of `operand`: each label's stride is the next one's times its extent. An
// empty group is one axis of extent 1 (stride 0).
bool merges(const LabelTable& table, const LabelledOperand& operand, const Group& group,
            index_t* stride) {
  if (group.size == 0) {
    *stride = 0;
    return true;
  }
  const index_t inner = operand.stride_of(group.ids[group.size - 1]);
  for (int i = group.size - 2; i >= 0; --i) {
    const int next = group.ids[i + 1];
    if (operand.stride_of(group.ids[i]) != operand.stride_of(next) * table.extents[next]) {
      return false;
    }
  }
  *stride = inner;
  return true;
}

// A group's order: the memory order of the first operand (largest first) in which it merges, or
// of the largest if it merges in none (they are then all copied in that order).
Group choose_order(const LabelTable& table, LabelMask mask, const LabelledOperand* const* by_size,
                   int count) {
  Group first;
  for (int i = 0; i < count; ++i) {
    if ((by_size[i]->mask & mask) != mask) continue;
    const Group group = in_memory_order(*by_size[i], mask);
    index_t stride;
    if (merges(table, *by_size[i], group, &stride)) return group;
    if (first.size == 0) first = group;
  }
  return first;
}

void append(std::int8_t* ids, int& size, const Group& group) {
  for (int i = 0; i < group.size; ++i) ids[size++] = group.ids[i];
}

// The labels of `operand` outside every group (extent-1 labels), which a dense copy puts first.
Group ones_of(const LabelledOperand& operand, LabelMask groups) {
  Group ones;
  for (int axis = 0; axis < operand.rank; ++axis) {
    if (!((groups >> operand.ids[axis]) & 1u)) ones.ids[ones.size++] = operand.ids[axis];
  }
  return ones;
}

// Plans one side whose matrices are rows x cols (groups `rows` and `cols`, plus `batch`). A side
// whose groups all merge is read in place; else it is copied densely as [ones, batch, rows,
// cols] or [ones, batch, cols, rows], whichever keeps its unit-stride label innermost.
GemmSide plan_side(const LabelTable& table, const LabelledOperand& operand, const Group& batch,
                   const Group& rows, const Group& cols) {
  GemmSide side;
  if (merges(table, operand, batch, &side.batch_stride) &&
      merges(table, operand, rows, &side.row_stride) &&
      merges(table, operand, cols, &side.col_stride)) {
    return side;
  }
  side.permute = true;
  const Group ones = ones_of(operand, batch.mask | rows.mask | cols.mask);
  int innermost = -1;
  index_t smallest = 0;
  for (int axis = 0; axis < operand.rank; ++axis) {
    const index_t stride = std::abs(operand.strides[axis]);
    if (table.extents[operand.ids[axis]] > 1 && (innermost < 0 || stride < smallest)) {
      innermost = operand.ids[axis];
      smallest = stride;
    }
  }
  const bool rows_inner = innermost >= 0 && ((rows.mask >> innermost) & 1u);
  append(side.dense_ids, side.dense_rank, ones);
  append(side.dense_ids, side.dense_rank, batch);
  append(side.dense_ids, side.dense_rank, rows_inner ? cols : rows);
  append(side.dense_ids, side.dense_rank, rows_inner ? rows : cols);
  LabelledOperand dense;
  dense_operand(table, side.dense_ids, side.dense_rank, dense);
  merges(table, dense, batch, &side.batch_stride);
  merges(table, dense, rows, &side.row_stride);
  merges(table, dense, cols, &side.col_stride);
  return side;
}

// Labels of extent 1 are in no group: no stride of theirs is ever stepped.
LabelMask ones_mask(const LabelTable& table) {
  LabelMask ones = 0;
  for (int id = 0; id < table.size; ++id) {
    if (table.extents[id] == 1) ones |= LabelMask{1} << id;
  }
  return ones;
}

}  // namespace

void dense_operand(const LabelTable& table, const std::int8_t* ids, int rank,
                   LabelledOperand& out) {
  out.rank = rank;
  out.mask = 0;
  index_t stride = 1;
  for (int axis = rank - 1; axis >= 0; --axis) {
    out.ids[axis] = ids[axis];
    out.dims[axis] = table.extents[ids[axis]];
    out.strides[axis] = stride;
    stride *= out.dims[axis];
    out.mask |= LabelMask{1} << ids[axis];
  }
}

bool pair_is_gemm(const LabelTable& table, LabelMask x_mask, LabelMask y_mask,
                  LabelMask result_mask, bool blas_type) {
  const LabelMask ones = ones_mask(table);
  return blas_type && (x_mask & result_mask & ~y_mask & ~ones) != 0 &&
         (y_mask & result_mask & ~x_mask & ~ones) != 0 &&
         (x_mask & y_mask & ~result_mask & ~ones) != 0;
}

PairPlan plan_pair(const LabelTable& table, const LabelledOperand& x, const LabelledOperand& y,
                   LabelMask result_mask, const LabelledOperand* result, bool blas_type) {
  const LabelMask ones = ones_mask(table);
  const LabelMask batch = x.mask & y.mask & result_mask & ~ones;
  const LabelMask rows = x.mask & result_mask & ~y.mask & ~ones;
  const LabelMask cols = y.mask & result_mask & ~x.mask & ~ones;
  const LabelMask inner = x.mask & y.mask & ~result_mask & ~ones;

  PairPlan plan;
  plan.gemm = pair_is_gemm(table, x.mask, y.mask, result_mask, blas_type);
  if (!plan.gemm) {
    // The element-wise or reducing form writes a result laid out in x's label order, then y's.
    if (result == nullptr) {
      for (const LabelledOperand* operand : {&x, &y}) {
        for (int axis = 0; axis < operand->rank; ++axis) {
          const int id = operand->ids[axis];
          bool seen = false;
          for (int i = 0; i < plan.result_rank; ++i) seen = seen || plan.result_ids[i] == id;
          if (!seen && ((result_mask >> id) & 1u)) plan.result_ids[plan.result_rank++] = id;
        }
      }
    }
    return plan;
  }

  // Group orders come from the largest operands first: an order that another operand does not
  // merge in costs a copy of that (smaller) operand.
  const LabelledOperand* by_size[3] = {&x, &y, result};
  const int count = result == nullptr ? 2 : 3;
  small_stable_sort(
      by_size, by_size + count,
      [](const LabelledOperand* a, const LabelledOperand* b) { return a->numel() > b->numel(); });
  const Group batch_group = choose_order(table, batch, by_size, count);
  const Group row_group = choose_order(table, rows, by_size, count);
  const Group col_group = choose_order(table, cols, by_size, count);
  const Group inner_group = choose_order(table, inner, by_size, count);

  plan.batched = batch != 0;
  plan.batch = table.extent_of(batch);
  plan.m = table.extent_of(rows);
  plan.n = table.extent_of(cols);
  plan.k = table.extent_of(inner);
  plan.x = plan_side(table, x, batch_group, row_group, inner_group);
  plan.y = plan_side(table, y, batch_group, inner_group, col_group);
  if (result != nullptr) {
    plan.c = plan_side(table, *result, batch_group, row_group, col_group);
  } else {
    Group result_ones;
    for (int id = 0; id < table.size; ++id) {
      if (((result_mask & ones) >> id) & 1u) result_ones.ids[result_ones.size++] = id;
    }
    append(plan.result_ids, plan.result_rank, result_ones);
    append(plan.result_ids, plan.result_rank, batch_group);
    append(plan.result_ids, plan.result_rank, row_group);
    append(plan.result_ids, plan.result_rank, col_group);
    LabelledOperand dense;
    dense_operand(table, plan.result_ids, plan.result_rank, dense);
    plan.c = plan_side(table, dense, batch_group, row_group, col_group);
  }
  return plan;
}

}  // namespace detail
}  // namespace tensorx
