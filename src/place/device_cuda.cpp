// Device queries and the current device on top of the CUDA runtime. A machine without a driver or
// a GPU is an ordinary answer here (device_count() == 0 with a reason), never an error.
#include <string>

#include "place/device_check.h"
#include "tensorx/core/cuda_check.h"
#include "tensorx/place/device.h"

namespace tensorx {
namespace cuda {
namespace {

struct DeviceSurvey {
  int count = 0;
  std::string reason;  // why count is 0, or "" when it is not
};

// Asked once per process: the answer cannot change while the process runs, and device_count()
// sits on the path of every check.
const DeviceSurvey& survey() {
  static const DeviceSurvey result = [] {
    DeviceSurvey survey;
    const cudaError_t status = cudaGetDeviceCount(&survey.count);
    if (status != cudaSuccess) {
      // cudaErrorNoDevice or cudaErrorInsufficientDriver: clear it so that no later check sees it.
      static_cast<void>(cudaGetLastError());
      survey.count = 0;
      survey.reason = detail::message("no CUDA device is available (", cudaGetErrorName(status),
                                      ": ", cudaGetErrorString(status), ")");
    } else if (survey.count == 0) {
      survey.reason = "no CUDA device is available (the CUDA runtime found none)";
    }
    return survey;
  }();
  return result;
}

}  // namespace

bool compiled_with_cuda() {
  return true;
}

int device_count() {
  return survey().count;
}

const char* unavailable_reason() {
  return survey().reason.c_str();
}

int current_device() {
  detail::require_any_device("query the current CUDA device");
  int device = 0;
  TENSORX_CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

void set_device(int device) {
  check_device(device);
  TENSORX_CUDA_CHECK(cudaSetDevice(device));
}

DeviceGuard::DeviceGuard(int device) : previous_(0) {
  check_device(device);
  previous_ = current_device();
  if (previous_ != device) TENSORX_CUDA_CHECK(cudaSetDevice(device));
}

// Every GPU assignment holds a guard, nearly always for the device already current. cudaGetDevice
// reads the thread's state; cudaSetDevice goes through the driver's context bookkeeping even for
// the current device. So the destructor sets the previous device only when the current one
// differs from it, whether this guard changed it or code inside the scope did.
DeviceGuard::~DeviceGuard() {
  int current = previous_;
  const cudaError_t status = cudaGetDevice(&current);
  detail::cuda_ignore(status);
  if (status != cudaSuccess || current != previous_) detail::cuda_ignore(cudaSetDevice(previous_));
}

}  // namespace cuda
}  // namespace tensorx
