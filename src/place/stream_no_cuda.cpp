// Streams in a build without CUDA: creating one, or asking for a device's current stream, throws
// DeviceError; synchronizing the CPU, or every device (there are none), does nothing.
#include "tensorx/place/stream.h"
#include "tensorx/place/device.h"

namespace tensorx {

Stream::Stream(CudaPlace place) : place_(place) {
  cuda::check_device(place.device);
}

// Without CUDA no Stream is ever constructed, so these have nothing to release or wait for.
Stream::~Stream() = default;
Stream::Stream(Stream&& other) noexcept = default;
Stream& Stream::operator=(Stream&& other) noexcept = default;
void Stream::synchronize() const {}

StreamGuard::StreamGuard(const Stream& stream)
    : device_(stream.place().device), previous_(current_stream(device_)) {}

StreamGuard::~StreamGuard() = default;

StreamHandle current_stream(int device) {
  cuda::check_device(device);
  return nullptr;
}

void synchronize(const Place& place) {
  check_place(place);
}

void synchronize() {}

}  // namespace tensorx
