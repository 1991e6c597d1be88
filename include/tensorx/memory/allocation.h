// Allocation: RAII ownership of raw bytes on a Place. CPU memory is 64-byte aligned (a cache line
// and the widest SIMD register); GPU memory comes from tensorx's stream-ordered pool of the device
// (memory_stats.h), allocated on the current stream. Each GPU buffer records the streams that use
// it (buffer_streams.h), so that work on any stream is ordered after the uses it conflicts with,
// and its release after all of them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

#include "tensorx/core/config.h"
#include "tensorx/memory/buffer_streams.h"
#include "tensorx/place/place.h"

namespace tensorx {

/// Alignment of every CPU allocation, in bytes.
constexpr std::size_t kCpuAlignment = 64;

/// Bytes on a place, freed when the last owner lets go (Arrays share it through a shared_ptr).
class Allocation {
 public:
  /// Allocates `bytes` (0 is allowed and allocates nothing) on `place`. Throws DeviceError for an
  /// unusable GPU, OutOfMemoryError when the place has not that much memory (on a GPU, after
  /// handing tensorx's cached memory back to the driver and trying once more).
  Allocation(std::size_t bytes, const Place& place);
  /// Borrows `bytes` at `data` on `place`, memory that tensorx did not allocate. When this
  /// Allocation dies, `release` (which must not throw; empty when there is no one to tell) is
  /// called exactly once instead of a free; for a GPU place, after every device has finished its
  /// queued work (a copy to another GPU reads the memory there), since the owner may reuse the
  /// memory at once. Borrowed GPU memory is recorded as first used on the current stream, where
  /// the importer ordered the producer's work. Throws DeviceError for an unusable GPU, and then
  /// never calls `release`.
  Allocation(void* data, std::size_t bytes, const Place& place, std::function<void()> release);
  /// Releases the bytes; on a GPU, stream-ordered after every use any stream made of them.
  ~Allocation();
  Allocation(const Allocation&) = delete;
  Allocation& operator=(const Allocation&) = delete;

  /// The first byte (nullptr for 0 bytes); device memory for a GPU place.
  void* data() const { return data_; }
  /// The number of bytes.
  std::size_t size() const { return size_; }
  /// Where the bytes are.
  const Place& place() const { return place_; }
  /// The record of the streams that used the bytes (GPU memory only).
  detail::BufferStreams& streams() const { return streams_; }

 private:
  void* data_ = nullptr;
  std::size_t size_ = 0;
  Place place_;
  mutable detail::BufferStreams streams_;
  std::function<void()> release_;  // set for borrowed memory: gives it back instead of a free
};

namespace detail {

/// A new allocation for `count` elements of `element_size` bytes on `place`, for an array of
/// extent `dims` (rank `rank`, named in the error): an Array's allocation and its error message,
/// compiled once here instead of once per element type and rank. Throws OutOfMemoryError for more
/// bytes than memory can address or the place can serve, DeviceError for an unusable GPU.
std::shared_ptr<Allocation> allocate_elements(std::uint64_t count, std::size_t element_size,
                                              const Place& place, const index_t* dims, int rank);

}  // namespace detail
}  // namespace tensorx
