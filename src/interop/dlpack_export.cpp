// DLPack export: one heap block holds the versioned tensor, its shape and strides, and a reference
// to the array's buffer; the deleter frees the block, which drops the reference.
#include <cstdint>
#include <memory>

#include "interop/dlpack_types.h"
#include "tensorx/interop/dlpack.h"

namespace tensorx {
namespace detail {
namespace {

struct ExportedTensor {
  DLManagedTensorVersioned managed{};
  std::shared_ptr<Allocation> buffer;
  std::int64_t shape[kMaxRank] = {};
  std::int64_t strides[kMaxRank] = {};
};

void delete_exported(DLManagedTensorVersioned* self) {
  delete static_cast<ExportedTensor*>(self->manager_ctx);
}

DLDevice dlpack_device_of(const Place& place) {
  if (is_cpu_place(place)) return DLDevice{kDLCPU, 0};
  return DLDevice{kDLCUDA, boost::get<CudaPlace>(place).device};
}

}  // namespace

DLManagedTensorVersioned* export_dlpack(const ErasedArray& array) {
  auto exported = std::make_unique<ExportedTensor>();
  exported->buffer = array.buffer;
  DLManagedTensorVersioned& managed = exported->managed;
  // The version this library implements (its own dlpack_abi.h), whatever header a caller has.
  managed.version = DLPackVersion{DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
  managed.manager_ctx = exported.get();
  managed.deleter = &delete_exported;
  managed.flags = 0;

  DLTensor& tensor = managed.dl_tensor;
  // The data pointer is the buffer's start (aligned, as the specification asks); the view's
  // offset goes into byte_offset.
  tensor.data = array.buffer ? array.buffer->data() : nullptr;
  tensor.byte_offset =
      tensor.data ? static_cast<std::uint64_t>(array.offset) * size_of(array.type) : 0;
  tensor.device = dlpack_device_of(array.buffer ? array.buffer->place() : Place(CpuPlace()));
  tensor.ndim = array.rank;
  tensor.dtype = dlpack_dtype_of(array.type);
  for (int d = 0; d < array.rank; ++d) {
    exported->shape[d] = array.dims[d];
    exported->strides[d] = array.strides[d];
  }
  tensor.shape = exported->shape;
  tensor.strides = exported->strides;
  return &exported.release()->managed;
}

}  // namespace detail

template <class X, detail::if_darray<X>>
DLManagedTensorVersioned* to_dlpack(const X& array) {
  return detail::export_dlpack(detail::erase(array));
}
template DLManagedTensorVersioned* to_dlpack(const DArray& array);

}  // namespace tensorx
