// What the memory layer needs from a GPU backend: stream-ordered allocation and dense transfers
// between places. Implemented by gpu_memory_cuda.cpp and gpu_transfer_cuda.cpp and, in a build
// without CUDA, by gpu_memory_no_cuda.cpp, where each throws DeviceError. Callers have checked the
// places and that there are bytes to move. Private to src/.
#pragma once

#include <cstddef>

#include "tensorx/place/place.h"
#include "tensorx/place/stream.h"

namespace tensorx {
namespace detail {

/// `bytes` (> 0) on `device`, ordered on its current stream, which is stored in `stream`.
void* gpu_allocate(std::size_t bytes, int device, StreamHandle* stream);

/// Releases a gpu_allocate block on the stream it was allocated on; errors are swallowed.
void gpu_free(void* data, int device, StreamHandle stream) noexcept;

/// Copies `bytes` of dense data between two places, at least one of them a GPU, ordered on the
/// current streams of the devices involved; returns once host memory involved is complete.
void gpu_transfer(void* dst, const Place& dst_place, const void* src, const Place& src_place,
                  std::size_t bytes);

}  // namespace detail
}  // namespace tensorx
