// StreamRecord: which streams used a buffer, and the rule that orders the next use after them.
// GPU work behaves as if issued in program order whatever streams it runs on: a read must follow
// the last write, a write must follow the last write and every read since it. The record keeps
// exactly what those rules need, the stream that last wrote the buffer and the streams that read
// it since, and says which of them a new use on some stream must wait for. It knows nothing of
// CUDA (a Stream is any value with ==), so that its logic is tested on any machine; the compiled
// layer turns its answers into event waits (memory/stream_order.h).
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

namespace tensorx {
namespace detail {

template <class Stream>
class StreamRecord {
 public:
  /// A buffer that `allocator` just allocated: memory from a stream-ordered allocator is usable in
  /// that stream's order, so the allocation counts as the buffer's first write.
  explicit StreamRecord(Stream allocator) : writer_(std::move(allocator)) {}

  /// Work on `stream` reads the buffer: calls wait(s) for each stream s whose work it must follow
  /// (the last writer, unless that is `stream` or `stream` already read since the write).
  template <class Wait>
  void read(const Stream& stream, Wait&& wait) {
    if (writer_ == stream || has_reader(stream)) return;
    wait(static_cast<const Stream&>(writer_));
    readers_.push_back(stream);
  }

  /// Work on `stream` writes the buffer: calls wait(s) for the last writer and every reader since,
  /// except `stream` itself and streams it already follows; `stream` becomes the only user.
  template <class Wait>
  void write(const Stream& stream, Wait&& wait) {
    // A reader already waited for the last write when it read.
    if (!(writer_ == stream) && !has_reader(stream)) wait(static_cast<const Stream&>(writer_));
    for (const Stream& reader : readers_) {
      if (!(reader == stream)) wait(reader);
    }
    writer_ = stream;
    readers_.clear();
  }

  /// Forgets the readers for which `finished(reader)` is true: work known to be complete needs no
  /// wait, and a buffer that many short-lived streams read (weights that a stream per request
  /// reads and nothing writes) would otherwise keep every one of them.
  template <class Finished>
  void forget_finished_readers(Finished&& finished) {
    readers_.erase(std::remove_if(readers_.begin(), readers_.end(),
                                  [&](const Stream& reader) { return finished(reader); }),
                   readers_.end());
  }

  /// True when `stream` read the buffer since the last write (and so already follows it).
  bool has_reader(const Stream& stream) const {
    return std::find(readers_.begin(), readers_.end(), stream) != readers_.end();
  }

  /// True when every use so far was on `stream`: any further use there needs no wait.
  bool used_only_on(const Stream& stream) const { return readers_.empty() && writer_ == stream; }

  /// The stream that last wrote the buffer (or allocated it, if nothing wrote it yet).
  const Stream& writer() const { return writer_; }
  /// The streams that read the buffer since the last write, in the order they first did.
  const std::vector<Stream>& readers() const { return readers_; }

 private:
  Stream writer_;
  std::vector<Stream> readers_;
};

}  // namespace detail
}  // namespace tensorx
