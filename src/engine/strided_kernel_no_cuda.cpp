// The strided GPU copies and fills in a build without CUDA. copy_strided and fill_strided check
// their places first, so these are reached only by a caller that did not; they throw the same
// DeviceError that check would have.
#include "engine/strided_kernel.h"
#include "tensorx/place/device.h"

namespace tensorx {
namespace detail {

void gpu_copy(const StridedLayout<2>&, void*, const void*, std::size_t, int device, StreamHandle) {
  cuda::check_device(device);
  throw DeviceError(cuda::unavailable_reason());
}

void gpu_fill(const StridedLayout<1>&, void*, const void*, std::size_t, int device, StreamHandle) {
  cuda::check_device(device);
  throw DeviceError(cuda::unavailable_reason());
}

}  // namespace detail
}  // namespace tensorx
