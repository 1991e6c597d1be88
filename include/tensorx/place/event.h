// tx::Event: an owned CUDA event, for ordering work that tensorx cannot see (kernels a program
// launches itself) and for waiting on the host for part of a stream. tensorx's own operations
// order themselves across streams (memory/stream_order.h) and need no events from the user.
#pragma once

#include "tensorx/place/stream.h"

// The CUDA runtime's event type is `CUevent_st*` (cudaEvent_t), named here as stream.h names the
// stream type.
struct CUevent_st;

namespace tensorx {

/// A CUDA event without timing, created on the device of the first stream it is recorded on.
class Event {
 public:
  /// An event that captured no work yet: query() is true and waiting on it returns at once.
  Event() = default;
  /// Destroys the CUDA event (work it captured still runs).
  ~Event();
  ///@{
  /// Moves the event; the moved-from Event captured no work.
  Event(Event&& other) noexcept;
  Event& operator=(Event&& other) noexcept;
  ///@}
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  /// Captures the work queued on `stream` so far (replacing what was captured before). Throws
  /// DeviceError for a moved-from stream, CudaError when CUDA fails.
  void record(const Stream& stream);
  /// Blocks until the captured work has finished; throws CudaError when CUDA reports a failure.
  void synchronize() const;
  /// True when the captured work has finished; never blocks. Throws CudaError when CUDA reports a
  /// failure.
  bool query() const;

  /// The CUDA event (nullptr until the first record).
  CUevent_st* handle() const { return handle_; }
  /// The device the event belongs to (-1 until the first record).
  int device() const { return device_; }

 private:
  void release() noexcept;

  CUevent_st* handle_ = nullptr;
  int device_ = -1;
};

}  // namespace tensorx
