// BufferStreams: the stream record (stream_record.h) of one GPU buffer, safe to share between
// threads, with the test that keeps single-stream programs free of any cost: while every use of
// the buffer was on one stream, a further use there reads one atomic pointer and does nothing
// else. Every other case takes the buffer's lock, waits (on the device) for what the record says,
// and updates it. Each Allocation holds one, starts it when it allocates or borrows GPU memory
// and frees its memory through it; uses go through StreamOrder (stream_order.h).
#pragma once

#include <atomic>
#include <cstddef>
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

  /// Returns `bytes` at `data` to the pool of `device` once every use of them on any stream is
  /// done: on the last writer's stream, or on the device's default stream where the writer's
  /// Stream was destroyed, before or (on another thread) while this runs.
  void free_after_uses(void* data, std::size_t bytes, int device);

  /// The streams recorded as reading the buffer since its last write (0 for host memory).
  std::size_t reader_count();

  /// Readers a new reader finds recorded before the record forgets those whose Stream was
  /// destroyed and whose work is done: the list stays short without a query at every read.
  static constexpr std::size_t kReadersBeforeForgetting = 8;

 private:
  std::atomic<const StreamState*> sole_{nullptr};  // the only stream that used it, or nullptr
  std::mutex mutex_;                               // guards record_
  std::optional<StreamRecord<StreamRef>> record_;
};

}  // namespace detail
}  // namespace tensorx
