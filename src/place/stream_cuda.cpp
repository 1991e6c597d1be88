// Streams on top of the CUDA runtime, and each thread's current stream per device: nullptr (the
// device's legacy default stream) until a StreamGuard replaces it.
#include <cstddef>
#include <utility>
#include <vector>

#include "tensorx/core/cuda_check.h"
#include "tensorx/place/device.h"
#include "tensorx/place/stream.h"

namespace tensorx {
namespace {

// Per thread, so that threads driving the same GPU do not see each other's guards.
std::vector<StreamHandle>& current_streams() {
  thread_local std::vector<StreamHandle> streams(static_cast<std::size_t>(cuda::device_count()),
                                                 nullptr);
  return streams;
}

// Releases a stream where nothing may throw; work still queued on it completes first.
void destroy_stream(StreamHandle handle) noexcept {
  if (handle != nullptr) detail::cuda_ignore(cudaStreamDestroy(handle));
}

}  // namespace

Stream::Stream(CudaPlace place) : place_(place) {
  cuda::DeviceGuard guard(place.device);
  TENSORX_CUDA_CHECK(cudaStreamCreateWithFlags(&handle_, cudaStreamNonBlocking));
}

Stream::~Stream() {
  destroy_stream(handle_);
}

Stream::Stream(Stream&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)), place_(other.place_) {}

Stream& Stream::operator=(Stream&& other) noexcept {
  if (this != &other) {
    destroy_stream(handle_);
    handle_ = std::exchange(other.handle_, nullptr);
    place_ = other.place_;
  }
  return *this;
}

void Stream::synchronize() const {
  // A moved-from Stream owns nothing, so there is nothing to wait for.
  if (handle_ != nullptr) TENSORX_CUDA_CHECK(cudaStreamSynchronize(handle_));
}

StreamGuard::StreamGuard(const Stream& stream)
    : device_(stream.place().device), previous_(current_stream(device_)) {
  current_streams()[static_cast<std::size_t>(device_)] = stream.handle();
}

StreamGuard::~StreamGuard() {
  current_streams()[static_cast<std::size_t>(device_)] = previous_;
}

StreamHandle current_stream(int device) {
  cuda::check_device(device);
  return current_streams()[static_cast<std::size_t>(device)];
}

void synchronize(const Place& place) {
  if (is_cpu_place(place)) return;
  cuda::DeviceGuard guard(device_of(place));
  TENSORX_CUDA_CHECK(cudaDeviceSynchronize());
}

void synchronize() {
  for (int device = 0; device < cuda::device_count(); ++device) synchronize(CudaPlace(device));
}

}  // namespace tensorx
