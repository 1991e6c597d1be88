// Allocation: RAII ownership of raw bytes on a Place. CPU memory is 64-byte aligned (a cache line
// and the widest SIMD register); GPU memory comes from the stream-ordered allocator
// (cudaMallocAsync on the current stream) and is released on the stream it was allocated on; the
// device's default pool keeps freed blocks for reuse (its release threshold is raised on first
// use) rather than returning them to the driver at every synchronisation.
#pragma once

#include <cstddef>
#include <functional>

#include "tensorx/place/place.h"
#include "tensorx/place/stream.h"

namespace tensorx {

/// Alignment of every CPU allocation, in bytes.
constexpr std::size_t kCpuAlignment = 64;

/// Bytes on a place, freed when the last owner lets go (Arrays share it through a shared_ptr).
class Allocation {
 public:
  /// Allocates `bytes` (0 is allowed and allocates nothing) on `place`. Throws DeviceError for an
  /// unusable GPU, CudaError when the device is out of memory, OutOfMemoryError on the host.
  Allocation(std::size_t bytes, const Place& place);
  /// Borrows `bytes` at `data` on `place`, memory that tensorx did not allocate. When this
  /// Allocation dies, `release` (which must not throw; empty when there is no one to tell) is
  /// called exactly once instead of a free; for a GPU place, after the device has finished all
  /// queued work, since the owner may reuse the memory at once. Throws DeviceError for an unusable
  /// GPU, and then never calls `release`.
  Allocation(void* data, std::size_t bytes, const Place& place, std::function<void()> release);
  ~Allocation();
  Allocation(const Allocation&) = delete;
  Allocation& operator=(const Allocation&) = delete;

  void* data() const { return data_; }
  std::size_t size() const { return size_; }
  const Place& place() const { return place_; }

 private:
  void* data_ = nullptr;
  std::size_t size_ = 0;
  Place place_;
  StreamHandle stream_ = nullptr;  // the stream a GPU block was allocated on and is freed on
  std::function<void()> release_;  // set for borrowed memory: gives it back instead of a free
};

}  // namespace tensorx
