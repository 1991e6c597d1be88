// The GPU backend of the memory layer in a build without CUDA. Allocation and the strided copies
// check their places first, so these are reached only by a caller that did not; they throw the
// same DeviceError that check would have. The memory statistics name the device they cannot use.
#include "memory/gpu_memory.h"
#include "tensorx/memory/memory_stats.h"
#include "tensorx/place/device.h"

namespace tensorx {
namespace detail {
namespace {

[[noreturn]] void throw_unavailable(int device) {
  cuda::check_device(device);
  throw DeviceError(cuda::unavailable_reason());
}

}  // namespace

void* gpu_allocate(std::size_t, int device, StreamHandle) {
  throw_unavailable(device);
}

// Nothing is ever allocated without CUDA, so there is nothing to release.
void gpu_free(void*, std::size_t, int, StreamHandle) noexcept {}

void gpu_transfer(void*, const Place& dst_place, const void*, const Place& src_place, std::size_t,
                  StreamHandle) {
  throw_unavailable(device_of(is_gpu_place(dst_place) ? dst_place : src_place));
}

}  // namespace detail

namespace cuda {

MemoryStats memory_stats(int device) {
  detail::throw_unavailable(device);
}

void reset_peak_memory_stats(int device) {
  detail::throw_unavailable(device);
}

// No device, so no cache to empty.
void empty_cache() {}

void set_memory_cache_limit(int device, std::size_t) {
  detail::throw_unavailable(device);
}

std::size_t memory_cache_limit(int device) {
  detail::throw_unavailable(device);
}

}  // namespace cuda
}  // namespace tensorx
