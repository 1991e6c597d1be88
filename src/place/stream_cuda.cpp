// Streams on top of the CUDA runtime, each thread's current stream per device (the device's
// legacy default stream until a StreamGuard replaces it), and the device-side waits between
// streams that the stream records of buffers ask for.
#include <cstddef>
#include <utility>
#include <vector>

#include "place/stream_state.h"
#include "tensorx/core/cuda_check.h"
#include "tensorx/place/device.h"
#include "tensorx/place/event.h"
#include "tensorx/place/stream.h"

namespace tensorx {
namespace detail {
namespace {

cudaEvent_t create_event(int device) {
  cuda::DeviceGuard guard(device);
  cudaEvent_t event = nullptr;
  TENSORX_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
  return event;
}

// Cross-stream waits record an event and wait on it at once; a wait uses the state the event
// captured when the wait was queued, so the event is free again right after. Each thread keeps one
// per device, so that a wait costs a record and a wait, never an event creation. Once the thread's
// objects are destroyed (a buffer freed during exit still orders its free), scratch_event returns
// nullptr and the wait makes an event of its own.
thread_local bool scratch_events_gone = false;  // trivially destructible: readable until the end

struct ScratchEvents {
  std::vector<cudaEvent_t> by_device =
      std::vector<cudaEvent_t>(static_cast<std::size_t>(cuda::device_count()), nullptr);
  ~ScratchEvents() {
    for (cudaEvent_t event : by_device) {
      if (event != nullptr) cuda_ignore(cudaEventDestroy(event));
    }
    scratch_events_gone = true;
  }
};

cudaEvent_t scratch_event(int device) {
  if (scratch_events_gone) return nullptr;
  thread_local ScratchEvents events;
  cudaEvent_t& event = events.by_device[static_cast<std::size_t>(device)];
  if (event == nullptr) event = create_event(device);
  return event;
}

// Per thread, so that threads driving the same GPU do not see each other's guards.
std::vector<StreamRef>& current_streams() {
  thread_local std::vector<StreamRef> streams = [] {
    std::vector<StreamRef> defaults;
    for (int device = 0; device < cuda::device_count(); ++device) {
      defaults.push_back(default_stream_state(device));
    }
    return defaults;
  }();
  return streams;
}

}  // namespace

StreamState::~StreamState() {
  if (final_event_ != nullptr) cuda_ignore(cudaEventDestroy(final_event_));
}

void StreamState::retire() noexcept {
  const std::lock_guard<std::mutex> lock(mutex_);
  try {
    final_event_ = create_event(device_);
    cuda::DeviceGuard guard(device_);
    TENSORX_CUDA_CHECK(cudaEventRecord(final_event_, handle_));
  } catch (const Error&) {
    // Only at process exit (the runtime already gone) can this fail; nothing will wait then.
    static_cast<void>(cudaGetLastError());
  }
  retired_ = true;
}

bool StreamState::finished() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (!retired_) return false;
  if (final_event_ == nullptr) return true;  // retired at exit: nothing will wait any more
  const cudaError_t status = cudaEventQuery(final_event_);
  if (status == cudaSuccess) return true;
  // cudaErrorNotReady, or an error of the device's that the next checked call reports.
  static_cast<void>(cudaGetLastError());
  return false;
}

bool StreamState::order_before(const StreamState& waiter) {
  if (&waiter == this) return true;
  cudaEvent_t event = nullptr;
  cudaEvent_t owned = nullptr;  // an event of this wait's own, destroyed once it is queued
  {
    // Held while recording, so that the owning Stream cannot destroy the CUDA stream meanwhile.
    const std::lock_guard<std::mutex> lock(mutex_);
    if (retired_) {
      event = final_event_;
    } else {
      event = scratch_event(device_);
      if (event == nullptr) event = owned = create_event(device_);
      cuda::DeviceGuard guard(device_);
      TENSORX_CUDA_CHECK(cudaEventRecord(event, handle_));
    }
  }
  if (event == nullptr) return true;
  // The waiter's lock in turn (never both at once: two threads ordering two streams each before
  // the other cannot deadlock), so that its CUDA stream cannot be destroyed during the wait.
  const std::lock_guard<std::mutex> lock(waiter.mutex_);
  if (waiter.retired_) {
    if (owned != nullptr) cuda_ignore(cudaEventDestroy(owned));
    return false;
  }
  // The legacy default stream (nullptr) means the current device's: the waiter's must be current.
  cuda::DeviceGuard guard(waiter.device());
  const cudaError_t waited = cudaStreamWaitEvent(waiter.handle(), event, 0);
  if (owned != nullptr) cuda_ignore(cudaEventDestroy(owned));
  TENSORX_CUDA_CHECK(waited);
  return true;
}

const StreamRef& default_stream_state(int device) {
  // Never destroyed: buffers freed during static destruction still name these states.
  static const auto* states = [] {
    auto* all = new std::vector<StreamRef>();
    for (int d = 0; d < cuda::device_count(); ++d) {
      all->push_back(std::make_shared<StreamState>(nullptr, d));
    }
    return all;
  }();
  return (*states)[static_cast<std::size_t>(device)];
}

const StreamRef& current_stream_state(int device) {
  cuda::check_device(device);
  return current_streams()[static_cast<std::size_t>(device)];
}

}  // namespace detail

Stream::Stream(CudaPlace place) : place_(place) {
  cuda::DeviceGuard guard(place.device);
  TENSORX_CUDA_CHECK(cudaStreamCreateWithFlags(&handle_, cudaStreamNonBlocking));
  state_ = std::make_shared<detail::StreamState>(handle_, place.device);
}

Stream::~Stream() {
  release();
}

// Releases a stream where nothing may throw; work still queued on it completes first, and the
// buffers it used wait for that work through the state's final event.
void Stream::release() noexcept {
  if (handle_ == nullptr) return;
  state_->retire();
  detail::cuda_ignore(cudaStreamDestroy(handle_));
  handle_ = nullptr;
  state_.reset();
}

Stream::Stream(Stream&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)),
      place_(other.place_),
      state_(std::move(other.state_)) {}

Stream& Stream::operator=(Stream&& other) noexcept {
  if (this != &other) {
    release();
    handle_ = std::exchange(other.handle_, nullptr);
    place_ = other.place_;
    state_ = std::move(other.state_);
  }
  return *this;
}

void Stream::synchronize() const {
  // A moved-from Stream owns nothing, so there is nothing to wait for.
  if (handle_ != nullptr) TENSORX_CUDA_CHECK(cudaStreamSynchronize(handle_));
}

void Stream::wait(const Event& event) const {
  if (handle_ == nullptr || event.handle() == nullptr) return;
  cuda::DeviceGuard guard(place_.device);
  TENSORX_CUDA_CHECK(cudaStreamWaitEvent(handle_, event.handle(), 0));
}

void Stream::wait(const Stream& other) const {
  if (handle_ == nullptr || other.handle_ == nullptr) return;
  other.state_->order_before(*state_);
}

StreamGuard::StreamGuard(const Stream& stream)
    : device_(stream.place().device), previous_(detail::current_stream_state(device_)) {
  if (stream.handle() == nullptr) {
    throw DeviceError("cannot make a moved-from tx::Stream current: it owns no CUDA stream");
  }
  detail::current_streams()[static_cast<std::size_t>(device_)] = stream.state();
}

StreamGuard::~StreamGuard() {
  detail::current_streams()[static_cast<std::size_t>(device_)] = std::move(previous_);
}

StreamHandle current_stream(int device) {
  return detail::current_stream_state(device)->handle();
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
