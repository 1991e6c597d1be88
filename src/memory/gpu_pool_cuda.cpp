// tensorx's stream-ordered pool of each device (memory_stats.h): created on the device's first
// allocation with a release threshold of an eighth of the device's memory, so that a loop which
// makes temporaries and synchronises every step reuses cached blocks instead of paying for a
// driver allocation each time, while memory beyond the limit goes back to the driver, where other
// libraries in the process can have it. A pool of its own, rather than the device's default
// pool, keeps these settings and the counts of memory_stats to tensorx's own memory.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "memory/gpu_memory.h"
#include "tensorx/core/cuda_check.h"
#include "tensorx/memory/memory_stats.h"
#include "tensorx/place/device.h"

namespace tensorx {
namespace detail {
namespace {

struct DevicePool {
  std::once_flag created;
  std::atomic<bool> exists{false};
  cudaMemPool_t pool = nullptr;
  std::atomic<std::size_t> allocated{0};
  std::atomic<std::size_t> peak{0};
};

struct MemoryInfo {
  std::size_t free = 0;
  std::size_t total = 0;
};

// The device must be current.
MemoryInfo memory_info() {
  MemoryInfo info;
  TENSORX_CUDA_CHECK(cudaMemGetInfo(&info.free, &info.total));
  return info;
}

cudaMemPool_t create_pool(int device) {
  cudaMemPoolProps properties{};
  properties.allocType = cudaMemAllocationTypePinned;
  properties.handleTypes = cudaMemHandleTypeNone;
  properties.location.type = cudaMemLocationTypeDevice;
  properties.location.id = device;
  cudaMemPool_t pool = nullptr;
  TENSORX_CUDA_CHECK(cudaMemPoolCreate(&pool, &properties));
  std::uint64_t threshold = memory_info().total / cuda::kDefaultCacheFraction;
  TENSORX_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  return pool;
}

// One entry per device. Never destroyed: blocks freed during static destruction at exit still go
// back to their pools.
std::vector<DevicePool>& pools() {
  static auto* all = new std::vector<DevicePool>(static_cast<std::size_t>(cuda::device_count()));
  return *all;
}

// The pool of `device` (usable, and current), created on first use.
DevicePool& device_pool(int device) {
  DevicePool& entry = pools()[static_cast<std::size_t>(device)];
  std::call_once(entry.created, [&] {
    entry.pool = create_pool(device);
    entry.exists.store(true, std::memory_order_release);
  });
  return entry;
}

std::uint64_t pool_attribute(cudaMemPool_t pool, cudaMemPoolAttr attribute) {
  std::uint64_t value = 0;
  TENSORX_CUDA_CHECK(cudaMemPoolGetAttribute(pool, attribute, &value));
  return value;
}

// Every cached block of `device`'s pool back to the driver. Blocks freed on a stream count as in
// use until the host has seen the free complete, hence the synchronisation first.
void release_cache(int device, const DevicePool& entry) {
  cuda::DeviceGuard guard(device);
  TENSORX_CUDA_CHECK(cudaDeviceSynchronize());
  TENSORX_CUDA_CHECK(cudaMemPoolTrimTo(entry.pool, 0));
}

void count_allocation(DevicePool& entry, std::size_t bytes) {
  const std::size_t now = entry.allocated.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  std::size_t peak = entry.peak.load(std::memory_order_relaxed);
  while (peak < now && !entry.peak.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
}

[[noreturn]] void throw_out_of_memory(std::size_t bytes, int device, const DevicePool& entry) {
  const MemoryInfo info = memory_info();
  throw OutOfMemoryError(message(
      "cannot allocate ", bytes, " bytes on ", CudaPlace(device), ": the device has ", info.free,
      " bytes free of ", info.total, " (tensorx holds ",
      entry.allocated.load(std::memory_order_relaxed),
      " bytes in live arrays; its cache was handed back to the driver before the last try)"));
}

}  // namespace

void* gpu_allocate(std::size_t bytes, int device, StreamHandle stream) {
  cuda::DeviceGuard guard(device);
  DevicePool& entry = device_pool(device);
  void* data = nullptr;
  cudaError_t status = cudaMallocFromPoolAsync(&data, bytes, entry.pool, stream);
  if (status == cudaErrorMemoryAllocation) {
    static_cast<void>(cudaGetLastError());
    release_cache(device, entry);
    status = cudaMallocFromPoolAsync(&data, bytes, entry.pool, stream);
  }
  if (status != cudaSuccess) {
    static_cast<void>(cudaGetLastError());
    // A request beyond the device's memory may be refused as an invalid size rather than as
    // missing memory; either way no memory can serve it.
    if (status == cudaErrorMemoryAllocation || bytes > memory_info().total) {
      throw_out_of_memory(bytes, device, entry);
    }
    TENSORX_CUDA_CHECK(status);
  }
  count_allocation(entry, bytes);
  return data;
}

void gpu_free(void* data, std::size_t bytes, int device, StreamHandle stream) noexcept {
  // The guard matters for the legacy default stream (nullptr), which means the current device's.
  // It can only fail while the CUDA runtime shuts down at exit, when nothing is left to release.
  try {
    cuda::DeviceGuard guard(device);
    cuda_ignore(cudaFreeAsync(data, stream));
    device_pool(device).allocated.fetch_sub(bytes, std::memory_order_relaxed);
  } catch (const Error&) {
    static_cast<void>(cudaGetLastError());
  }
}

}  // namespace detail

namespace cuda {

MemoryStats memory_stats(int device) {
  DeviceGuard guard(device);
  const detail::DevicePool& entry = detail::device_pool(device);
  MemoryStats stats;
  stats.allocated_bytes = entry.allocated.load(std::memory_order_relaxed);
  stats.peak_allocated_bytes = entry.peak.load(std::memory_order_relaxed);
  stats.reserved_bytes = static_cast<std::size_t>(
      detail::pool_attribute(entry.pool, cudaMemPoolAttrReservedMemCurrent));
  return stats;
}

void reset_peak_memory_stats(int device) {
  DeviceGuard guard(device);
  detail::DevicePool& entry = detail::device_pool(device);
  entry.peak.store(entry.allocated.load(std::memory_order_relaxed), std::memory_order_relaxed);
}

void empty_cache() {
  for (int device = 0; device < device_count(); ++device) {
    const detail::DevicePool& entry = detail::pools()[static_cast<std::size_t>(device)];
    if (entry.exists.load(std::memory_order_acquire)) detail::release_cache(device, entry);
  }
}

void set_memory_cache_limit(int device, std::size_t bytes) {
  DeviceGuard guard(device);
  std::uint64_t threshold = bytes;
  TENSORX_CUDA_CHECK(cudaMemPoolSetAttribute(detail::device_pool(device).pool,
                                             cudaMemPoolAttrReleaseThreshold, &threshold));
}

std::size_t memory_cache_limit(int device) {
  DeviceGuard guard(device);
  return static_cast<std::size_t>(
      detail::pool_attribute(detail::device_pool(device).pool, cudaMemPoolAttrReleaseThreshold));
}

}  // namespace cuda
}  // namespace tensorx
