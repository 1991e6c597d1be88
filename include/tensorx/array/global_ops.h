// The Majel global operations on typed arrays: zeros, ones, fill, reshape, copy and to. They work
// on any place from any translation unit, because the bytes move through the compiled layer.
#pragma once

#include <ostream>

#include "tensorx/array/array.h"
#include "tensorx/core/data_type.h"

namespace tensorx {
namespace detail {

/// The descriptor of an array's elements for the compiled copies and fills.
template <class T, int N>
StridedBytes strided_bytes_of(const Array<T, N>& array) {
  return strided_bytes(array.data(), array.place(), array.dims(), array.strides(),
                       array.buffer().get());
}

}  // namespace detail

/// Writes `value` (converted to T) to every element of `array`, which may be a strided view, on
/// any place and from any translation unit (GPU memory is filled on the current stream).
template <class T, int N, class V>
void fill(const Array<T, N>& array, const V& value) {
  const T converted = static_cast<T>(value);
  detail::fill_strided(detail::strided_bytes_of(array), &converted, sizeof(T));
}

/// A new dense array of the given extent on `place`, every element 0. Throws as the Array
/// constructor does (ShapeError, DeviceError, OutOfMemoryError).
template <class T, int N>
Array<T, N> zeros(const Dim<N>& dims, const Place& place = CpuPlace()) {
  Array<T, N> array(dims, place);
  fill(array, 0);
  return array;
}

/// A new dense array of the given extent on `place`, every element 1. Throws as the Array
/// constructor does (ShapeError, DeviceError, OutOfMemoryError).
template <class T, int N>
Array<T, N> ones(const Dim<N>& dims, const Place& place = CpuPlace()) {
  Array<T, N> array(dims, place);
  fill(array, 1);
  return array;
}

/// A view of a contiguous array with another extent of the same element count, sharing the
/// buffer. Throws ShapeError when the counts differ, an extent is negative or the array is not
/// contiguous.
template <class T, int N, int M>
Array<T, M> reshape(const Array<T, N>& array, const Dim<M>& dims) {
  const index_t count = detail::checked_numel(dims);  // negative extents are no shape
  if (count != array.numel()) {
    throw ShapeError(detail::message("cannot reshape an array of shape ", array.dims(), " (",
                                     array.numel(), " elements) to shape ", dims, " (", count,
                                     " elements)"));
  }
  if (!array.is_contiguous()) {
    throw ShapeError(detail::message("cannot reshape a non-contiguous array of shape ",
                                     array.dims(), " and strides ", array.strides(), " to shape ",
                                     dims, "; copy it into a dense array first"));
  }
  return Array<T, M>(array.buffer(), dims, contiguous_strides(dims), array.offset());
}

/// Copies `src` into `dst` element by element (equal extents, any places, any strides; an
/// overlapping source is read completely before dst is written). A copy into host memory returns
/// once it holds every write queued before it, on any stream. Throws ShapeError when the extents
/// differ.
template <class T, int N>
void copy(const Array<T, N>& dst, const Array<T, N>& src) {
  if (dst.dims() != src.dims()) {
    throw ShapeError(detail::message("cannot copy an array of shape ", src.dims(),
                                     " into an array of shape ", dst.dims()));
  }
  detail::copy_strided(detail::strided_bytes_of(dst), detail::strided_bytes_of(src), sizeof(T));
}

/// A new dense copy of `array` on `place` (always a copy, even on the same place). Reading a GPU
/// array into host memory waits for every write to it queued before, on any stream. Throws
/// DeviceError for an unusable GPU, OutOfMemoryError.
template <class T, int N>
Array<T, N> to(const Array<T, N>& array, const Place& place) {
  Array<T, N> result(array.dims(), place);
  copy(result, array);
  return result;
}

/// Prints "Array<float32, (2, 3)> on CpuPlace": the element type, extent and place, not the
/// elements (a DArray prints the same way).
template <class T, int N>
std::ostream& operator<<(std::ostream& out, const Array<T, N>& array) {
  return out << "Array<" << name(data_type_of<T>()) << ", " << array.dims() << "> on "
             << array.place();
}

}  // namespace tensorx
