// tx::Event on top of the CUDA runtime: created without timing on the device of the first stream
// it is recorded on (cudaEventRecord needs the event and the stream on one device), and created
// again when a later record names a stream of another device.
#include <utility>

#include "tensorx/core/cuda_check.h"
#include "tensorx/place/device.h"
#include "tensorx/place/event.h"

namespace tensorx {

Event::~Event() {
  release();
}

void Event::release() noexcept {
  if (handle_ != nullptr) detail::cuda_ignore(cudaEventDestroy(handle_));
  handle_ = nullptr;
  device_ = -1;
}

Event::Event(Event&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)), device_(std::exchange(other.device_, -1)) {}

Event& Event::operator=(Event&& other) noexcept {
  if (this != &other) {
    release();
    handle_ = std::exchange(other.handle_, nullptr);
    device_ = std::exchange(other.device_, -1);
  }
  return *this;
}

void Event::record(const Stream& stream) {
  if (stream.handle() == nullptr) {
    throw DeviceError("cannot record an event on a moved-from tx::Stream: it owns no CUDA stream");
  }
  const int device = stream.place().device;
  cuda::DeviceGuard guard(device);
  if (device_ != device) {
    release();
    TENSORX_CUDA_CHECK(cudaEventCreateWithFlags(&handle_, cudaEventDisableTiming));
    device_ = device;
  }
  TENSORX_CUDA_CHECK(cudaEventRecord(handle_, stream.handle()));
}

void Event::synchronize() const {
  if (handle_ != nullptr) TENSORX_CUDA_CHECK(cudaEventSynchronize(handle_));
}

bool Event::query() const {
  if (handle_ == nullptr) return true;
  const cudaError_t status = cudaEventQuery(handle_);
  if (status == cudaErrorNotReady) {
    static_cast<void>(cudaGetLastError());  // not a failure: a later launch check must not see it
    return false;
  }
  TENSORX_CUDA_CHECK(status);
  return true;
}

}  // namespace tensorx
