// StreamOrder: the one place where GPU work is ordered across streams. Every operation that
// queues GPU work (an element-wise kernel, a reduction, a transpose, a copy or fill, a BLAS call)
// makes one, names each buffer it reads and writes, and queues its work on stream(): that stream
// then waits, on the device, for the last write to everything it reads and for every use since
// of what it writes, whatever streams those ran on, and the buffers' records say it used them.
// Waits are events recorded only when the streams differ, so a program that keeps to one stream
// pays one atomic load per buffer and nothing else. The engines reach it through
// engine/gpu_stream.h (arrays of an expression); the compiled layer's copies and BLAS calls
// through the buffers their descriptors carry.
#pragma once

#include "tensorx/memory/allocation.h"
#include "tensorx/place/stream.h"

namespace tensorx {
namespace detail {

class StreamOrder {
 public:
  /// For work on the calling thread's current stream of `device` (throws DeviceError unless the
  /// device is usable).
  explicit StreamOrder(int device) : stream_(current_stream_state(device)) {}
  StreamOrder(const StreamOrder&) = delete;
  StreamOrder& operator=(const StreamOrder&) = delete;

  /// The work reads `buffer` (nullptr and host memory are ignored).
  void read(Allocation* buffer) { use(buffer, false); }
  /// The work writes `buffer` (nullptr and host memory are ignored).
  void write(Allocation* buffer) { use(buffer, true); }

  /// The stream to queue the work on.
  StreamHandle stream() const;

 private:
  void use(Allocation* buffer, bool writes) {
    if (buffer == nullptr || buffer->data() == nullptr || is_cpu_place(buffer->place())) return;
    BufferStreams& streams = buffer->streams();
    if (streams.used_only_on(stream_.get())) return;
    streams.use(stream_, writes);
  }

  // The thread's current stream: no guard can change it while one operation queues its work.
  const StreamRef& stream_;
};

}  // namespace detail
}  // namespace tensorx
