// Integer arithmetic with every input defined, where C++ leaves some undefined:
//  - division: x / 0 is 0 (NumPy's result, without its warning) and the most negative value
//    divided by -1 is itself (two's complement wrap-around). The hardware traps on both (SIGFPE on
//    x86), which must never reach a user; `/` and `/=` on integer arrays divide through this.
//  - the accumulations of tx::sum and tx::prod: they wrap around modulo 2^bits, as the CPU's and
//    GPU's integer units and SIMD batches do, instead of overflowing signed integers (undefined).
#pragma once

#include <type_traits>

#include "tensorx/core/config.h"

namespace tensorx {
namespace detail {

/// True for SIMD batches (any type with a value_type) of integers.
template <class T, class = void>
struct is_integer_batch : std::false_type {};
template <class T>
struct is_integer_batch<T, std::void_t<typename T::value_type>>
    : std::bool_constant<std::is_integral_v<typename T::value_type>> {};

template <class T>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T divide_integers(T a, T b) {
  static_assert(std::is_integral_v<T>, "divide_integers divides integers.");
  if (b == 0) return T(0);
  if constexpr (std::is_signed_v<T>) {
    // -a computed without overflow: the negation of the most negative value wraps to itself.
    using U = std::make_unsigned_t<T>;
    if (b == T(-1)) return static_cast<T>(U(0) - static_cast<U>(a));
  }
  return a / b;
}

/// a + b and a * b modulo 2^bits: computed in the unsigned type, whose overflow is defined.
template <class T>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T wrapping_add(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
}
template <class T>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T wrapping_multiply(T a, T b) {
  // Promoted to unsigned int at least, so that 16-bit operands cannot overflow a signed int.
  using U = std::common_type_t<std::make_unsigned_t<T>, unsigned>;
  return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
}

}  // namespace detail
}  // namespace tensorx
