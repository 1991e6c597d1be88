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

#include <initializer_list>
#include <type_traits>
#include <utility>
#include <vector>

#include "tensorx/array/darray.h"
#include "tensorx/reduce/reduce_exp.h"

namespace tensorx {

/// The axes a DArray reduction reduces, chosen at run time: a braced list (`{0, 2}`; `{}` for
/// none), a std::vector<int>, or one axis as a number (`1`, `-1`), as argmax takes its axis.
class AxisList {
 public:
  /// No axis.
  AxisList() = default;
  /// The listed axes.
  AxisList(std::initializer_list<int> axes) : axes_(axes) {}
  /// The listed axes.
  AxisList(std::vector<int> axes) : axes_(std::move(axes)) {}
  /// One axis.
  template <class Axis, std::enable_if_t<std::is_integral_v<Axis>, int> = 0>
  AxisList(Axis axis) : axes_{static_cast<int>(axis)} {}

  /// The axes, in the order given.
  const std::vector<int>& axes() const { return axes_; }

 private:
  std::vector<int> axes_;
};

///@{
/// The sum of x over every axis, or over `axes` (`{0, 2}`, or one axis: `1`); tx::keepdims
/// keeps them with extent 1. A new
/// DArray on x's place (any place, from any translation unit). Throws ShapeError for an axis out
/// of range or repeated, and as an assignment does for the result (DeviceError,
/// OutOfMemoryError).
template <class X, detail::if_darray<X> = 0>
DArray sum(const X& x);
template <class X, detail::if_darray<X> = 0>
DArray sum(const X& x, const AxisList& axes);
template <class X, detail::if_darray<X> = 0>
DArray sum(const X& x, const AxisList& axes, KeepDims);
///@}
///@{
/// The mean of x (floating-point elements; TypeError for integers), NaN over no elements; axes,
/// places and other errors as for sum.
template <class X, detail::if_darray<X> = 0>
DArray mean(const X& x);
template <class X, detail::if_darray<X> = 0>
DArray mean(const X& x, const AxisList& axes);
template <class X, detail::if_darray<X> = 0>
DArray mean(const X& x, const AxisList& axes, KeepDims);
///@}
///@{
/// The largest element (NaN if any is NaN); ShapeError over no elements; axes, places and other
/// errors as for sum.
template <class X, detail::if_darray<X> = 0>
DArray max(const X& x);
template <class X, detail::if_darray<X> = 0>
DArray max(const X& x, const AxisList& axes);
template <class X, detail::if_darray<X> = 0>
DArray max(const X& x, const AxisList& axes, KeepDims);
///@}
///@{
/// The smallest element (NaN if any is NaN); ShapeError over no elements; axes, places and other
/// errors as for sum.
template <class X, detail::if_darray<X> = 0>
DArray min(const X& x);
template <class X, detail::if_darray<X> = 0>
DArray min(const X& x, const AxisList& axes);
template <class X, detail::if_darray<X> = 0>
DArray min(const X& x, const AxisList& axes, KeepDims);
///@}
///@{
/// The product of the elements (1 over none); axes, places and errors as for sum.
template <class X, detail::if_darray<X> = 0>
DArray prod(const X& x);
template <class X, detail::if_darray<X> = 0>
DArray prod(const X& x, const AxisList& axes);
template <class X, detail::if_darray<X> = 0>
DArray prod(const X& x, const AxisList& axes, KeepDims);
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
