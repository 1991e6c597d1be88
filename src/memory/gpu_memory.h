// What the memory layer needs from a GPU backend: allocation from tensorx's stream-ordered pool
// of each device, and dense transfers between places. Implemented by gpu_pool_cuda.cpp and
// gpu_transfer_cuda.cpp and, in a build without CUDA, by gpu_memory_no_cuda.cpp, where each
// throws DeviceError. Callers have checked the places, that there are bytes to move, and ordered
// the streams (memory/stream_order.h). Private to src/.
#pragma once

#include <cstddef>

#include "tensorx/place/place.h"
#include "tensorx/place/stream.h"

namespace tensorx {
namespace detail {

/// `bytes` (> 0) on `device`, usable in the order of `stream`. Throws OutOfMemoryError, naming
/// the bytes asked for and the device's free and total memory, when neither the pool nor, after
/// the pool's cache went back to the driver, the driver has them.
void* gpu_allocate(std::size_t bytes, int device, StreamHandle stream);

/// Returns a gpu_allocate block of `bytes` to the pool once `stream` reaches this point; errors
/// (only possible while the CUDA runtime shuts down at exit) are swallowed.
void gpu_free(void* data, std::size_t bytes, int device, StreamHandle stream) noexcept;

/// Copies `bytes` of dense data between two places, at least one of them a GPU, on `stream` (of
/// the destination's device, or of the source's when the destination is the host); returns once
/// host memory involved is complete.
void gpu_transfer(void* dst, const Place& dst_place, const void* src, const Place& src_place,
                  std::size_t bytes, StreamHandle stream);

}  // namespace detail
}  // namespace tensorx
