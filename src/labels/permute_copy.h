// The dense copies that a contraction makes of operands whose label groups do not merge (an
// im2col among them). Private to src/.
#pragma once

#include <cstddef>

#include "tensorx/memory/strided_copy.h"

namespace tensorx {
namespace detail {

/// Copies every element of `src` to the same index of `dst` (equal extents, one place, no
/// overlap). On the CPU the two innermost axes (after merging) run as plain nested loops and the
/// others are shared out through parallel_for: the copies of a contraction have short innermost
/// runs (an im2col of 14 x 14 images has runs of 12 elements), which copy_strided walks one at a
/// time, one odometer step each. On a GPU, copy_strided's kernel.
void permute_copy(const StridedBytes& dst, const StridedBytes& src, std::size_t element_size);

}  // namespace detail
}  // namespace tensorx
