// The reductions of typed arrays and expressions: tx::sum, mean, max, min and prod over every
// axis or over the axes given as template arguments, and tx::argmax and tx::argmin along one
// axis. Each returns a ReduceExp; nothing is computed until it is assigned:
//   tx::Array<float, 0> s;  s = tx::sum(a * b);     // every axis, ONE pass reading a * b
//   r = tx::sum<1>(m);                               // rank 2 -> rank 1
//   k = tx::max<1>(m, tx::keepdims);                 // rank kept, axis 1 of extent 1
//   i = tx::argmax<-1>(m);                           // int64 positions along the last axis
// Axes go from 0 to rank - 1, or from -rank counting from the end. float16 and bfloat16 accumulate
// in float, integers in their own type. Empty reductions: sum 0, prod 1, mean NaN; max, min, argmax
// and argmin throw ShapeError. NaN propagates through max and min; argmax and argmin return the
// first NaN's position, and the first position among equal values (like NumPy).
#pragma once

#include <type_traits>

#include "tensorx/ops/arithmetic.h"
#include "tensorx/ops/math.h"
#include "tensorx/reduce/reduce_exp.h"
#include "tensorx/reduce/reduce_writer.h"
#include "tensorx/reduce/reducers.h"

namespace tensorx {
namespace detail {

/// The reduction node of reducer Op over Axes of e.
template <class Op, bool kKeepDims, int... Axes, class E>
ReduceExp<Op, E, kKeepDims, Axes...> make_reduce(const E& e) {
  static_assert(is_expression_v<E>, "A reduction takes an array or an expression.");
  return ReduceExp<Op, E, kKeepDims, Axes...>(e);
}

template <class E>
using if_expression = std::enable_if_t<is_expression_v<E>, int>;

}  // namespace detail

///@{
/// The sum of e over Axes (every axis when none are given; negative axes count from the end),
/// the reduced axes dropped or, with tx::keepdims, kept with extent 1; 0 over no elements. A
/// lazy ReduceExp: assigned, it runs on the destination's place in one pass that reads e without
/// a temporary, with the errors of an assignment (ShapeError, PlaceError, ...). Axes out of
/// range or repeated are a static_assert.
template <int... Axes, class E, detail::if_expression<E> = 0>
auto sum(const E& e) {
  return detail::make_reduce<op::sum_reducer, false, Axes...>(e);
}
template <int... Axes, class E, detail::if_expression<E> = 0>
auto sum(const E& e, KeepDims) {
  return detail::make_reduce<op::sum_reducer, true, Axes...>(e);
}
///@}

///@{
/// The mean of e over Axes: the sum divided by the number of reduced elements, NaN when there
/// are none. Floating-point elements only (a static_assert says so). Axes, keepdims, places and
/// errors as for tx::sum.
template <int... Axes, class E, detail::if_expression<E> = 0>
auto mean(const E& e) {
  static_assert(!std::is_integral_v<typename E::value_type>,
                "tx::mean needs floating-point elements: convert integers with tx::cast<double>.");
  return detail::make_reduce<op::mean_reducer, false, Axes...>(e);
}
template <int... Axes, class E, detail::if_expression<E> = 0>
auto mean(const E& e, KeepDims) {
  static_assert(!std::is_integral_v<typename E::value_type>,
                "tx::mean needs floating-point elements: convert integers with tx::cast<double>.");
  return detail::make_reduce<op::mean_reducer, true, Axes...>(e);
}
///@}

///@{
/// The biased variance of e over Axes, mean((e - mean(e))^2) (PyTorch's var with correction 0;
/// NumPy's var): two sweeps over each slice, as accurate as Welford's update. NaN over no
/// elements. Floating-point elements only. Over the last axis it is ONE pass
/// (reduce/row_fusion.h); over others its mean is materialised first. Axes, keepdims, places
/// and errors as for tx::sum.
template <int... Axes, class E, detail::if_expression<E> = 0>
auto var(const E& e) {
  return mean<Axes...>(square(e - mean<Axes...>(e, keepdims)));
}
template <int... Axes, class E, detail::if_expression<E> = 0>
auto var(const E& e, KeepDims) {
  return mean<Axes...>(square(e - mean<Axes...>(e, keepdims)), keepdims);
}
///@}

///@{
/// The largest element of e over Axes (NaN if any is NaN); ShapeError, when assigned, where an
/// axis to reduce is empty. Axes, keepdims and places as for tx::sum.
template <int... Axes, class E, detail::if_expression<E> = 0>
auto max(const E& e) {
  return detail::make_reduce<op::max_reducer, false, Axes...>(e);
}
template <int... Axes, class E, detail::if_expression<E> = 0>
auto max(const E& e, KeepDims) {
  return detail::make_reduce<op::max_reducer, true, Axes...>(e);
}
///@}

///@{
/// The smallest element of e over Axes (NaN if any is NaN); ShapeError, when assigned, where an
/// axis to reduce is empty. Axes, keepdims and places as for tx::sum.
template <int... Axes, class E, detail::if_expression<E> = 0>
auto min(const E& e) {
  return detail::make_reduce<op::min_reducer, false, Axes...>(e);
}
template <int... Axes, class E, detail::if_expression<E> = 0>
auto min(const E& e, KeepDims) {
  return detail::make_reduce<op::min_reducer, true, Axes...>(e);
}
///@}

///@{
/// The product of e over Axes (1 when empty; integers wrap around). Axes, keepdims, places and
/// errors as for tx::sum.
template <int... Axes, class E, detail::if_expression<E> = 0>
auto prod(const E& e) {
  return detail::make_reduce<op::prod_reducer, false, Axes...>(e);
}
template <int... Axes, class E, detail::if_expression<E> = 0>
auto prod(const E& e, KeepDims) {
  return detail::make_reduce<op::prod_reducer, true, Axes...>(e);
}
///@}

///@{
/// The int64 position of the largest element of e along Axis (the first NaN, else the first of
/// equal values); ShapeError, when assigned, where the axis is empty. Exactly one axis (a
/// static_assert says so); keepdims and places as for tx::sum.
template <int... Axis, class E, detail::if_expression<E> = 0>
auto argmax(const E& e) {
  return detail::make_reduce<op::argmax_reducer, false, Axis...>(e);
}
template <int... Axis, class E, detail::if_expression<E> = 0>
auto argmax(const E& e, KeepDims) {
  return detail::make_reduce<op::argmax_reducer, true, Axis...>(e);
}
///@}

///@{
/// The int64 position of the smallest element of e along Axis, as argmax.
template <int... Axis, class E, detail::if_expression<E> = 0>
auto argmin(const E& e) {
  return detail::make_reduce<op::argmin_reducer, false, Axis...>(e);
}
template <int... Axis, class E, detail::if_expression<E> = 0>
auto argmin(const E& e, KeepDims) {
  return detail::make_reduce<op::argmin_reducer, true, Axis...>(e);
}
///@}

}  // namespace tensorx
