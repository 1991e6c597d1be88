// Host memory for array data read from a file. Private to src/.
#pragma once

#include <cstddef>
#include <memory>

#include "tensorx/memory/allocation.h"

namespace tensorx {
namespace detail {

/// `bytes` of new CPU memory (64-byte aligned, as every CPU Allocation) that a file's data is
/// about to be read into.
std::shared_ptr<Allocation> allocate_read_buffer(std::size_t bytes);

}  // namespace detail
}  // namespace tensorx
