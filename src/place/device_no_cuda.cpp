// Device queries in a build without CUDA: there are no devices, and every request for one throws
// DeviceError saying that tensorx was built without CUDA.
#include "place/device_check.h"
#include "tensorx/place/device.h"

namespace tensorx {
namespace cuda {

bool compiled_with_cuda() {
  return false;
}

int device_count() {
  return 0;
}

const char* unavailable_reason() {
  return "tensorx was built without CUDA (configure with -DTENSORX_WITH_CUDA=ON to use GPUs)";
}

int current_device() {
  detail::require_any_device("query the current CUDA device");
  return 0;
}

void set_device(int device) {
  check_device(device);
}

DeviceGuard::DeviceGuard(int device) : previous_(device) {
  check_device(device);
}

// Never reached: without CUDA no DeviceGuard is ever constructed.
DeviceGuard::~DeviceGuard() = default;

}  // namespace cuda
}  // namespace tensorx
