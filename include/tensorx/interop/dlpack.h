// DLPack 1.x: zero-copy exchange of arrays with other frameworks (NumPy, PyTorch, CuPy, JAX):
//   DLManagedTensorVersioned* t = tx::to_dlpack(a);    // shares a's buffer
//   auto b = tx::from_dlpack<float, 2>(t);             // or: tx::DArray d = tx::from_dlpack(t);
// Export: the tensor holds a reference to the array's buffer, which its deleter releases; a stays
// valid. Import: the array wraps the producer's memory without a copy (strides and byte offset
// honoured); it and every view of it keep that memory alive, and the producer's deleter is called
// exactly once, when the last of them dies (for GPU memory, after the device's queued work has
// finished). The legacy DLManagedTensor is accepted too. A failed import throws before taking
// ownership: the tensor is still the caller's and its deleter has not been called.
//
// Devices: kDLCPU and kDLCUDAHost (pinned host memory) import as CpuPlace, kDLCUDA and
// kDLCUDAManaged as CudaPlace(device_id); export says kDLCPU or kDLCUDA. Element types: every
// tensorx type (src/interop/dlpack_types.h has the table). DLPack leaves stream order to the
// exchange: a consumer of exported GPU memory must order its work after tensorx's current stream
// on that device (from the host, tx::synchronize(place) does).
#pragma once

#include <cstddef>
#include <string>

#include "tensorx/array/array.h"
#include "tensorx/array/array_view.h"
#include "tensorx/array/darray.h"
#include "tensorx/core/error.h"
#include "tensorx/interop/dlpack_abi.h"
#include "tensorx/interop/erased_array.h"
#include "tensorx/place/place.h"

namespace tensorx {

/// A DLPack tensor that tensorx cannot hold (its element type, device, flags or version), or one
/// whose fields contradict each other (a NULL shape, negative extents, overflowing strides).
class DLPackError : public Error {
  using Error::Error;
};

namespace detail {

/// A DLPack tensor checked and described, before tensorx takes ownership of it.
struct DLPackImport {
  ErasedArray array;       // the view, without its buffer yet
  void* memory = nullptr;  // the lowest address the view touches
  std::size_t bytes = 0;   // from there to the end of the highest element
  Place place;
};

/// Checks `tensor` and describes it; throws DLPackError (or DeviceError for an unusable GPU).
DLPackImport describe_dlpack(const DLManagedTensorVersioned* tensor);
DLPackImport describe_dlpack(const DLManagedTensor* tensor);

/// Takes ownership of `tensor`: the returned array's buffer calls its deleter when it dies.
ErasedArray adopt_dlpack(DLManagedTensorVersioned* tensor, const DLPackImport& import);
ErasedArray adopt_dlpack(DLManagedTensor* tensor, const DLPackImport& import);

/// A new versioned DLPack tensor that shares `array`'s buffer.
DLManagedTensorVersioned* export_dlpack(const ErasedArray& array);

inline constexpr const char* kImportSource = "the DLPack tensor";

template <class T, int N, class Managed>
Array<T, N> import_typed(Managed* tensor) {
  const DLPackImport import = describe_dlpack(tensor);
  check_type_and_rank<T, N>(import.array, kImportSource);
  return typed_view<T, N>(adopt_dlpack(tensor, import));
}

}  // namespace detail

/// A DLPack 1.x tensor sharing `array`'s buffer, on its place. The consumer calls its deleter once.
template <class T, int N>
DLManagedTensorVersioned* to_dlpack(const Array<T, N>& array) {
  return detail::export_dlpack(detail::erase(array));
}

/// A DLPack 1.x tensor sharing the buffer of a view node over an array (tx::transpose(a),
/// tx::slice(a, axis, b, e)), with the view's strides.
template <class V, detail::if_array_view<V> = 0>
DLManagedTensorVersioned* to_dlpack(const V& view) {
  return to_dlpack(view.array());
}

/// A DLPack 1.x tensor sharing the buffer of the array a DArray holds (compiled, as are the
/// DArray forms of from_dlpack: src/interop/dlpack_export.cpp and dlpack_import.cpp).
template <class X, detail::if_darray<X> = 0>
DLManagedTensorVersioned* to_dlpack(const X& array);

/// The Array<T, N> that views `tensor`'s memory, on its device (the CPU or a CUDA GPU), taking
/// ownership of it. Throws TypeError when its element type or rank differs, DLPackError when
/// tensorx cannot hold it, DeviceError for an unusable GPU.
template <class T, int N>
Array<T, N> from_dlpack(DLManagedTensorVersioned* tensor) {
  return detail::import_typed<T, N>(tensor);
}

/// The same for a legacy (pre-1.0) DLPack tensor.
template <class T, int N>
Array<T, N> from_dlpack(DLManagedTensor* tensor) {
  return detail::import_typed<T, N>(tensor);
}

/// The DArray that views `tensor`'s memory, on its device, taking ownership of it. Throws
/// TypeError for a rank a DArray cannot hold (0, or above 4: import those with
/// from_dlpack<T, N>), DLPackError when tensorx cannot hold it, DeviceError for an unusable GPU.
DArray from_dlpack(DLManagedTensorVersioned* tensor);

/// The same for a legacy (pre-1.0) DLPack tensor.
DArray from_dlpack(DLManagedTensor* tensor);

}  // namespace tensorx
