// The plan of a concatenation (layout/concat_exp.h): each element read from the operand whose
// range along the concat axis covers it, along rows (a row across the axis switches operand where
// a range ends) and over flat indices where every operand is dense.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "tensorx/core/lanes.h"
#include "tensorx/expr/plan_access.h"
#include "tensorx/expr/plan_pack.h"
#include "tensorx/shape/dim.h"

namespace tensorx {
namespace detail {

/// The row of one operand of a concat, built only where that operand has a valid row start (an
/// empty operand has none). A union, because rows hold functors, which have no default
/// constructor; rows are trivially copyable, so the union is too.
template <class Row>
union MaybeRow {
  char none;
  Row row;

  MaybeRow() : none() {}
  explicit MaybeRow(const Row& built) : row(built) {}
};

/// The operand row `make_row()` where `wanted`, else no row.
template <class MakeRow>
auto maybe_row(bool wanted, MakeRow&& make_row) {
  using Row = decltype(make_row());
  return wanted ? MaybeRow<Row>(make_row()) : MaybeRow<Row>();
}

/// A row of a concat: either every element from one operand (`selected`, when the concat axis is
/// not the row's), or, along the row, element j at position origin + j from the operand whose
/// [begins, ends) covers it.
template <class C, bool kAlongRow, class... Rows>
struct ConcatRowPlan {
  static constexpr std::size_t kCount = sizeof...(Rows);

  PlanPack<MaybeRow<Rows>...> rows;
  std::size_t selected = 0;
  index_t origin = 0;
  index_t begins[kCount] = {};
  index_t ends[kCount] = {};

  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE C get(index_t j) const { return get_from<0>(j); }
  template <class B>
  TENSORX_FORCE_INLINE B batch(index_t j) const {
    return batch_from<B, 0>(j);
  }

 private:
  template <std::size_t I>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE C get_from(index_t j) const {
    if constexpr (kAlongRow) {
      const index_t position = origin + j;
      if constexpr (I + 1 < kCount) {
        if (position >= ends[I]) return get_from<I + 1>(j);
      }
      return static_cast<C>(pack_get<I>(rows).row.get(position - begins[I]));
    } else {
      if constexpr (I + 1 < kCount) {
        if (selected != I) return get_from<I + 1>(j);
      }
      return static_cast<C>(pack_get<I>(rows).row.get(j));
    }
  }
  template <class B, std::size_t I>
  TENSORX_FORCE_INLINE B batch_from(index_t j) const {
    if constexpr (kAlongRow) {
      const index_t position = origin + j;
      if constexpr (I + 1 < kCount) {
        if (position >= ends[I]) return batch_from<B, I + 1>(j);
      }
      if (position + static_cast<index_t>(B::size) <= ends[I]) {
        return batch_of<B>(pack_get<I>(rows).row, position - begins[I]);
      }
      // The batch crosses into the next operand.
      return batch_of_lanes<B>([&](index_t l) { return get(j + l); });
    } else {
      if constexpr (I + 1 < kCount) {
        if (selected != I) return batch_from<B, I + 1>(j);
      }
      return batch_of<B>(pack_get<I>(rows).row, j);
    }
  }
};

/// The plan of a concat whose axis is SpaceAxis in an iteration space of rank N (right-aligned,
/// so that a concat broadcast inside a larger expression reads like any operand). Operand k
/// covers [begins[k], ends[k]) along the axis. The last non-empty operand's end is stretched to
/// the largest index: that changes nothing inside the extent and makes a concat of extent 1, read
/// broadcast at any position, select that operand.
///
/// Where the engine finds every leaf dense it reads flat indices, and operand k then covers
/// [begins[k] * inner, flat_ends[k]) with `inner` the elements per step along the axis. That holds
/// only where the extents before the axis are all 1, so the plan reports one more leaf, the
/// operand choice itself: no data, dense from the axis inwards and constant outside it. It keeps
/// the engine on rows wherever the flat ranges would not select the right operand.
template <int N, int SpaceAxis, class C, class... Children>
struct ConcatPlan {
  static constexpr std::size_t kCount = sizeof...(Children);
  using Indices = std::index_sequence_for<Children...>;

  PlanPack<Children...> children;
  index_t begins[kCount] = {};
  index_t ends[kCount] = {};
  index_t flat_ends[kCount] = {};
  index_t inner = 1;
  Dim<N> choice_strides = {};  // the operand choice as a leaf: 0 before the axis, dense from it

  template <class B>
  static constexpr bool vectorizable = (vectorizable_v<Children, B> && ...);

  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE C at(const Dim<N>& index) const {
    return at_from<0>(index);
  }
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE C flat(index_t i) const { return flat_from<0>(i); }
  template <int V>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE Lanes<C, V> load(index_t i) const {
    return load_from<0, V>(i);
  }
  auto row(const Dim<N>& start) const { return row_impl(start, Indices{}); }
  auto flat_row() const { return flat_row_impl(Indices{}); }
  template <class Visitor>
  void visit_leaves(Visitor&& visitor) const {
    visit_impl(visitor, Indices{});
  }

 private:
  template <std::size_t I>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE C at_from(Dim<N> index) const {
    if constexpr (I + 1 < kCount) {
      if (index.at(SpaceAxis) >= ends[I]) return at_from<I + 1>(index);
    }
    index.at(SpaceAxis) -= begins[I];
    return static_cast<C>(pack_get<I>(children).at(index));
  }
  template <std::size_t I>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE C flat_from(index_t i) const {
    if constexpr (I + 1 < kCount) {
      if (i >= flat_ends[I]) return flat_from<I + 1>(i);
    }
    return static_cast<C>(pack_get<I>(children).flat(i - begins[I] * inner));
  }
  template <std::size_t I, int V>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE Lanes<C, V> load_from(index_t i) const {
    if constexpr (I + 1 < kCount) {
      if (i >= flat_ends[I]) return load_from<I + 1, V>(i);
    }
    const index_t local = i - begins[I] * inner;
    // Whole aligned blocks inside one operand load as blocks; a block that crosses operands, or
    // sits off the operand's block grid, is read element by element.
    if (i + V <= flat_ends[I] && local % V == 0) {
      return load_of<V>(pack_get<I>(children), local);
    }
    Lanes<C, V> lanes;
    TENSORX_UNROLL
    for (int k = 0; k < V; ++k) lanes[k] = flat(i + k);
    return lanes;
  }
  template <std::size_t... I>
  auto row_impl(const Dim<N>& start, std::index_sequence<I...>) const {
    constexpr bool kAlongRow = SpaceAxis == N - 1;
    using Row = ConcatRowPlan<C, kAlongRow, decltype(row_of(pack_get<I>(children), start))...>;
    if constexpr (kAlongRow) {
      Dim<N> first = start;
      first.at(SpaceAxis) = 0;
      Row row{make_plan_pack(
          maybe_row(ends[I] > begins[I], [&] { return row_of(pack_get<I>(children), first); })...)};
      row.origin = start.at(SpaceAxis);
      for (std::size_t k = 0; k < kCount; ++k) {
        row.begins[k] = begins[k];
        row.ends[k] = ends[k];
      }
      return row;
    } else {
      std::size_t selected = 0;
      while (selected + 1 < kCount && start.at(SpaceAxis) >= ends[selected]) ++selected;
      Dim<N> shifted = start;
      shifted.at(SpaceAxis) -= begins[selected];
      Row row{make_plan_pack(
          maybe_row(selected == I, [&] { return row_of(pack_get<I>(children), shifted); })...)};
      row.selected = selected;
      return row;
    }
  }
  template <std::size_t... I>
  auto flat_row_impl(std::index_sequence<I...>) const {
    using Row = ConcatRowPlan<C, true, decltype(flat_row_of(pack_get<I>(children)))...>;
    Row row{make_plan_pack(
        maybe_row(ends[I] > begins[I], [&] { return flat_row_of(pack_get<I>(children)); })...)};
    for (std::size_t k = 0; k < kCount; ++k) {
      row.begins[k] = begins[k] * inner;
      row.ends[k] = flat_ends[k];
    }
    return row;
  }
  template <class Visitor, std::size_t... I>
  void visit_impl(Visitor& visitor, std::index_sequence<I...>) const {
    visitor(static_cast<const void*>(nullptr), choice_strides, sizeof(C));
    (pack_get<I>(children).visit_leaves(visitor), ...);
  }
};

}  // namespace detail
}  // namespace tensorx
