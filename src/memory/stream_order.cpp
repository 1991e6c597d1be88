// The general path of StreamOrder and BufferStreams: under the buffer's lock, the record decides
// which streams a use must follow, and each of them is made to precede the using stream with an
// event (StreamState::order_before). Builds with and without CUDA share it; without CUDA no GPU
// buffer, and so no record, ever exists.
#include "tensorx/memory/stream_order.h"
#include "place/stream_state.h"
#include "tensorx/memory/buffer_streams.h"

namespace tensorx {
namespace detail {

StreamHandle StreamOrder::stream() const {
  return stream_->handle();
}

void BufferStreams::start(const StreamRef& allocator) {
  const std::lock_guard<std::mutex> lock(mutex_);
  record_.emplace(allocator);
  sole_.store(allocator.get(), std::memory_order_release);
}

void BufferStreams::use(const StreamRef& stream, bool writes) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (!record_) return;
  const auto follow = [&](const StreamRef& earlier) { earlier->order_before(*stream); };
  if (writes) {
    record_->write(stream, follow);
  } else {
    record_->read(stream, follow);
  }
  sole_.store(record_->readers().empty() ? record_->writer().get() : nullptr,
              std::memory_order_release);
}

StreamRef BufferStreams::order_release(int device) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (!record_) return default_stream_state(device);
  const StreamRef& writer = record_->writer();
  // Freeing on a destroyed stream is an error; the default stream always exists.
  StreamRef free_on = writer->retired() ? default_stream_state(device) : writer;
  writer->order_before(*free_on);
  for (const StreamRef& reader : record_->readers()) reader->order_before(*free_on);
  return free_on;
}

}  // namespace detail
}  // namespace tensorx
