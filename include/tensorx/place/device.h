// CUDA device queries and the current device, implemented in the compiled layer so that plain C++
// translation units can use them. Where tensorx was built without CUDA, or no driver or GPU is
// present, device_count() is 0 and anything that needs a device throws DeviceError.
#pragma once

#include "tensorx/place/place.h"

namespace tensorx {
/// CUDA devices and their memory pools, usable from plain C++ translation units (the compiled
/// layer answers, with no device, where tensorx was built without CUDA).
namespace cuda {

/// True when the compiled layer was built with CUDA (TENSORX_WITH_CUDA).
bool compiled_with_cuda();

/// The number of usable CUDA devices; 0 (never a throw) when no driver or GPU is present.
int device_count();

/// Why no device is usable, as a sentence, or "" when one is: for skip messages and errors.
const char* unavailable_reason();

/// Throws DeviceError, with a sentence saying why, unless `device` names a usable GPU.
void check_device(int device);

/// The calling thread's current device; throws DeviceError where no device is usable.
int current_device();

/// Makes `device` current for the calling thread; throws DeviceError if it is not usable.
void set_device(int device);

/// Makes a device current for one scope, restoring the previous one when it ends.
class DeviceGuard {
 public:
  /// Makes `device` current; throws DeviceError unless it is usable (always, without CUDA).
  explicit DeviceGuard(int device);
  /// Makes the previous device current again.
  ~DeviceGuard();
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  // Restored by the CUDA build's destructor. Without CUDA the constructor always throws (there is
  // no device to make current), so nothing is ever restored and the field has no reader there.
  [[maybe_unused]] int previous_;
};

}  // namespace cuda

/// Throws DeviceError unless `place` is the CPU or a usable GPU.
inline void check_place(const Place& place) {
  if (is_gpu_place(place)) cuda::check_device(device_of(place));
}

}  // namespace tensorx
