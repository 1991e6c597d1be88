// tx::slice(e, axis, begin, end): elements [begin, end) of `e` along one axis, every other axis
// whole. Over an array (or a view of one) it is a strided view of the same buffer, usable on both
// sides of `=`. Over an expression nothing is materialised: prepare() pushes the slice down the
// tree into the arrays at its leaves (push_slice), because an element-wise node commutes with
// slicing and an operand broadcast along the axis is read whole. The sliced expression is then the
// same fused pass over views, dense and vectorised wherever those views are. Shifting the
// iteration index inside the plan instead would hide the views from the engine's layout checks
// (density, alignment, aliasing). Nodes that prepare() materialises (reductions, permuted
// expressions) are arrays by then; any other node overloads push_slice.
#pragma once

#include <type_traits>
#include <utility>

#include "tensorx/array/array.h"
#include "tensorx/core/error.h"
#include "tensorx/engine/assignable_view.h"
#include "tensorx/expr/broadcast_exp.h"
#include "tensorx/expr/eval_context.h"
#include "tensorx/expr/exp.h"
#include "tensorx/expr/indirect_read.h"
#include "tensorx/expr/map_exp.h"
#include "tensorx/expr/saver.h"

namespace tensorx {
namespace detail {

/// Throws IndexError unless 0 <= axis < N and 0 <= begin <= end <= dims[axis].
template <int N>
void check_slice(const Dim<N>& dims, int axis, index_t begin, index_t end) {
  if (axis < 0 || axis >= N) {
    throw IndexError(
        message("slice axis ", axis, " is out of range for shape ", dims, " of rank ", N));
  }
  if (begin < 0 || begin > end || end > dims.at(axis)) {
    throw IndexError(message("slice [", begin, ", ", end, ") along axis ", axis,
                             " is out of range for extent ", dims.at(axis), " of shape ", dims));
  }
}

/// `dims` with the extent of `axis` replaced.
template <int N>
Dim<N> with_extent(Dim<N> dims, int axis, index_t extent) {
  dims.at(axis) = extent;
  return dims;
}

/// The view of elements [begin, end) along `axis` of `a` (a range check_slice accepted).
template <class T, int N>
Array<T, N> sliced_view(const Array<T, N>& a, int axis, index_t begin, index_t end) {
  // An empty slice keeps the offset, so that it never points past the buffer.
  const index_t offset = a.offset() + (begin < end ? begin * a.strides().at(axis) : 0);
  return Array<T, N>(a.buffer(), with_extent(a.dims(), axis, end - begin), a.strides(), offset);
}

}  // namespace detail

/// The slice node; see tx::slice.
template <class E>
class SliceExp : public Exp<SliceExp<E>>, public AssignableView<SliceExp<E>> {
 public:
  /// The operand's element type.
  using value_type = typename E::value_type;
  /// The operand's rank.
  static constexpr int rank = E::rank;
  static_assert(rank > 0, "A rank-0 expression has no axis to slice.");

  /// Elements [begin, end) of `e` along `axis`; throws IndexError as tx::slice does.
  SliceExp(E e, int axis, index_t begin, index_t end)
      : e_(std::move(e)), axis_(axis), begin_(begin), end_(end) {
    detail::check_slice(e_.dims(), axis, begin, end);
  }
  /// A copy of the node, viewing the same operand.
  SliceExp(const SliceExp&) = default;

  /// The sliced expression.
  const E& operand() const { return e_; }
  /// The sliced axis.
  int axis() const { return axis_; }
  /// The first index kept along axis().
  index_t begin() const { return begin_; }
  /// One past the last index kept.
  index_t end() const { return end_; }
  /// The operand's extent with end() - begin() along axis().
  Dim<rank> dims() const { return detail::with_extent(e_.dims(), axis_, end_ - begin_); }

  /// The strided view of an array operand (or of the array a view operand stands for).
  template <class A = E, class = std::enable_if_t<detail::is_view<A>::value>>
  auto array() const {
    return detail::sliced_view(detail::view_of(e_), axis_, begin_, end_);
  }

  using AssignableView<SliceExp>::operator=;
  /// Writes the elements of `other` through this view (not a rebinding), as AssignableView's =.
  const SliceExp& operator=(const SliceExp& other) const {
    return this->template assign_through<saver::write, detail::ThisTranslationUnit>(other);
  }

 private:
  E e_;
  int axis_;
  index_t begin_;
  index_t end_;
};

/// Elements [begin, end) of `e` along `axis`, every other axis whole (rank and element type
/// kept). Over an array or array view (a transposed array, say) the result is an Array view of
/// the same buffer, exactly as a.slice(begin, end) is along axis 0: assigning it to a temporary
/// writes elements, and a named Array made from it aliases it. Over any other expression it is
/// a node that the assignment reads in place (on the destination's place, fused into its pass).
/// Throws IndexError naming the axis, the range and the extent unless 0 <= axis < rank and
/// 0 <= begin <= end <= extent.
template <class E, class = std::enable_if_t<is_expression_v<E>>>
auto slice(const E& e, int axis, index_t begin, index_t end) {
  if constexpr (detail::is_view<E>::value) {
    const auto view = detail::view_of(e);
    detail::check_slice(view.dims(), axis, begin, end);
    return detail::sliced_view(view, axis, begin, end);
  } else {
    return SliceExp<E>(e, axis, begin, end);
  }
}

// push_slice(e, axis, begin, end, context): the prepared expression `e` sliced, with the slice
// pushed into its leaves. Every node that can take a slice inside (arrays, element-wise maps,
// broadcasts, and the layout nodes in their own headers) overloads it; the overloads keep the
// node's type, so that a whole-range slice can stand for "unchanged" where types must agree.

/// How a slice reaches inside a node (the comment above). An array: its view.
template <class T, int N, class TU>
Array<T, N> push_slice(const Array<T, N>& a, int axis, index_t begin, index_t end,
                       const detail::EvalContext<TU>&) {
  return detail::sliced_view(a, axis, begin, end);
}

/// Any other node: a compile-time error that says what is missing.
template <class E, class TU>
auto push_slice(const E& e, int, index_t, index_t, const detail::EvalContext<TU>&) {
  static_assert(!is_expression_v<E>,
                "tx::slice cannot reach inside this kind of node: give it a push_slice overload "
                "(see expr/slice_exp.h), or make its prepare() return an array.");
  return e;
}

namespace detail {

/// An operand of rank M of a rank-N node whose extent along `axis` is `extent`, sliced along the
/// same axis (right-aligned); an operand broadcast along it is left whole, which a whole-range
/// slice expresses without changing its type.
template <int N, class A, class TU>
auto push_slice_into_operand(const A& operand, index_t extent, int axis, index_t begin, index_t end,
                             const EvalContext<TU>& context) {
  constexpr int M = A::rank;
  if constexpr (M == 0) {
    return operand;
  } else {
    const int own_axis = axis - (N - M);
    if (own_axis >= 0 && operand.dims().at(own_axis) == extent) {
      return push_slice(operand, own_axis, begin, end, context);
    }
    const int whole_axis = own_axis >= 0 ? own_axis : 0;
    return push_slice(operand, whole_axis, 0, operand.dims().at(whole_axis), context);
  }
}

}  // namespace detail

/// An element-wise map: every operand sliced (or left whole where it broadcasts).
template <class R, class F, class... Args, class TU>
auto push_slice(const MapExp<R, F, Args...>& e, int axis, index_t begin, index_t end,
                const detail::EvalContext<TU>& context) {
  constexpr int N = MapExp<R, F, Args...>::rank;
  const index_t extent = e.dims().at(axis);
  return detail::apply_pack(
      [&](const auto&... a) {
        return MapExp<R, F,
                      decltype(detail::push_slice_into_operand<N>(a, extent, axis, begin, end,
                                                                  context))...>(
            e.functor(),
            detail::push_slice_into_operand<N>(a, extent, axis, begin, end, context)...);
      },
      e.args());
}

/// A broadcast: the target extent sliced, the operand sliced unless it stretches along the axis.
template <class E, int N, class TU>
auto push_slice(const BroadcastExp<E, N>& b, int axis, index_t begin, index_t end,
                const detail::EvalContext<TU>& context) {
  const Dim<N> dims = b.dims();
  auto operand =
      detail::push_slice_into_operand<N>(b.operand(), dims.at(axis), axis, begin, end, context);
  return BroadcastExp<decltype(operand), N>(std::move(operand),
                                            detail::with_extent(dims, axis, end - begin));
}

///@{
/// The node protocol (expr/exp.h) for SliceExp: the prepared operand with the slice pushed into
/// its leaves; its arrays are reported as read indirectly until then.
template <class E, class TU>
auto prepare(const SliceExp<E>& s, const detail::EvalContext<TU>& context) {
  return push_slice(prepare(s.operand(), context), s.axis(), s.begin(), s.end(), context);
}

// A slice of an expression reads its arrays shifted along the axis until prepare() has pushed it
// into them, so before that they are reported as read indirectly.
template <class E, class F>
void for_each_array(const SliceExp<E>& s, F&& f) {
  if constexpr (detail::is_view<E>::value) {
    f(s.array());
  } else {
    detail::for_each_array_read_indirectly(s.operand(), f);
  }
}
///@}

}  // namespace tensorx
