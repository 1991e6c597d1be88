// tx::take(table, indices): rows of `table` (along its axis 0) gathered by an int32 or int64 index
// array, out[i..., j...] = table[indices[i...], j...], of rank K + R - 1 for K index and R table
// dimensions. An element-wise node: its plan reads the index, then the table element, inside the
// assignment's one pass; the table may be any expression (only gathered elements are computed).
//
// Indices are checked in prepare(), before the pass (engine/index_bounds.h): an index outside
// [0, rows), negative ones included, throws IndexError naming it and its position. On the GPU that
// check is a kernel of its own and a synchronisation. The gather also clamps every index into the
// table, so that no read is ever out of bounds, even if the indices change after the check (a
// kernel on another stream writing them).
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "tensorx/engine/materialise.h"
#include "tensorx/expr/array_leaf.h"
#include "tensorx/expr/eval_context.h"
#include "tensorx/expr/exp.h"
#include "tensorx/expr/indirect_read.h"
#include "tensorx/expr/plan_access.h"
#include "tensorx/layout/index_bounds.h"
#include "tensorx/layout/slice_exp.h"
#include "tensorx/shape/dim_parts.h"

namespace tensorx {

/// The gather node; see tx::take.
template <class Table, class Indices>
class TakeExp : public Exp<TakeExp<Table, Indices>> {
 public:
  /// The table's element type.
  using value_type = typename Table::value_type;
  /// The indices' element type, int32 or int64.
  using index_type = typename Indices::value_type;
  /// The table's rank, R.
  static constexpr int table_rank = Table::rank;
  /// The indices' rank, K.
  static constexpr int index_rank = Indices::rank;
  /// The result's rank, K + R - 1.
  static constexpr int rank = index_rank + table_rank - 1;
  static_assert(table_rank >= 1,
                "tx::take gathers rows along axis 0: the table needs at least one axis.");
  static_assert(std::is_same_v<index_type, std::int32_t> ||
                    std::is_same_v<index_type, std::int64_t>,
                "tx::take's indices must be int32 or int64 (std::int32_t or std::int64_t).");
  static_assert(rank <= kMaxRank, "tx::take's result would have a rank above 9.");

  /// The rows of `table` that `indices` name (checked when the node is assigned).
  TakeExp(Table table, Indices indices) : table_(std::move(table)), indices_(std::move(indices)) {}

  /// The table gathered from.
  const Table& table() const { return table_; }
  /// The row indices.
  const Indices& indices() const { return indices_; }
  /// The indices' extent followed by the table's without its first.
  Dim<rank> dims() const {
    return detail::join(indices_.dims(), detail::trailing<table_rank - 1>(table_.dims()));
  }

 private:
  Table table_;
  Indices indices_;
};

/// Rows of `table` (an array or expression of rank R >= 1) gathered along axis 0 by `indices`
/// (an int32 or int64 array or expression of rank K, on the table's place): the result has the
/// indices' extent followed by the table's without its first, rank K + R - 1. Assigning it throws
/// IndexError, before writing anything, when an index is outside [0, rows), and as any
/// assignment does (PlaceError for operands on another place than the destination).
template <class Table, class Indices,
          class = std::enable_if_t<is_expression_v<Table> && is_expression_v<Indices>>>
TakeExp<Table, Indices> take(const Table& table, const Indices& indices) {
  return TakeExp<Table, Indices>(table, indices);
}

namespace detail {

/// `row` clamped into [0, rows): out-of-range indices never read out of bounds.
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE index_t clamp_row(index_t row, index_t rows) {
  return row < 0 ? 0 : (row >= rows ? rows - 1 : row);
}

/// A row of a gather along an index axis (a table of rank 1): element j is table[indices[j]].
template <class C, class TablePlan, class I>
struct GatherRow {
  TablePlan table;
  RowLeafPlan<I> indices;
  index_t rows;

  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE C get(index_t j) const {
    return static_cast<C>(table.at(Dim<1>(clamp_row(indices.get(j), rows))));
  }
};

/// The plan of a gather of rank N = K + R - 1 in an iteration space of rank M >= N (its axes are
/// the last N, right-aligned). The table plan lives in the table's own rank-R space.
template <class C, int M, int K, int R, class TablePlan, class I>
struct TakePlan {
  static constexpr int N = K + R - 1;

  TablePlan table;
  LeafPlan<I, K> indices;
  index_t rows;
  Dim<M> space;  // the iteration space, for flat indices

  // Rows along a table axis come from one table row; rows along an index axis gather.
  template <class B>
  static constexpr bool vectorizable = (K < N) && vectorizable_v<TablePlan, B>;

  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE C at(const Dim<M>& index) const {
    return static_cast<C>(table.at(table_index(trailing<N>(index))));
  }
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE C flat(index_t i) const {
    return at(delinearize(i, space));
  }
  auto row(const Dim<M>& start) const {
    const Dim<N> own = trailing<N>(start);
    if constexpr (K < N) {
      return row_of(table, table_index(own));
    } else {
      return GatherRow<C, TablePlan, I>{table, indices.row(leading<K>(own)), rows};
    }
  }

  /// The indices as a leaf constant along the table's axes, the table's leaves as constant along
  /// the index axes: what the engine's layout checks need (a gather is dense, or has unit inner
  /// stride, only where these are).
  template <class Visitor>
  void visit_leaves(Visitor&& visitor) const {
    indices.visit_leaves([&](const void* data, const Dim<K>& strides, std::size_t size) {
      visitor(data, join(Dim<M - N>(), join(strides, Dim<R - 1>())), size);
    });
    table.visit_leaves([&](const void* data, const Dim<R>& strides, std::size_t size) {
      visitor(data, join(Dim<M - R + 1>(), trailing<R - 1>(strides)), size);
    });
  }

 private:
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE Dim<R> table_index(const Dim<N>& own) const {
    const index_t row = clamp_row(static_cast<index_t>(indices.at(leading<K>(own))), rows);
    return join(Dim<1>(row), trailing<R - 1>(own));
  }
};

}  // namespace detail

///@{
/// The node protocol (expr/exp.h) for TakeExp: prepare materialises the indices on the
/// destination's place and checks them (IndexError; on a GPU a kernel and a synchronisation);
/// the plan reads an index, then the table element; both operands count as read indirectly.
template <int M, class Table, class I, int K>
auto make_plan(const TakeExp<Table, Array<I, K>>& e, const Dim<M>& out_dims) {
  using Node = TakeExp<Table, Array<I, K>>;
  static_assert(M >= Node::rank, "an operand cannot have a higher rank than the iteration space.");
  using C = compute_t<typename Node::value_type>;
  const auto table_dims = e.table().dims();
  auto table = make_plan(e.table(), table_dims);
  return detail::TakePlan<C, M, K, Node::table_rank, decltype(table), I>{
      table, make_plan(e.indices(), e.indices().dims()), table_dims.at(0), out_dims};
}

template <class Table, class Indices, class TU>
auto prepare(const TakeExp<Table, Indices>& e, const detail::EvalContext<TU>& context) {
  const auto indices = detail::materialise(e.indices(), context);
  detail::check_rows(TU{}, indices, e.table().dims().at(0));
  auto table = prepare(e.table(), context);
  using Prepared = TakeExp<std::decay_t<decltype(table)>, std::decay_t<decltype(indices)>>;
  return Prepared(std::move(table), indices);
}

template <class Table, class Indices, class F>
void for_each_array(const TakeExp<Table, Indices>& e, F&& f) {
  detail::for_each_array_read_indirectly(e.table(), f);
  detail::for_each_array_read_indirectly(e.indices(), f);
}
///@}

/// A gather: a slice along an index axis slices the indices, along a table axis the table.
template <class Table, class I, int K, class TU>
auto push_slice(const TakeExp<Table, Array<I, K>>& e, int axis, index_t begin, index_t end,
                const detail::EvalContext<TU>& context) {
  const Table& table = e.table();
  const Array<I, K>& indices = e.indices();
  if constexpr (K == 0) {
    return TakeExp<decltype(push_slice(table, 1, begin, end, context)), Array<I, K>>(
        push_slice(table, axis + 1, begin, end, context), indices);
  } else {
    // A whole-range slice stands for "unchanged" where the types of both branches must agree.
    const bool on_indices = axis < K;
    auto sliced_indices = on_indices ? push_slice(indices, axis, begin, end, context)
                                     : push_slice(indices, 0, 0, indices.dims().at(0), context);
    auto sliced_table = on_indices ? push_slice(table, 0, 0, table.dims().at(0), context)
                                   : push_slice(table, axis - K + 1, begin, end, context);
    return TakeExp<decltype(sliced_table), Array<I, K>>(std::move(sliced_table),
                                                        std::move(sliced_indices));
  }
}

}  // namespace tensorx
