// ReduceExp: a reduction (sum, mean, max, min, prod, argmax, argmin) of an element-wise expression
// over axes fixed at compile time. It is never evaluated element by element: as the whole
// right-hand side of an assignment it writes the destination itself (engine/reduce_assign.h),
// reading its operand without a temporary; inside a larger expression, prepare() materialises it
// into a temporary first, so that it is computed once, not once per element that reads it.
#pragma once

#include <type_traits>
#include <utility>

#include "tensorx/array/array.h"
#include "tensorx/engine/materialise.h"
#include "tensorx/expr/eval_context.h"
#include "tensorx/expr/exp.h"
#include "tensorx/expr/saver.h"
#include "tensorx/reduce/reduce_checks.h"

namespace tensorx {

/// The tag that keeps reduced axes, with extent 1: tx::sum<1>(m, tx::keepdims).
struct KeepDims {};
/// The KeepDims value to pass.
inline constexpr KeepDims keepdims{};

namespace detail {

/// True when every axis is in [-N, N).
template <int N, int... Axes>
constexpr bool axes_in_range() {
  return ((Axes >= -N && Axes < N) && ...);
}

/// Bit i set: axis i of a rank-N operand is reduced. No axes means every axis; negative axes count
/// from the end (-1 is the last), as in NumPy. Axes out of range contribute nothing (a
/// static_assert reports them).
template <int N, int... Axes>
constexpr unsigned axis_mask() {
  if constexpr (sizeof...(Axes) == 0) {
    return (1u << N) - 1u;
  } else {
    return ((Axes >= -N && Axes < N ? 1u << (Axes < 0 ? Axes + N : Axes) : 0u) | ...);
  }
}

constexpr int count_axes(unsigned mask) {
  return mask == 0 ? 0 : int(mask & 1u) + count_axes(mask >> 1);
}

/// The extent of a reduction's result: the axes in `mask` dropped (M == N - their count) or kept
/// with extent 1 (M == N).
template <int M, int N>
Dim<M> reduced_extent(const Dim<N>& dims, unsigned mask) {
  Dim<M> out;
  if constexpr (M > 0) {
    int next = 0;
    for (int i = 0; i < N; ++i) {
      const bool reduced = (mask >> i) & 1u;
      if (M == N) {
        out.at(next++) = reduced ? 1 : dims.at(i);
      } else if (!reduced) {
        out.at(next++) = dims.at(i);
      }
    }
  }
  return out;
}

}  // namespace detail

/// Reducer Op (reduce/reducers.h) applied to E over Axes (every axis when none are given); the
/// reduced axes are dropped, or kept with extent 1 when kKeepDims. tx::sum and the other
/// reductions build it.
template <class Op, class E, bool kKeepDims, int... Axes>
class ReduceExp : public Exp<ReduceExp<Op, E, kKeepDims, Axes...>> {
  static_assert(detail::axes_in_range<E::rank, Axes...>(),
                "A reduction axis is out of range: the axes of a rank-N expression are 0 to N - 1 "
                "(or -N to -1 counting from the end).");
  static_assert(sizeof...(Axes) == 0 || !detail::axes_in_range<E::rank, Axes...>() ||
                    detail::count_axes(detail::axis_mask<E::rank, Axes...>()) == sizeof...(Axes),
                "A reduction axis appears twice in the axis list.");
  static_assert(!Op::kIndexed || sizeof...(Axes) == 1,
                "tx::argmax and tx::argmin take exactly one axis.");

 public:
  /// The result's element type: E's, or int64 for argmax and argmin.
  using value_type = typename Op::template result_type<typename E::value_type>;
  /// The reduced expression's type.
  using operand_type = E;
  /// The reducer.
  using reducer = Op;
  /// Bit i set: axis i of the operand is reduced.
  static constexpr unsigned kAxes = detail::axis_mask<E::rank, Axes...>();
  // Counting the listed axes (not the mask's bits) keeps the rank right while a static_assert
  // above reports a bad axis, so that no second error follows it.
  /// The result's rank.
  static constexpr int rank =
      kKeepDims ? E::rank : E::rank - (sizeof...(Axes) == 0 ? E::rank : int{sizeof...(Axes)});

  /// The reduction of `e`.
  explicit ReduceExp(E e) : e_(std::move(e)) {}

  /// The reduced expression.
  const E& operand() const { return e_; }
  /// The result's extent. Throws ShapeError when the operand's operands do not broadcast, or
  /// when a reducer without identity (max, min, argmax, argmin) would reduce no elements.
  Dim<rank> dims() const {
    const auto operand_dims = e_.dims();
    detail::check_reducible<Op>(operand_dims, kAxes);
    return detail::reduced_extent<rank>(operand_dims, kAxes);
  }

 private:
  E e_;
};

namespace detail {
template <class E>
struct is_reduce_exp : std::false_type {};
template <class Op, class E, bool kKeepDims, int... Axes>
struct is_reduce_exp<ReduceExp<Op, E, kKeepDims, Axes...>> : std::true_type {};
}  // namespace detail

/// Inside a larger expression a reduction is materialised once, on the destination's place.
template <class Op, class E, bool kKeepDims, int... Axes, class TU>
auto prepare(const ReduceExp<Op, E, kKeepDims, Axes...>& r,
             const detail::EvalContext<TU>& context) {
  return detail::materialise(r, context);
}

/// The node protocol (expr/exp.h): the arrays the operand reads.
template <class Op, class E, bool kKeepDims, int... Axes, class F>
void for_each_array(const ReduceExp<Op, E, kKeepDims, Axes...>& r, F&& f) {
  for_each_array(r.operand(), f);
}

}  // namespace tensorx
