// The Majel global operations on DArrays: the typed operations of global_ops.h, dispatched on the
// element type and rank at run time. Mismatched element types or ranks throw TypeError.
#pragma once

#include "tensorx/array/darray.h"
#include "tensorx/array/global_ops.h"

namespace tensorx {

/// A new DArray of T with the given extent (rank 1..4) on `place`, every element 0.
template <class T>
DArray zeros(const DDim& dims, const Place& place = CpuPlace()) {
  return make_darray(dims, T(0), place);
}

/// A new DArray of T with the given extent (rank 1..4) on `place`, every element 1.
template <class T>
DArray ones(const DDim& dims, const Place& place = CpuPlace()) {
  return make_darray(dims, T(1), place);
}

/// Writes `value`, converted to the element type, to every element.
template <class V>
void fill(const DArray& x, const V& value) {
  visit([&](auto& a) { fill(a, value); }, x);
}

/// A view of a contiguous DArray with another extent (rank 1..4) of the same element count.
inline DArray reshape(const DArray& x, const DDim& dims) {
  return visit(
      [&](auto& a) {
        return detail::darray_rank_switch(
            arity(dims), [&](auto rank) { return DArray(reshape(a, to_dim<rank>(dims))); });
      },
      x);
}

/// Copies `src` into `dst` (same element type and rank, equal extents, any places).
inline void copy(const DArray& dst, const DArray& src) {
  visit([](auto& d, auto& s) { copy(d, s); }, dst, src);
}

/// A new dense copy of `x` on `place`.
inline DArray to(const DArray& x, const Place& place) {
  return visit([&](auto& a) { return DArray(to(a, place)); }, x);
}

}  // namespace tensorx
