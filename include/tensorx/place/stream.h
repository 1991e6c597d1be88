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
  /// Destroys the CUDA stream after the work queued on it (without blocking the host); arrays
  /// it used stay ordered after that work.
  ~Stream();
  ///@{
  /// Moves the stream; the moved-from Stream owns none (handle() is nullptr, and making it
  /// current or recording on it throws DeviceError).
  Stream(Stream&& other) noexcept;
  Stream& operator=(Stream&& other) noexcept;
  ///@}
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  /// The CUDA stream (nullptr for a moved-from Stream).
  StreamHandle handle() const { return handle_; }
  /// The device the stream belongs to.
  CudaPlace place() const { return place_; }
  /// Blocks until every operation queued on this stream has finished; throws CudaError when
  /// CUDA reports a failure (of that work, too).
  void synchronize() const;
  /// Makes work queued on this stream from now on wait for the work `event` captured (on the
  /// device, without blocking the host). An event never recorded is no wait; throws CudaError
  /// when CUDA fails.
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

/// Makes `stream` the calling thread's current stream on its device for one scope: tensorx's GPU
/// work on that device, from this thread, is queued on it. Guards nest.
class StreamGuard {
 public:
  /// Makes `stream` current. Throws DeviceError for a moved-from stream or a device that is not
  /// usable.
  explicit StreamGuard(const Stream& stream);
  /// Makes the stream that was current before current again.
  ~StreamGuard();
  StreamGuard(const StreamGuard&) = delete;
  StreamGuard& operator=(const StreamGuard&) = delete;

 private:
  int device_;
  detail::StreamRef previous_;
};

/// The calling thread's current stream on `device` (nullptr for the legacy default stream).
/// Throws DeviceError unless `device` is usable.
StreamHandle current_stream(int device);

namespace detail {
/// The calling thread's current stream on `device` as the bookkeeping knows it. Throws
/// DeviceError unless `device` is usable.
const StreamRef& current_stream_state(int device);
}  // namespace detail

/// Blocks until all work queued on `place` has finished (a no-op for the CPU). Throws DeviceError
/// for a GPU that is not usable, CudaError when CUDA reports a failure.
void synchronize(const Place& place);

/// Blocks until all work queued on every CUDA device has finished (a no-op without GPUs); throws
/// CudaError when CUDA reports a failure.
void synchronize();

}  // namespace tensorx
