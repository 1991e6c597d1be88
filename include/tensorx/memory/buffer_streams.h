// BufferStreams: the stream record (stream_record.h) of one GPU buffer, safe to share between
// threads, with the test that keeps single-stream programs free of any cost: while every use of
// the buffer was on one stream, a further use there reads one atomic pointer and does nothing
// else. Every other case takes the buffer's lock, waits (on the device) for what the record says,
// and updates it. Each Allocation holds one, starts it when it allocates GPU memory and asks it
// where to free; uses go through StreamOrder (stream_order.h).
#pragma once

#include <atomic>
#include <mutex>
#include <optional>

#include "tensorx/memory/stream_record.h"
#include "tensorx/place/stream.h"

namespace tensorx {
namespace detail {

class BufferStreams {
 public:
  /// Starts the record of a buffer that `allocator` allocated (GPU buffers only).
  void start(const StreamRef& allocator);

  /// True when every use so far was on `stream`, so that another one there needs no wait.
  bool used_only_on(const StreamState* stream) const {
    return sole_.load(std::memory_order_acquire) == stream;
  }

  /// Makes `stream` wait for the uses that a read (or a write) there must follow, and records it.
  /// Nothing happens for a buffer whose record was never started (host memory).
  void use(const StreamRef& stream, bool writes);

  /// Makes one stream of `device` wait for every use of the buffer and returns it, for the free
  /// that must come after all of them: the last writer, or the device's default stream where the
  /// writer's Stream was destroyed.
  StreamRef order_release(int device);

 private:
  std::atomic<const StreamState*> sole_{nullptr};  // the only stream that used it, or nullptr
  std::mutex mutex_;                               // guards record_
  std::optional<StreamRecord<StreamRef>> record_;
};

}  // namespace detail
}  // namespace tensorx
