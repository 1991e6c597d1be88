// Strided copies and fills of host memory: the CPU backend of copy_strided and fill_strided, which
// have already checked the element size (1, 2, 4 or 8) and handled empty and overlapping arrays.
// Private to src/.
#pragma once

#include <cstddef>

#include "engine/strided_layout.h"

namespace tensorx {
namespace detail {

/// dst[i] = src[i] over `layout` (operand 0 is dst); the two must not overlap.
void cpu_copy(const StridedLayout<2>& layout, void* dst, const void* src, std::size_t element_size);

/// dst[i] = *value over `layout`.
void cpu_fill(const StridedLayout<1>& layout, void* dst, const void* value,
              std::size_t element_size);

}  // namespace detail
}  // namespace tensorx
