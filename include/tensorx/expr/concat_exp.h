// tx::concat<axis>(a, b, ...): expressions of one rank and element type joined end to end along
// one axis. An element-wise node: each output element reads the operand whose range along the
// axis covers its index, at that index minus the operand's start, so a concat is ONE pass with no
// temporaries, and its operands may be any expressions (they are evaluated in place, not copied).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <limits>
#include <sstream>
#include <tuple>
#include <type_traits>
#include <utility>

#include "tensorx/core/error.h"
#include "tensorx/engine/eval_context.h"
#include "tensorx/expr/batch_of_lanes.h"
#include "tensorx/expr/exp.h"
#include "tensorx/expr/indirect_read.h"
#include "tensorx/expr/lanes.h"
#include "tensorx/expr/plan_pack.h"
#include "tensorx/expr/slice_exp.h"

namespace tensorx {

/// The concat node; see tx::concat.
template <int Axis, class... Es>
class ConcatExp : public Exp<ConcatExp<Axis, Es...>> {
  static_assert(sizeof...(Es) > 0, "tx::concat needs at least one operand.");
  using First = std::tuple_element_t<0, std::tuple<Es...>>;

 public:
  using value_type = typename First::value_type;
  static constexpr int rank = First::rank;
  static constexpr std::size_t count = sizeof...(Es);
  static_assert(((Es::rank == rank) && ...), "tx::concat joins operands of one rank.");
  static_assert((std::is_same_v<typename Es::value_type, value_type> && ...),
                "tx::concat joins operands of one element type; convert them with "
                "tx::cast<T>(...).");
  static_assert(0 <= Axis && Axis < rank, "The concat axis must be an axis of the operands.");

  explicit ConcatExp(Es... operands) : operands_(std::move(operands)...) {}

  const std::tuple<Es...>& operands() const { return operands_; }

  /// Where each operand starts along the axis; the last entry is the joined extent. Throws
  /// ShapeError naming every shape when the operands' extents differ off the axis.
  std::array<index_t, count + 1> starts() const {
    const auto shapes = std::apply(
        [](const auto&... e) { return std::array<Dim<rank>, count>{e.dims()...}; }, operands_);
    std::array<index_t, count + 1> starts{};
    bool fits = true;
    for (std::size_t k = 0; k < count; ++k) {
      for (int i = 0; i < rank; ++i) {
        if (i != Axis && shapes[k].at(i) != shapes[0].at(i)) fits = false;
      }
      starts[k + 1] = starts[k] + shapes[k].at(Axis);
    }
    if (!fits) {
      std::ostringstream listed;
      for (std::size_t k = 0; k < count; ++k) listed << (k ? " and " : "") << shapes[k];
      throw ShapeError(detail::message("cannot concatenate shapes ", listed.str(), " along axis ",
                                       Axis, ": their extents differ off that axis"));
    }
    return starts;
  }

  /// The joined extent; throws ShapeError as starts() does.
  Dim<rank> dims() const {
    Dim<rank> dims = std::get<0>(operands_).dims();
    dims.at(Axis) = starts()[count];
    return dims;
  }

 private:
  std::tuple<Es...> operands_;
};

/// `operands` (arrays or expressions of one rank and element type, at least one) joined along
/// Axis: the result's extent along Axis is the sum of theirs. Throws ShapeError naming the shapes
/// when their other extents differ.
template <int Axis, class... Es, class = std::enable_if_t<(is_expression_v<Es> && ...)>>
ConcatExp<Axis, Es...> concat(const Es&... operands) {
  return ConcatExp<Axis, Es...>(operands...);
}

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
        return pack_get<I>(rows).row.template batch<B>(position - begins[I]);
      }
      // The batch crosses into the next operand.
      return batch_of_lanes<B>([&](index_t l) { return get(j + l); });
    } else {
      if constexpr (I + 1 < kCount) {
        if (selected != I) return batch_from<B, I + 1>(j);
      }
      return pack_get<I>(rows).row.template batch<B>(j);
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
  static constexpr bool vectorizable = (Children::template vectorizable<B> && ...);

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
      return pack_get<I>(children).template load<V>(local);
    }
    return flat_lanes<C, V>(*this, i);
  }
  template <std::size_t... I>
  auto row_impl(const Dim<N>& start, std::index_sequence<I...>) const {
    constexpr bool kAlongRow = SpaceAxis == N - 1;
    using Row = ConcatRowPlan<C, kAlongRow, decltype(pack_get<I>(children).row(start))...>;
    if constexpr (kAlongRow) {
      Dim<N> first = start;
      first.at(SpaceAxis) = 0;
      Row row{make_plan_pack(
          maybe_row(ends[I] > begins[I], [&] { return pack_get<I>(children).row(first); })...)};
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
          maybe_row(selected == I, [&] { return pack_get<I>(children).row(shifted); })...)};
      row.selected = selected;
      return row;
    }
  }
  template <std::size_t... I>
  auto flat_row_impl(std::index_sequence<I...>) const {
    using Row = ConcatRowPlan<C, true, decltype(pack_get<I>(children).flat_row())...>;
    Row row{make_plan_pack(
        maybe_row(ends[I] > begins[I], [&] { return pack_get<I>(children).flat_row(); })...)};
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

template <int N, int Axis, class... Es>
auto make_plan(const ConcatExp<Axis, Es...>& e, const Dim<N>& out_dims) {
  using Node = ConcatExp<Axis, Es...>;
  constexpr int kSpaceAxis = Axis + N - Node::rank;
  const auto starts = e.starts();
  auto plan = std::apply(
      [&](const auto&... operand) {
        return detail::ConcatPlan<N, kSpaceAxis, compute_t<typename Node::value_type>,
                                  decltype(make_plan(operand, out_dims))...>{
            detail::make_plan_pack(make_plan(operand, out_dims)...)};
      },
      e.operands());
  plan.choice_strides = contiguous_strides(out_dims);
  std::size_t last_nonempty = 0;
  for (std::size_t k = 0; k < Node::count; ++k) {
    plan.begins[k] = starts[k];
    plan.ends[k] = starts[k + 1];
    if (starts[k + 1] > starts[k]) last_nonempty = k;
  }
  for (int i = kSpaceAxis + 1; i < N; ++i) plan.inner *= out_dims.at(i);
  for (int i = 0; i < kSpaceAxis; ++i) plan.choice_strides.at(i) = 0;
  for (std::size_t k = 0; k < Node::count; ++k) plan.flat_ends[k] = plan.ends[k] * plan.inner;
  plan.ends[last_nonempty] = plan.flat_ends[last_nonempty] = std::numeric_limits<index_t>::max();
  return plan;
}

template <int Axis, class... Es, class Context>
auto prepare(const ConcatExp<Axis, Es...>& e, const Context& context) {
  return std::apply(
      [&](const auto&... operand) {
        return ConcatExp<Axis, std::decay_t<decltype(prepare(operand, context))>...>(
            prepare(operand, context)...);
      },
      e.operands());
}

// The first operand is read at the destination's index; the others at an index shifted along the
// axis, which the alias check cannot compare, so they are reported as read indirectly.
template <int Axis, class... Es, class F>
void for_each_array(const ConcatExp<Axis, Es...>& e, F&& f) {
  std::apply(
      [&](const auto& first, const auto&... rest) {
        for_each_array(first, f);
        (detail::for_each_array_read_indirectly(rest, f), ...);
      },
      e.operands());
}

namespace detail {

/// Operand k of a concat, which spans [start, stop) along the concat axis, cut by a slice of the
/// concat: along that axis to its overlap with [begin, end), along any other axis the same slice.
template <class E, class TU>
auto push_slice_into_part(const E& operand, index_t start, index_t stop, bool along_concat_axis,
                          int axis, index_t begin, index_t end, const EvalContext<TU>& context) {
  if (along_concat_axis) {
    const auto clamp = [&](index_t x) {
      return std::min(std::max(x - start, index_t{0}), stop - start);
    };
    return push_slice(operand, axis, clamp(begin), clamp(end), context);
  }
  return push_slice(operand, axis, begin, end, context);
}

template <int Axis, class... Es, class TU, std::size_t... I>
auto push_slice_into_parts(const ConcatExp<Axis, Es...>& e, int axis, index_t begin, index_t end,
                           const EvalContext<TU>& context, std::index_sequence<I...>) {
  const auto starts = e.starts();
  return ConcatExp<Axis, decltype(push_slice_into_part(std::get<I>(e.operands()), 0, 0, false, axis,
                                                       begin, end, context))...>(
      push_slice_into_part(std::get<I>(e.operands()), starts[I], starts[I + 1], axis == Axis, axis,
                           begin, end, context)...);
}

}  // namespace detail

/// A concat: along its axis each operand keeps its overlap with the slice, along any other axis
/// every operand is sliced alike.
template <int Axis, class... Es, class TU>
auto push_slice(const ConcatExp<Axis, Es...>& e, int axis, index_t begin, index_t end,
                const detail::EvalContext<TU>& context) {
  return detail::push_slice_into_parts(e, axis, begin, end, context,
                                       std::index_sequence_for<Es...>{});
}

}  // namespace tensorx
