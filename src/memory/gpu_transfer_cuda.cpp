// Moving bytes on and between GPUs: dense transfers with cudaMemcpyAsync / cudaMemcpyPeerAsync on
// the stream the caller ordered (memory/stream_order.h). Transfers that touch host memory wait
// for it before returning.
#include "memory/gpu_memory.h"
#include "tensorx/core/cuda_check.h"
#include "tensorx/place/device.h"

namespace tensorx {
namespace detail {

void gpu_transfer(void* dst, const Place& dst_place, const void* src, const Place& src_place,
                  std::size_t bytes, StreamHandle stream) {
  const int device = device_of(is_gpu_place(dst_place) ? dst_place : src_place);
  cuda::DeviceGuard guard(device);
  if (is_cpu_place(src_place) || is_cpu_place(dst_place)) {
    const cudaMemcpyKind kind =
        is_cpu_place(src_place) ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
    TENSORX_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, kind, stream));
    TENSORX_CUDA_CHECK(cudaStreamSynchronize(stream));
  } else if (dst_place == src_place) {
    TENSORX_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream));
  } else {
    TENSORX_CUDA_CHECK(cudaMemcpyPeerAsync(dst, device, src, device_of(src_place), bytes, stream));
  }
}

}  // namespace detail
}  // namespace tensorx
