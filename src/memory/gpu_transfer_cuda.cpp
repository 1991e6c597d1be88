// Moving bytes on and between GPUs: dense transfers with cudaMemcpyAsync / cudaMemcpyPeerAsync on
// the current streams. Transfers that touch host memory wait for it before returning.
#include <cstdint>
#include <cstring>
#include <memory>

#include "memory/gpu_memory.h"
#include "tensorx/core/cuda_check.h"
#include "tensorx/place/device.h"

namespace tensorx {
namespace detail {
namespace {

struct EventDeleter {
  void operator()(cudaEvent_t event) const { cuda_ignore(cudaEventDestroy(event)); }
};
using Event = std::unique_ptr<CUevent_st, EventDeleter>;

// Makes future work on `waiter` (of waiter_device) wait for the work queued so far on `signaller`
// (of signaller_device). Recording and waiting happen with the stream's own device current,
// because the legacy default stream (nullptr) means the current device's.
void order_after(int waiter_device, StreamHandle waiter, int signaller_device,
                 StreamHandle signaller) {
  Event event;
  {
    cuda::DeviceGuard guard(signaller_device);
    cudaEvent_t created = nullptr;
    TENSORX_CUDA_CHECK(cudaEventCreateWithFlags(&created, cudaEventDisableTiming));
    event.reset(created);
    TENSORX_CUDA_CHECK(cudaEventRecord(event.get(), signaller));
  }
  cuda::DeviceGuard guard(waiter_device);
  TENSORX_CUDA_CHECK(cudaStreamWaitEvent(waiter, event.get(), 0));
}

// A copy between host memory and `device`, complete (host side included) when it returns.
void transfer_with_host(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                        int device) {
  cuda::DeviceGuard guard(device);
  const StreamHandle stream = current_stream(device);
  TENSORX_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, kind, stream));
  TENSORX_CUDA_CHECK(cudaStreamSynchronize(stream));
}

// A copy between two devices, on the destination's current stream. Events order it after the
// source stream's pending writes, and the source stream's later work (frees of a staging buffer,
// overwrites) after it.
void transfer_between_devices(void* dst, int dst_device, const void* src, int src_device,
                              std::size_t bytes) {
  const StreamHandle dst_stream = current_stream(dst_device);
  const StreamHandle src_stream = current_stream(src_device);
  order_after(dst_device, dst_stream, src_device, src_stream);
  {
    cuda::DeviceGuard guard(dst_device);
    TENSORX_CUDA_CHECK(cudaMemcpyPeerAsync(dst, dst_device, src, src_device, bytes, dst_stream));
  }
  order_after(src_device, src_stream, dst_device, dst_stream);
}

}  // namespace

void gpu_transfer(void* dst, const Place& dst_place, const void* src, const Place& src_place,
                  std::size_t bytes) {
  if (is_cpu_place(src_place)) {
    transfer_with_host(dst, src, bytes, cudaMemcpyHostToDevice, device_of(dst_place));
  } else if (is_cpu_place(dst_place)) {
    transfer_with_host(dst, src, bytes, cudaMemcpyDeviceToHost, device_of(src_place));
  } else if (dst_place == src_place) {
    const int device = device_of(dst_place);
    cuda::DeviceGuard guard(device);
    TENSORX_CUDA_CHECK(
        cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, current_stream(device)));
  } else {
    transfer_between_devices(dst, device_of(dst_place), src, device_of(src_place), bytes);
  }
}

}  // namespace detail
}  // namespace tensorx
