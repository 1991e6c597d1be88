// The reductions of DArrays, with the axes chosen at run time:
//   tx::DArray s = tx::sum(x);                      // every axis
//   tx::DArray r = tx::sum(x, {0, 2});              // axes 0 and 2 (negative axes count
//                                                   // from the end)
//   tx::DArray c = tx::sum(x, 1);                   // one axis: the same as {1}
//   tx::DArray k = tx::max(x, {1}, tx::keepdims);   // rank kept, axis 1 of extent 1
//   tx::DArray i = tx::argmax(x, -1);               // int64 positions along the last axis
// Each returns a new DArray on x's place, of x's element type (int64 for argmax and argmin). A
// DArray has no rank 0, so reducing every axis without keepdims gives extent (1). They run
// through the compiled layer (any place, from any translation unit;
// src/reduce/darray_reductions.cpp); a strided x is copied densely first. Semantics as in
// reduce/reductions.h.
#pragma once

#include <type_traits>
#include <vector>

#include "tensorx/array/darray.h"
#include "tensorx/reduce/reduce_exp.h"

namespace tensorx {
namespace detail {
/// The one-axis forms take any integer axis by deduction, so that a braced list (`{}`: no axes,
/// `{1}`) still selects the vector of axes.
template <class X, class Axis>
using if_darray_axis = std::enable_if_t<std::is_integral_v<Axis>, if_darray<X>>;
}  // namespace detail

///@{
/// The sum of x over every axis, or over `axes` (one axis may be a number, as argmax's is:
/// tx::sum(x, 1) is tx::sum(x, {1})); tx::keepdims keeps them with extent 1. A new
/// DArray on x's place (any place, from any translation unit). Throws ShapeError for an axis out
/// of range or repeated, and as an assignment does for the result (DeviceError,
/// OutOfMemoryError).
template <class X, detail::if_darray<X> = 0>
DArray sum(const X& x);
template <class X, detail::if_darray<X> = 0>
DArray sum(const X& x, const std::vector<int>& axes);
template <class X, detail::if_darray<X> = 0>
DArray sum(const X& x, const std::vector<int>& axes, KeepDims);
template <class X, class Axis, detail::if_darray_axis<X, Axis> = 0>
DArray sum(const X& x, Axis axis) {
  return sum(x, std::vector<int>{static_cast<int>(axis)});
}
template <class X, class Axis, detail::if_darray_axis<X, Axis> = 0>
DArray sum(const X& x, Axis axis, KeepDims keep) {
  return sum(x, std::vector<int>{static_cast<int>(axis)}, keep);
}
///@}
///@{
/// The mean of x (floating-point elements; TypeError for integers), NaN over no elements; axes,
/// places and other errors as for sum.
template <class X, detail::if_darray<X> = 0>
DArray mean(const X& x);
template <class X, detail::if_darray<X> = 0>
DArray mean(const X& x, const std::vector<int>& axes);
template <class X, detail::if_darray<X> = 0>
DArray mean(const X& x, const std::vector<int>& axes, KeepDims);
template <class X, class Axis, detail::if_darray_axis<X, Axis> = 0>
DArray mean(const X& x, Axis axis) {
  return mean(x, std::vector<int>{static_cast<int>(axis)});
}
template <class X, class Axis, detail::if_darray_axis<X, Axis> = 0>
DArray mean(const X& x, Axis axis, KeepDims keep) {
  return mean(x, std::vector<int>{static_cast<int>(axis)}, keep);
}
///@}
///@{
/// The largest element (NaN if any is NaN); ShapeError over no elements; axes, places and other
/// errors as for sum.
template <class X, detail::if_darray<X> = 0>
DArray max(const X& x);
template <class X, detail::if_darray<X> = 0>
DArray max(const X& x, const std::vector<int>& axes);
template <class X, detail::if_darray<X> = 0>
DArray max(const X& x, const std::vector<int>& axes, KeepDims);
template <class X, class Axis, detail::if_darray_axis<X, Axis> = 0>
DArray max(const X& x, Axis axis) {
  return max(x, std::vector<int>{static_cast<int>(axis)});
}
template <class X, class Axis, detail::if_darray_axis<X, Axis> = 0>
DArray max(const X& x, Axis axis, KeepDims keep) {
  return max(x, std::vector<int>{static_cast<int>(axis)}, keep);
}
///@}
///@{
/// The smallest element (NaN if any is NaN); ShapeError over no elements; axes, places and other
/// errors as for sum.
template <class X, detail::if_darray<X> = 0>
DArray min(const X& x);
template <class X, detail::if_darray<X> = 0>
DArray min(const X& x, const std::vector<int>& axes);
template <class X, detail::if_darray<X> = 0>
DArray min(const X& x, const std::vector<int>& axes, KeepDims);
template <class X, class Axis, detail::if_darray_axis<X, Axis> = 0>
DArray min(const X& x, Axis axis) {
  return min(x, std::vector<int>{static_cast<int>(axis)});
}
template <class X, class Axis, detail::if_darray_axis<X, Axis> = 0>
DArray min(const X& x, Axis axis, KeepDims keep) {
  return min(x, std::vector<int>{static_cast<int>(axis)}, keep);
}
///@}
///@{
/// The product of the elements (1 over none); axes, places and errors as for sum.
template <class X, detail::if_darray<X> = 0>
DArray prod(const X& x);
template <class X, detail::if_darray<X> = 0>
DArray prod(const X& x, const std::vector<int>& axes);
template <class X, detail::if_darray<X> = 0>
DArray prod(const X& x, const std::vector<int>& axes, KeepDims);
template <class X, class Axis, detail::if_darray_axis<X, Axis> = 0>
DArray prod(const X& x, Axis axis) {
  return prod(x, std::vector<int>{static_cast<int>(axis)});
}
template <class X, class Axis, detail::if_darray_axis<X, Axis> = 0>
DArray prod(const X& x, Axis axis, KeepDims keep) {
  return prod(x, std::vector<int>{static_cast<int>(axis)}, keep);
}
///@}
///@{
/// The int64 positions of the largest elements along `axis`; ShapeError for an empty axis;
/// places and other errors as for sum.
template <class X, detail::if_darray<X> = 0>
DArray argmax(const X& x, int axis);
template <class X, detail::if_darray<X> = 0>
DArray argmax(const X& x, int axis, KeepDims);
///@}
///@{
/// The int64 positions of the smallest elements along `axis`; ShapeError for an empty axis;
/// places and other errors as for sum.
template <class X, detail::if_darray<X> = 0>
DArray argmin(const X& x, int axis);
template <class X, detail::if_darray<X> = 0>
DArray argmin(const X& x, int axis, KeepDims);
///@}

}  // namespace tensorx
