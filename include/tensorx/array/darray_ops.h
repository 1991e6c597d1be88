// The Majel global operations on DArrays: the typed operations of global_ops.h, dispatched on the
// element type and rank at run time in the compiled layer (src/array/darray.cpp). Mismatched
// element types or ranks throw TypeError.
#pragma once

#include "tensorx/array/darray.h"
#include "tensorx/array/global_ops.h"

namespace tensorx {

/// A new DArray of T with the given extent (rank 1..4) on `place`, every element 0; errors as
/// make_darray's.
template <class T>
detail::delayed_t<DArray, T> zeros(const DDim& dims, const Place& place = CpuPlace()) {
  return make_darray(dims, T(0), place);
}

/// A new DArray of T with the given extent (rank 1..4) on `place`, every element 1; errors as
/// make_darray's.
template <class T>
detail::delayed_t<DArray, T> ones(const DDim& dims, const Place& place = CpuPlace()) {
  return make_darray(dims, T(1), place);
}

/// Writes `value`, converted to the element type, to every element, on the DArray's place.
template <class X, class V, detail::if_darray<X> = 0>
void fill(const X& x, const V& value) {
  detail::fill_darray(x, detail::element_value(value));
}

/// A view of a contiguous DArray with another extent (rank 1..4) of the same element count.
/// Throws TypeError for another rank, ShapeError as the typed reshape does.
template <class X, detail::if_darray<X> = 0>
DArray reshape(const X& x, const DDim& dims);

/// Copies `src` into `dst` (equal extents, any places and strides). Throws TypeError when the
/// element types or ranks differ, ShapeError when the extents do.
template <class X, detail::if_darray<X> = 0>
void copy(const X& dst, const X& src);

/// A new dense copy of `x` on `place`, as the typed tx::to.
template <class X, detail::if_darray<X> = 0>
DArray to(const X& x, const Place& place);

}  // namespace tensorx
