// Streams and events in a build without CUDA: creating a stream, or asking for a device's current
// stream, throws DeviceError; synchronizing the CPU, or every device (there are none), does
// nothing. An Event can exist but never captures work, since no Stream can be made to record on.
#include "place/stream_state.h"
#include "tensorx/place/device.h"
#include "tensorx/place/event.h"
#include "tensorx/place/stream.h"

namespace tensorx {
namespace detail {

// Without CUDA no StreamState is ever made: there is no device to make one for.
StreamState::~StreamState() = default;
void StreamState::retire() noexcept {}
bool StreamState::finished() const {
  return false;
}
bool StreamState::order_before(const StreamState&) {
  return true;
}

const StreamRef& default_stream_state(int device) {
  cuda::check_device(device);
  throw DeviceError(cuda::unavailable_reason());
}

const StreamRef& current_stream_state(int device) {
  return default_stream_state(device);
}

}  // namespace detail

Stream::Stream(CudaPlace place) : place_(place) {
  cuda::check_device(place.device);
}

// Without CUDA no Stream is ever constructed, so these have nothing to release or wait for.
Stream::~Stream() = default;
Stream::Stream(Stream&& other) noexcept = default;
Stream& Stream::operator=(Stream&& other) noexcept = default;
void Stream::release() noexcept {}
void Stream::synchronize() const {}
void Stream::wait(const Event&) const {}
void Stream::wait(const Stream&) const {}

StreamGuard::StreamGuard(const Stream& stream)
    : device_(stream.place().device), previous_(detail::current_stream_state(device_)) {}

StreamGuard::~StreamGuard() = default;

StreamHandle current_stream(int device) {
  return detail::current_stream_state(device)->handle();
}

void synchronize(const Place& place) {
  check_place(place);
}

void synchronize() {}

Event::~Event() = default;
Event::Event(Event&& other) noexcept = default;
Event& Event::operator=(Event&& other) noexcept = default;
void Event::release() noexcept {}
void Event::record(const Stream& stream) {
  cuda::check_device(stream.place().device);
}
void Event::synchronize() const {}
bool Event::query() const {
  return true;
}

}  // namespace tensorx
