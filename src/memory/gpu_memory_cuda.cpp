// Device memory from CUDA's stream-ordered allocator: allocated on the device's current stream and
// released on the same stream, so that neither waits for the GPU.
#include <cstdint>
#include <mutex>

#include "memory/gpu_memory.h"
#include "tensorx/core/cuda_check.h"
#include "tensorx/place/device.h"

namespace tensorx {
namespace detail {
namespace {

// The default pool hands freed memory back to the driver at every synchronisation (its release
// threshold is 0), so a loop that makes temporaries and reads a result each step would pay for a
// driver allocation every time. Raising the threshold keeps freed blocks in the pool for the next
// allocation on the device, which is what the stream-ordered allocator is for; an application can
// still give them back with cudaMemPoolTrimTo. Done once per device, on its first allocation.
void keep_freed_blocks_in_pool(int device) {
  constexpr int kTrackedDevices = 64;
  static std::once_flag configured[kTrackedDevices];
  if (device < 0 || device >= kTrackedDevices) return;
  std::call_once(configured[device], [device] {
    cudaMemPool_t pool = nullptr;
    TENSORX_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
    std::uint64_t threshold = UINT64_MAX;
    TENSORX_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  });
}

}  // namespace

void* gpu_allocate(std::size_t bytes, int device, StreamHandle* stream) {
  cuda::DeviceGuard guard(device);
  keep_freed_blocks_in_pool(device);
  *stream = current_stream(device);
  void* data = nullptr;
  TENSORX_CUDA_CHECK(cudaMallocAsync(&data, bytes, *stream));
  return data;
}

void gpu_free(void* data, int device, StreamHandle stream) noexcept {
  // The guard matters for the legacy default stream (nullptr), which means the current device's.
  // It can only fail while the CUDA runtime shuts down at exit, when nothing is left to release.
  try {
    cuda::DeviceGuard guard(device);
    cuda_ignore(cudaFreeAsync(data, stream));
  } catch (const Error&) {
    static_cast<void>(cudaGetLastError());
  }
}

}  // namespace detail
}  // namespace tensorx
