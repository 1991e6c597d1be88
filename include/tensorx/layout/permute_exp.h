// tx::permute and tx::transpose: the axes of an operand reordered. Over an array this is a strided
// view of the same buffer, usable on both sides of `=` (tx::transpose(c) = a writes c transposed);
// an expression operand is materialised first (its permuted reads could not fuse into one pass
// over the destination without recomputing it per element).
#pragma once

#include <type_traits>

#include "tensorx/array/array.h"
#include "tensorx/engine/assignable_view.h"
#include "tensorx/engine/materialise.h"
#include "tensorx/expr/array_leaf.h"
#include "tensorx/expr/eval_context.h"
#include "tensorx/expr/exp.h"
#include "tensorx/layout/permute_writer.h"

namespace tensorx {
namespace detail {

/// Throws ShapeError unless `axes` holds each of 0 .. N-1 exactly once.
template <int N>
void check_permutation(const Dim<N>& axes) {
  bool seen[N > 0 ? N : 1] = {};
  for (int i = 0; i < N; ++i) {
    const index_t axis = axes.at(i);
    if (axis < 0 || axis >= N || seen[axis]) {
      throw ShapeError(message("axes ", axes, " are not a permutation of 0 .. ", N - 1));
    }
    seen[axis] = true;
  }
}

/// Output axis i is input axis axes[i].
template <int N>
Dim<N> permuted(const Dim<N>& d, const Dim<N>& axes) {
  Dim<N> out;
  for (int i = 0; i < N; ++i) out.at(i) = d.at(static_cast<int>(axes.at(i)));
  return out;
}

template <class T, int N>
Array<T, N> permuted_view(const Array<T, N>& a, const Dim<N>& axes) {
  return Array<T, N>(a.buffer(), permuted(a.dims(), axes), permuted(a.strides(), axes), a.offset());
}

}  // namespace detail

/// The node of tx::permute and tx::transpose: E with its axes reordered. Over an array it is a
/// strided view of the same buffer and can be assigned to (AssignableView).
template <class E, int N>
class PermuteExp : public Exp<PermuteExp<E, N>>, public AssignableView<PermuteExp<E, N>> {
 public:
  /// The operand's element type.
  using value_type = typename E::value_type;
  /// The operand's rank.
  static constexpr int rank = N;
  static_assert(E::rank == N, "tx::permute takes one axis per dimension of its operand.");
  static_assert(N > 0, "A rank-0 expression has no axes to permute.");

  /// `e` with output axis i taken from input axis axes[i]; throws ShapeError when `axes` is not a
  /// permutation of 0 .. N-1.
  PermuteExp(E e, const Dim<N>& axes) : e_(std::move(e)), axes_(axes) {
    detail::check_permutation(axes);
  }

  /// The permuted expression.
  const E& operand() const { return e_; }
  /// Output axis i is input axis axes()[i].
  const Dim<N>& axes() const { return axes_; }
  /// The permuted extent.
  Dim<N> dims() const { return detail::permuted(e_.dims(), axes_); }

  /// The strided view of an array operand (the buffer shared).
  template <class A = E, class = std::enable_if_t<detail::is_array<A>::value>>
  A array() const {
    return detail::permuted_view(e_, axes_);
  }

  /// Writing through the view of an array operand (=, +=, -=, *=, /=) is AssignableView's.
  using AssignableView<PermuteExp>::operator=;
  /// Writes the elements of `other` through this view (not a rebinding), as AssignableView's =.
  const PermuteExp& operator=(const PermuteExp& other) const {
    return this->template assign_through<saver::write, detail::ThisTranslationUnit>(other);
  }
  /// A copy of the node, viewing the same operand.
  PermuteExp(const PermuteExp&) = default;

 private:
  E e_;
  Dim<N> axes_;
};

/// `e` with its axes reordered: output axis i is input axis axes[i]. Throws ShapeError when
/// `axes` is not a permutation. Of an array, a view of its buffer (assignable:
/// tx::permute(c, axes) = a); of an expression, a node whose operand is computed into a temporary
/// on the destination's place when assigned.
template <class E, int N, class = std::enable_if_t<is_expression_v<E>>>
PermuteExp<E, N> permute(const E& e, const Dim<N>& axes) {
  return PermuteExp<E, N>(e, axes);
}

/// `e` with its axes reversed (rows and columns swapped for a matrix); a view or node as for
/// tx::permute. As the operand of tx::dot it becomes a BLAS transpose flag.
template <class E, class = std::enable_if_t<is_expression_v<E>>>
auto transpose(const E& e) {
  constexpr int N = E::rank;
  Dim<N> axes;
  for (int i = 0; i < N; ++i) axes.at(i) = N - 1 - i;
  return PermuteExp<E, N>(e, axes);
}

///@{
/// The node protocol (expr/exp.h) for PermuteExp: an expression operand is materialised on the
/// destination's place, then read through the permuted view; an array operand is read in place.
template <class E, int N, class TU>
auto prepare(const PermuteExp<E, N>& p, const detail::EvalContext<TU>& context) {
  return detail::permuted_view(detail::materialise(p.operand(), context), p.axes());
}

template <class E, int N, class F>
void for_each_array(const PermuteExp<E, N>& p, F&& f) {
  if constexpr (detail::is_array<E>::value) {
    f(p.array());
  } else {
    for_each_array(p.operand(), f);
  }
}
///@}

}  // namespace tensorx
