// What the memory layer needs from a GPU backend: stream-ordered allocation, dense transfers
// between places, and strided copies and fills inside one device. Implemented by src/cuda/ and, in
// a build without CUDA, by src/no_cuda/, where each throws DeviceError. Callers have checked the
// places, the element size (1, 2, 4 or 8) and that arrays are non-empty. Private to src/.
#pragma once

#include <cstddef>

#include "memory/strided_layout.h"
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

/// dst[i] = src[i] over `layout` (operand 0 is dst), both on `device`, on its current stream.
void gpu_copy(const StridedLayout<2>& layout, void* dst, const void* src, std::size_t element_size,
              int device);

/// dst[i] = *value over `layout`, on `device`'s current stream.
void gpu_fill(const StridedLayout<1>& layout, void* dst, const void* value,
              std::size_t element_size, int device);

}  // namespace detail
}  // namespace tensorx
