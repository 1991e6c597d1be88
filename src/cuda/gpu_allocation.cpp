// Device memory from CUDA's stream-ordered allocator: allocated on the device's current stream and
// released on the same stream, so that neither waits for the GPU.
#include "cuda/cuda_check.h"
#include "memory/gpu_memory.h"
#include "tensorx/place/device.h"

namespace tensorx {
namespace detail {

void* gpu_allocate(std::size_t bytes, int device, StreamHandle* stream) {
  cuda::DeviceGuard guard(device);
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
