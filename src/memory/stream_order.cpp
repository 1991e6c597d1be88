// The general path of StreamOrder and BufferStreams: under the buffer's lock, the record decides
// which streams a use (or the free) must follow, and each of them is made to precede the using
// stream with an event (StreamState::order_before). Builds with and without CUDA share it;
// without CUDA no GPU buffer, and so no record, ever exists.
#include "tensorx/memory/stream_order.h"
#include "memory/gpu_memory.h"
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
    if (record_->readers().size() >= kReadersBeforeForgetting && !record_->has_reader(stream)) {
      record_->forget_finished_readers([](const StreamRef& reader) { return reader->finished(); });
    }
    record_->read(stream, follow);
  }
  sole_.store(record_->readers().empty() ? record_->writer().get() : nullptr,
              std::memory_order_release);
}

void BufferStreams::free_after_uses(void* data, std::size_t bytes, int device) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto free_on = [&](StreamHandle stream) { gpu_free(data, bytes, device, stream); };
  if (!record_) {
    free_on(default_stream_state(device)->handle());
    return;
  }
  // Usually on the last writer, which a single-stream program's free then costs no event. Each
  // wait queued on it, and the free, go on only while its Stream lives: another thread may be
  // destroying it.
  const StreamRef& writer = record_->writer();
  bool writer_lives = true;
  for (const StreamRef& reader : record_->readers()) {
    writer_lives = writer_lives && reader->order_before(*writer);
  }
  if (writer_lives && writer->queue_if_live(free_on)) return;
  // Retired: its final event completes after its work and after every wait queued on it before,
  // and the default stream, which never retires, waits for that and for every reader.
  const StreamRef& fallback = default_stream_state(device);
  writer->order_before(*fallback);
  for (const StreamRef& reader : record_->readers()) reader->order_before(*fallback);
  free_on(fallback->handle());
}

std::size_t BufferStreams::reader_count() {
  const std::lock_guard<std::mutex> lock(mutex_);
  return record_ ? record_->readers().size() : 0;
}

}  // namespace detail
}  // namespace tensorx
