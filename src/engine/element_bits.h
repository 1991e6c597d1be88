// Elements that move as raw bytes (copies and fills, on the CPU and in CUDA kernels) travel as
// unsigned integers of their size: one switch from an element size to that type.
#pragma once

#include <cstddef>
#include <cstdint>

#include "tensorx/core/error.h"

namespace tensorx {
namespace detail {

/// Calls f(Bits{}) with the unsigned integer type of `element_size` bytes (1, 2, 4 or 8); any
/// other size is a TypeError.
template <class F>
decltype(auto) element_bits_switch(std::size_t element_size, F&& f) {
  switch (element_size) {
    case 1:
      return f(std::uint8_t{});
    case 2:
      return f(std::uint16_t{});
    case 4:
      return f(std::uint32_t{});
    case 8:
      return f(std::uint64_t{});
  }
  throw TypeError(
      message("elements of ", element_size, " bytes cannot be copied: sizes are 1, 2, ", "4 or 8"));
}

}  // namespace detail
}  // namespace tensorx
