// ErasedArray: an Array<T, N> whose element type and rank are run-time values. It is the form in
// which arrays cross into interop's compiled code (the .npy reader and writer, DLPack export and
// import), which must not be templates; erase() and the typed views below convert both ways.
#pragma once

#include <memory>
#include <string>

#include "tensorx/array/array.h"
#include "tensorx/array/darray.h"
#include "tensorx/core/config.h"
#include "tensorx/core/data_type.h"
#include "tensorx/core/error.h"
#include "tensorx/memory/allocation.h"
#include "tensorx/shape/dim.h"

namespace tensorx {
namespace detail {

/// A strided view of a buffer, as Array<T, N> holds it, with T and N named at run time.
struct ErasedArray {
  std::shared_ptr<Allocation> buffer;  // null for an unallocated array
  DataType type = DataType::kFloat32;
  int rank = 0;
  index_t dims[kMaxRank] = {};
  index_t strides[kMaxRank] = {};  // in elements
  index_t offset = 0;              // of the first element inside the buffer, in elements

  index_t numel() const {
    index_t count = 1;
    for (int d = 0; d < rank; ++d) count *= dims[d];
    return count;
  }
  /// The first element (nullptr for an unallocated or empty buffer).
  void* data() const {
    if (!buffer || buffer->data() == nullptr) return nullptr;
    return static_cast<char*>(buffer->data()) + offset * static_cast<index_t>(size_of(type));
  }
  /// "Array<float32, 2>", for messages.
  std::string type_name() const { return array_type_name(type, rank); }
};

/// The erased form of `array`, sharing its buffer.
template <class T, int N>
ErasedArray erase(const Array<T, N>& array) {
  ErasedArray erased;
  erased.buffer = array.buffer();
  erased.type = data_type_of<T>();
  erased.rank = N;
  if constexpr (N > 0) {
    for (int d = 0; d < N; ++d) {
      erased.dims[d] = array.dims().at(d);
      erased.strides[d] = array.strides().at(d);
    }
  }
  erased.offset = array.offset();
  return erased;
}

/// The erased form of the array a DArray holds (compiled: src/interop/erased_darray.cpp).
template <class X, if_darray<X> = 0>
ErasedArray erase(const X& array);

/// Throws TypeError unless `erased` holds T elements in rank N; `source` (a path, "the DLPack
/// tensor") says where it came from.
template <class T, int N>
void check_type_and_rank(const ErasedArray& erased, const std::string& source) {
  if (erased.type != data_type_of<T>() || erased.rank != N) {
    throw TypeError(message("expected an ", array_type_name(data_type_of<T>(), N), " but ", source,
                            " holds an ", erased.type_name()));
  }
}

/// The Array<T, N> view `erased` describes; its type and rank must be T and N (checked first).
template <class T, int N>
Array<T, N> typed_view(const ErasedArray& erased) {
  Dim<N> dims;
  Dim<N> strides;
  if constexpr (N > 0) {
    for (int d = 0; d < N; ++d) {
      dims.at(d) = erased.dims[d];
      strides.at(d) = erased.strides[d];
    }
  }
  return Array<T, N>(erased.buffer, dims, strides, erased.offset);
}

/// Throws TypeError unless a DArray can hold `erased` (rank 1 to 4); `source` says where it came
/// from and the message points to the typed form, which holds every rank.
inline void check_darray_rank(const ErasedArray& erased, const std::string& source,
                              const std::string& typed_form) {
  if (erased.rank < 1 || erased.rank > kMaxDArrayRank) {
    throw TypeError(message(source, " holds an ", erased.type_name(),
                            " but a DArray holds ranks 1 to ", kMaxDArrayRank, "; use ", typed_form,
                            " for rank ", erased.rank));
  }
}

/// The DArray view `erased` describes; its rank must be 1 to 4 (checked first). Compiled, as
/// erase of a DArray is.
DArray darray_view(const ErasedArray& erased);

}  // namespace detail
}  // namespace tensorx
