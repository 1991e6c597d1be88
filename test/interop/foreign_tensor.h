// A stand-in for another framework's DLPack export: a tensor over memory tensorx did not
// allocate, whose deleter counts its calls before freeing everything. Tests build one, change its
// fields as a producer might, and watch when (and how often) tensorx calls the deleter.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "tensorx/interop/dlpack_abi.h"

namespace tensorx {
namespace testing {

/// The memory and the descriptors a producer keeps alive for one exported tensor.
template <class Managed>
struct ForeignTensor {
  Managed managed{};
  std::vector<std::int64_t> memory;  // int64 words: 8-byte aligned for every element type
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;
  int* deletions = nullptr;
};

/// A new foreign tensor of `dtype` with the given shape and strides (none: NULL strides) over
/// `memory_bytes` of zeroed memory, its first element `byte_offset` bytes in. The deleter adds
/// one to `*deletions` and frees the tensor.
template <class Managed>
Managed* make_foreign(DLDataType dtype, std::vector<std::int64_t> shape,
                      std::vector<std::int64_t> strides, std::size_t memory_bytes,
                      std::uint64_t byte_offset, int* deletions) {
  auto* foreign = new ForeignTensor<Managed>;
  foreign->memory.assign((memory_bytes + 7) / 8, 0);
  foreign->shape = std::move(shape);
  foreign->strides = std::move(strides);
  foreign->deletions = deletions;
  Managed& managed = foreign->managed;
  if constexpr (std::is_same_v<Managed, DLManagedTensorVersioned>) {
    managed.version = DLPackVersion{1, 0};
    managed.flags = 0;
  }
  managed.manager_ctx = foreign;
  managed.deleter = [](Managed* self) {
    auto* owner = static_cast<ForeignTensor<Managed>*>(self->manager_ctx);
    ++*owner->deletions;
    delete owner;
  };
  DLTensor& tensor = managed.dl_tensor;
  tensor.data = foreign->memory.data();
  tensor.device = DLDevice{kDLCPU, 0};
  tensor.ndim = static_cast<std::int32_t>(foreign->shape.size());
  tensor.dtype = dtype;
  tensor.shape = foreign->shape.data();
  tensor.strides = foreign->strides.empty() ? nullptr : foreign->strides.data();
  tensor.byte_offset = byte_offset;
  return &managed;
}

/// The bytes of a foreign tensor's memory, `byte_offset` in, as T.
template <class T, class Managed>
T* foreign_elements(Managed* tensor) {
  return reinterpret_cast<T*>(static_cast<char*>(tensor->dl_tensor.data) +
                              tensor->dl_tensor.byte_offset);
}

/// float32, as DLPack writes it.
inline DLDataType dl_float32() {
  return DLDataType{kDLFloat, 32, 1};
}

}  // namespace testing
}  // namespace tensorx
