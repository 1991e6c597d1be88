// Launchers of the CUDA kernels behind strided copies and fills inside one device, callable from
// plain C++ (they are compiled by nvcc in strided_kernel.cu). Private to src/.
#pragma once

#include <cstddef>
#include <cstdint>

#include "memory/strided_layout.h"
#include "tensorx/place/stream.h"

namespace tensorx {
namespace detail {

/// Queues dst[i] = src[i] over `layout` on `stream` (of the current device) and checks the launch.
void launch_strided_copy(const StridedLayout<2>& layout, void* dst, const void* src,
                         std::size_t element_size, StreamHandle stream);

/// Queues dst[i] = value over `layout`; the element is the first `element_size` bytes of `value`.
void launch_strided_fill(const StridedLayout<1>& layout, void* dst, std::uint64_t value,
                         std::size_t element_size, StreamHandle stream);

}  // namespace detail
}  // namespace tensorx
