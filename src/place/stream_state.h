// StreamState: what the compiled layer knows of one stream, shared (detail::StreamRef) by the
// Stream that owns the CUDA stream, the guards that make it current, and the stream records of
// the buffers it used (memory/stream_record.h). When the Stream is destroyed while records still
// name it, its state keeps an event that completes with the stream's last work, so that later
// work can still be ordered after it. Private to src/.
#pragma once

#include <mutex>

#include "tensorx/place/stream.h"

struct CUevent_st;

namespace tensorx {
namespace detail {

class StreamState {
 public:
  StreamState(StreamHandle handle, int device) : handle_(handle), device_(device) {}
  ~StreamState();
  StreamState(const StreamState&) = delete;
  StreamState& operator=(const StreamState&) = delete;

  StreamHandle handle() const { return handle_; }
  int device() const { return device_; }

  /// Called once by the owning Stream just before it destroys the CUDA stream: captures the work
  /// queued on it in the final event that later waits use instead.
  void retire() noexcept;

  /// True once retire() was called and the work queued before it has finished: no later work
  /// needs to wait for this stream any more.
  bool finished() const;

  /// Makes work queued on `waiter` from now on wait, on the device, for the work queued on this
  /// stream so far (after retire(): for its last work). Nothing to do when they are one stream.
  /// False, with nothing queued, when `waiter` was retired: the waiter is usually the calling
  /// thread's current stream, but a free orders its buffer's uses before the buffer's last writer,
  /// whose Stream another thread may be destroying.
  bool order_before(const StreamState& waiter);

  /// Calls `queue(handle())` while this stream cannot be retired, and returns true; returns false
  /// without calling it once the stream was retired (its CUDA stream is then gone).
  template <class Queue>
  bool queue_if_live(Queue&& queue) {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (retired_) return false;
    queue(handle_);
    return true;
  }

 private:
  StreamHandle handle_;
  int device_;
  mutable std::mutex
      mutex_;  // guards retired_ and final_event_ against a retire() on another thread
  bool retired_ = false;
  CUevent_st* final_event_ = nullptr;
};

/// The state of `device`'s legacy default stream: it never retires and lives as long as the
/// process.
const StreamRef& default_stream_state(int device);

}  // namespace detail
}  // namespace tensorx
