// Strided copies and fills inside one device, callable from plain C++: a dense transfer where both
// sides are dense, a kernel of strided_kernel.cu otherwise; without CUDA
// (strided_kernel_no_cuda.cpp) they throw DeviceError. Callers have checked places, element size
// and that there are elements. Private to src/.
#pragma once

#include <cstddef>

#include "engine/strided_layout.h"
#include "tensorx/place/stream.h"

namespace tensorx {
namespace detail {

/// dst[i] = src[i] over `layout` (operand 0 is dst), both on `device`, on `stream` of it.
void gpu_copy(const StridedLayout<2>& layout, void* dst, const void* src, std::size_t element_size,
              int device, StreamHandle stream);

/// dst[i] = *value over `layout`, on `stream` of `device`.
void gpu_fill(const StridedLayout<1>& layout, void* dst, const void* value,
              std::size_t element_size, int device, StreamHandle stream);

}  // namespace detail
}  // namespace tensorx
