// Streams: every GPU operation of tensorx is queued on the calling thread's current stream of its
// device. A StreamGuard makes a Stream current for one scope; the default is the device's legacy
// default stream. Work on different streams is ordered by the buffers it uses (memory/
// stream_order.h): whatever stream an operation runs on, it sees every earlier write to its
// operands and never overwrites what earlier work on another stream still reads. Stream::wait and
// tx::Event order work that tensorx does not see (kernels a program launches itself).
#pragma once

#include <memory>

#include "tensorx/place/place.h"

// The CUDA runtime's stream type is `CUstream_st*` (cudaStream_t): naming it here keeps this
// header free of cuda_runtime.h while staying the very same type in CUDA translation units.
struct CUstream_st;

namespace tensorx {

/// A CUDA stream handle, identical to cudaStream_t; nullptr is the legacy default stream.
using StreamHandle = CUstream_st*;

class Event;

namespace detail {
/// What the compiled layer knows of one stream (src/place/stream_state.h): its handle and device,
/// and, once the Stream that owned it is destroyed, an event that completes with its last work.
/// Buffers that the stream used keep it alive through their stream records.
class StreamState;
using StreamRef = std::shared_ptr<StreamState>;
}  // namespace detail

/// An owned, non-blocking CUDA stream on one device. Destroying it while arrays it wrote or read
/// are alive is safe: work that later uses them waits for the stream's last work through an event.
class Stream {
 public:
  /// Creates a stream on `place`'s device; throws DeviceError where that device is not usable.
  explicit Stream(CudaPlace place = CudaPlace(0));
  ~Stream();
  Stream(Stream&& other) noexcept;
  Stream& operator=(Stream&& other) noexcept;
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  /// The CUDA stream (nullptr for a moved-from Stream).
  StreamHandle handle() const { return handle_; }
  CudaPlace place() const { return place_; }
  /// Blocks until every operation queued on this stream has finished.
  void synchronize() const;
  /// Makes work queued on this stream from now on wait for the work `event` captured (on the
  /// device, without blocking the host). An event never recorded is no wait.
  void wait(const Event& event) const;
  /// Makes work queued on this stream from now on wait for the work queued on `other` so far.
  void wait(const Stream& other) const;

  /// The stream's bookkeeping state, shared with the records of the buffers it used.
  const detail::StreamRef& state() const { return state_; }

 private:
  void release() noexcept;

  StreamHandle handle_ = nullptr;
  CudaPlace place_;
  detail::StreamRef state_;
};

/// Makes `stream` the calling thread's current stream on its device for one scope.
class StreamGuard {
 public:
  explicit StreamGuard(const Stream& stream);
  ~StreamGuard();
  StreamGuard(const StreamGuard&) = delete;
  StreamGuard& operator=(const StreamGuard&) = delete;

 private:
  int device_;
  detail::StreamRef previous_;
};

/// The calling thread's current stream on `device`.
StreamHandle current_stream(int device);

namespace detail {
/// The calling thread's current stream on `device` as the bookkeeping knows it. Throws
/// DeviceError unless `device` is usable.
const StreamRef& current_stream_state(int device);
}  // namespace detail

/// Blocks until all work queued on `place` has finished (a no-op for the CPU).
void synchronize(const Place& place);

/// Blocks until all work queued on every CUDA device has finished (a no-op without GPUs).
void synchronize();

}  // namespace tensorx
