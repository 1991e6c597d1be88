// Two float and double operations with one rounding that host and device code share: the
// magnitude, and a * b + c rounded once (the C library's fabs and fma, which nvcc provides for
// device code too; as overloads, so that a float never goes through the double functions, whose
// fma would round a float result twice).
#pragma once

#include <cmath>

#include "tensorx/core/config.h"

namespace tensorx {
namespace detail {

/// a * b + c rounded once.
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE double fused_multiply_add(double a, double b, double c) {
  return ::fma(a, b, c);
}
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE float fused_multiply_add(float a, float b, float c) {
  return ::fmaf(a, b, c);
}

/// |x|.
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE double magnitude(double x) {
  return ::fabs(x);
}
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE float magnitude(float x) {
  return ::fabsf(x);
}

}  // namespace detail
}  // namespace tensorx
