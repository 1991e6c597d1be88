// Allocation: 64-byte aligned host memory, or stream-ordered device memory from the GPU backend,
// allocated on the current stream (the buffer's first use) and freed after its last use on any
// stream, or borrowed memory that goes back to its owner through a release callback.
#include "tensorx/memory/allocation.h"

#include <cstdint>
#include <cstdlib>
#include <limits>
#include <new>
#include <sstream>
#include <utility>

#include "memory/gpu_memory.h"
#include "place/stream_state.h"
#include "tensorx/core/error.h"
#include "tensorx/place/device.h"
#include "tensorx/place/stream.h"

namespace tensorx {
namespace {

void* allocate_on_host(std::size_t bytes) {
  // std::aligned_alloc wants a multiple of the alignment; rounding up must not wrap around.
  if (bytes > std::numeric_limits<std::size_t>::max() - (kCpuAlignment - 1)) {
    throw OutOfMemoryError(detail::message("cannot allocate ", bytes, " bytes on the CPU"));
  }
  const std::size_t rounded = (bytes + kCpuAlignment - 1) / kCpuAlignment * kCpuAlignment;
  void* data = std::aligned_alloc(kCpuAlignment, rounded);
  if (data == nullptr) {
    throw OutOfMemoryError(
        detail::message("cannot allocate ", bytes, " bytes on the CPU: the system has none left"));
  }
  return data;
}

// Waits for every queued operation of every device: a copy to another GPU reads the memory on
// that GPU's stream. A failure (only while the CUDA runtime shuts down at exit, when nothing runs
// any more) is ignored, since a destructor cannot report it.
void finish_queued_work() noexcept {
  try {
    synchronize();
  } catch (const Error&) {
  }
}

}  // namespace

Allocation::Allocation(std::size_t bytes, const Place& place) : size_(bytes), place_(place) {
  // The device is checked even for 0 bytes: an empty array on an unusable GPU is still an error.
  check_place(place);
  if (bytes == 0) return;
  if (is_cpu_place(place)) {
    data_ = allocate_on_host(bytes);
  } else {
    const int device = device_of(place);
    const detail::StreamRef& stream = detail::current_stream_state(device);
    data_ = detail::gpu_allocate(bytes, device, stream->handle());
    streams_.start(stream);
  }
}

Allocation::Allocation(void* data, std::size_t bytes, const Place& place,
                       std::function<void()> release)
    : data_(data),
      size_(bytes),
      place_(place),
      // Never empty, so that the destructor cannot mistake borrowed memory for its own and free it.
      release_(release ? std::move(release) : std::function<void()>([] {})) {
  check_place(place);
  // The importer ordered the producer's work before the current stream: that is the borrowed
  // buffer's first use, which work on any other stream must follow, as it follows an allocation.
  if (is_gpu_place(place) && data != nullptr) {
    streams_.start(detail::current_stream_state(device_of(place)));
  }
}

Allocation::~Allocation() {
  if (release_) {
    // The owner may reuse borrowed memory as soon as it hears back: no GPU work may still use it.
    if (is_gpu_place(place_)) finish_queued_work();
    release_();
    return;
  }
  if (data_ == nullptr) return;
  if (is_cpu_place(place_)) {
    std::free(data_);
    return;
  }
  try {
    streams_.free_after_uses(data_, size_, boost::get<CudaPlace>(place_).device);
  } catch (const Error&) {
    // Ordering the free can only fail while the CUDA runtime shuts down at exit, when the driver
    // reclaims the memory anyway.
  }
}

namespace detail {

std::shared_ptr<Allocation> allocate_elements(std::uint64_t count, std::size_t element_size,
                                              const Place& place, const index_t* dims, int rank) {
  // Byte counts past PTRDIFF_MAX cannot be addressed, let alone allocated.
  if (count > static_cast<std::uint64_t>(PTRDIFF_MAX) / element_size) {
    std::ostringstream shape;
    shape << '(';
    for (int i = 0; i < rank; ++i) shape << (i ? ", " : "") << dims[i];
    shape << ')';
    throw OutOfMemoryError(message("cannot allocate ", count, " elements of ", element_size,
                                   " bytes (shape ", shape.str(), ") on ", place,
                                   ": more bytes than memory can address"));
  }
  return std::make_shared<Allocation>(static_cast<std::size_t>(count) * element_size, place);
}

}  // namespace detail
}  // namespace tensorx
