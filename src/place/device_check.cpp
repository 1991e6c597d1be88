// The checks that turn "no usable GPU" into a DeviceError with a sentence saying why. They rest
// only on device_count() and unavailable_reason(), so builds with and without CUDA share them.
#include "place/device_check.h"

#include "tensorx/core/error.h"
#include "tensorx/place/device.h"

namespace tensorx {

void detail::require_any_device(const char* action) {
  if (cuda::device_count() == 0) {
    throw DeviceError(detail::message("cannot ", action, ": ", cuda::unavailable_reason()));
  }
}

void cuda::check_device(int device) {
  const int count = device_count();
  if (count == 0) {
    throw DeviceError(
        detail::message("cannot use ", CudaPlace(device), ": ", unavailable_reason()));
  }
  if (device < 0 || device >= count) {
    throw DeviceError(detail::message(
        "cannot use ", CudaPlace(device), ": the device ordinal is out of range (", count,
        count == 1 ? " CUDA device is" : " CUDA devices are", " available)"));
  }
}

}  // namespace tensorx
