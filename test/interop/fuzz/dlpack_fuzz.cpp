// libFuzzer target of the DLPack import checks: the input fills every field of a versioned tensor
// (the data pointer is only a number, never dereferenced); describing it must succeed with a span
// that covers every element, or be a DLPackError or DeviceError. Built like fuzz_npy
// (npy_fuzz.cpp).
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "tensorx/interop/dlpack.h"

namespace tx = tensorx;

namespace {

/// Consumes sizeof(T) bytes of the input (zeros once it is exhausted).
template <class T>
T take(const std::uint8_t*& data, std::size_t& size) {
  T value{};
  const std::size_t n = size < sizeof(T) ? size : sizeof(T);
  std::memcpy(&value, data, n);
  data += n;
  size -= n;
  return value;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::int64_t shape[12], strides[12];
  DLManagedTensorVersioned tensor{};
  tensor.version.major = take<std::uint8_t>(data, size) % 3;
  tensor.flags = take<std::uint8_t>(data, size) % 4;
  DLTensor& t = tensor.dl_tensor;
  t.data = reinterpret_cast<void*>(take<std::uintptr_t>(data, size));
  t.byte_offset = take<std::uint64_t>(data, size);
  t.device = DLDevice{static_cast<DLDeviceType>(take<std::uint8_t>(data, size) % 20), 0};
  t.ndim = take<std::int8_t>(data, size) % 12;
  t.dtype = DLDataType{take<std::uint8_t>(data, size), take<std::uint8_t>(data, size), 1};
  for (int d = 0; d < 12; ++d) {
    shape[d] = take<std::int64_t>(data, size);
    strides[d] = take<std::int64_t>(data, size);
  }
  t.shape = shape;
  t.strides = take<std::uint8_t>(data, size) % 2 ? strides : nullptr;
  try {
    const tx::detail::DLPackImport import = tx::detail::describe_dlpack(&tensor);
    // Every element lies inside the recorded span (an empty tensor spans nothing).
    const tx::detail::ErasedArray& array = import.array;
    if (array.numel() == 0) return 0;
    const auto element_size = static_cast<tx::index_t>(tx::size_of(array.type));
    tx::index_t low = array.offset, high = array.offset;
    for (int d = 0; d < array.rank; ++d) {
      const tx::index_t reach = array.strides[d] * (array.dims[d] - 1);
      (reach < 0 ? low : high) += reach;
    }
    if (low != 0 || (high + 1) * element_size != static_cast<tx::index_t>(import.bytes)) {
      __builtin_trap();
    }
  } catch (const tx::DLPackError&) {
  } catch (const tx::DeviceError&) {
  }
  return 0;
}
