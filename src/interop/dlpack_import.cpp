// DLPack import: every field of a producer's tensor is checked before tensorx takes ownership,
// with 64-bit overflow checks wherever extents, strides and offsets combine, so that a tensor that
// lies about itself is a DLPackError rather than a view past its memory.
#include <cstdint>
#include <limits>
#include <memory>

#include "interop/dlpack_types.h"
#include "tensorx/interop/dlpack.h"
#include "tensorx/memory/allocation.h"

namespace tensorx {
namespace detail {
namespace {

[[noreturn]] void fail(const std::string& problem) {
  throw DLPackError("cannot import the DLPack tensor: " + problem);
}

/// a * b, a + b and a - b in index_t, or a DLPackError naming `what` when they overflow.
index_t checked_multiply(index_t a, index_t b, const char* what) {
  index_t result;
  if (__builtin_mul_overflow(a, b, &result)) fail(message(what, " overflows 64 bits"));
  return result;
}
index_t checked_add(index_t a, index_t b, const char* what) {
  index_t result;
  if (__builtin_add_overflow(a, b, &result)) fail(message(what, " overflows 64 bits"));
  return result;
}
index_t checked_subtract(index_t a, index_t b, const char* what) {
  index_t result;
  if (__builtin_sub_overflow(a, b, &result)) fail(message(what, " overflows 64 bits"));
  return result;
}

Place place_of(const DLDevice& device) {
  switch (device.device_type) {
    case kDLCPU:
    case kDLCUDAHost:  // pinned host memory: the CPU reads it like any other
      return CpuPlace();
    case kDLCUDA:
    case kDLCUDAManaged:
      if (device.device_id < 0) fail(message("negative CUDA device id ", device.device_id));
      return CudaPlace(device.device_id);
    default:
      fail(message("its memory is on ", dlpack_device_name(device.device_type), " device ",
                   device.device_id,
                   ", but tensorx holds CPU memory (kDLCPU, kDLCUDAHost) and "
                   "CUDA memory (kDLCUDA, kDLCUDAManaged)"));
  }
}

DataType element_type_of(const DLDataType& dtype) {
  if (const auto type = data_type_of_dlpack(dtype)) return *type;
  fail(message("its element type ", dlpack_dtype_name(dtype), " (code ", int{dtype.code}, ", ",
               int{dtype.bits}, " bits, ", dtype.lanes, " lanes) is none of tensorx's ",
               dlpack_importable_types()));
}

/// The checked description of a DLTensor, shared by the versioned and the legacy struct.
DLPackImport describe(const DLTensor& tensor) {
  DLPackImport import;
  ErasedArray& array = import.array;
  if (tensor.ndim < 0 || tensor.ndim > kMaxRank) {
    fail(message("its rank ", tensor.ndim, " is outside the ranks 0 to ", kMaxRank,
                 " of tensorx arrays"));
  }
  array.rank = tensor.ndim;
  array.type = element_type_of(tensor.dtype);
  import.place = place_of(tensor.device);
  if (array.rank > 0 && tensor.shape == nullptr) fail("its shape is NULL");

  index_t count = 1;
  for (int d = 0; d < array.rank; ++d) {
    array.dims[d] = tensor.shape[d];
    if (array.dims[d] < 0) fail(message("extent ", d, " is negative (", array.dims[d], ")"));
    count = checked_multiply(count, array.dims[d], "its element count");
  }
  // NULL strides mean a dense row-major layout.
  index_t dense_stride = 1;
  for (int d = array.rank - 1; d >= 0; --d) {
    array.strides[d] = tensor.strides != nullptr ? tensor.strides[d] : dense_stride;
    dense_stride = checked_multiply(dense_stride, array.dims[d], "its element count");
  }

  const index_t element_size = static_cast<index_t>(size_of(array.type));
  const std::uintptr_t address = reinterpret_cast<std::uintptr_t>(tensor.data);
  if (tensor.byte_offset > std::numeric_limits<std::uintptr_t>::max() - address) {
    fail(message("data + byte_offset (", tensor.byte_offset, ") overflows the address space"));
  }
  const std::uintptr_t first = address + static_cast<std::uintptr_t>(tensor.byte_offset);
  if (count == 0) {
    import.memory = reinterpret_cast<void*>(first);
    return import;
  }
  if (tensor.data == nullptr) fail(message("its data is NULL but it has ", count, " elements"));
  if (first % static_cast<std::uintptr_t>(element_size) != 0) {
    fail(message("its first element (data + byte_offset) is not aligned to the ", element_size,
                 "-byte ", name(array.type), " elements"));
  }

  // The elements reach from `lowest` to `highest` elements around the first one (strides may be
  // negative or 0); the buffer tensorx records is exactly that span.
  index_t lowest = 0, highest = 0;
  for (int d = 0; d < array.rank; ++d) {
    const index_t reach = checked_multiply(array.strides[d], array.dims[d] - 1, "a stride's reach");
    if (reach < 0) {
      lowest = checked_add(lowest, reach, "the span of its strides");
    } else {
      highest = checked_add(highest, reach, "the span of its strides");
    }
  }
  const index_t span = checked_add(checked_subtract(highest, lowest, "the span of its strides"), 1,
                                   "the span of its strides");
  const index_t bytes = checked_multiply(span, element_size, "the byte span of its strides");
  const auto below = static_cast<std::uintptr_t>(
      checked_multiply(lowest, -element_size, "the byte span of its strides"));
  if (below > first) fail("its negative strides reach below address 0");
  const std::uintptr_t memory = first - below;
  if (static_cast<std::uintptr_t>(bytes) > std::numeric_limits<std::uintptr_t>::max() - memory) {
    fail("its strides reach past the end of the address space");
  }
  import.memory = reinterpret_cast<void*>(memory);
  import.bytes = static_cast<std::size_t>(bytes);
  array.offset = -lowest;
  return import;
}

template <class Managed>
ErasedArray adopt(Managed* tensor, const DLPackImport& import) {
  ErasedArray array = import.array;
  // The Allocation calls the deleter exactly once; if constructing it throws, it never does.
  array.buffer = std::make_shared<Allocation>(import.memory, import.bytes, import.place, [tensor] {
    if (tensor->deleter != nullptr) tensor->deleter(tensor);
  });
  return array;
}

}  // namespace

DLPackImport describe_dlpack(const DLManagedTensorVersioned* tensor) {
  if (tensor == nullptr) fail("the DLManagedTensorVersioned pointer is NULL");
  // Only the fields up to flags are the same in every version, so the version is checked first.
  if (tensor->version.major != DLPACK_MAJOR_VERSION) {
    fail(message("it is DLPack version ", tensor->version.major, ".", tensor->version.minor,
                 ", and tensorx reads version ", DLPACK_MAJOR_VERSION, ".x"));
  }
  if (tensor->flags & DLPACK_FLAG_BITMASK_READ_ONLY) {
    fail(
        "it is read-only (DLPACK_FLAG_BITMASK_READ_ONLY), and tensorx arrays are writable: "
        "copy it first, or export a writable one");
  }
  return describe(tensor->dl_tensor);
}

DLPackImport describe_dlpack(const DLManagedTensor* tensor) {
  if (tensor == nullptr) fail("the DLManagedTensor pointer is NULL");
  return describe(tensor->dl_tensor);
}

ErasedArray adopt_dlpack(DLManagedTensorVersioned* tensor, const DLPackImport& import) {
  return adopt(tensor, import);
}

ErasedArray adopt_dlpack(DLManagedTensor* tensor, const DLPackImport& import) {
  return adopt(tensor, import);
}

namespace {

template <class Managed>
DArray import_darray(Managed* tensor) {
  const DLPackImport import = describe_dlpack(tensor);
  check_darray_rank(import.array, kImportSource, "tx::from_dlpack<T, N>");
  return darray_view(adopt_dlpack(tensor, import));
}

}  // namespace
}  // namespace detail

DArray from_dlpack(DLManagedTensorVersioned* tensor) {
  return detail::import_darray(tensor);
}

DArray from_dlpack(DLManagedTensor* tensor) {
  return detail::import_darray(tensor);
}

}  // namespace tensorx
