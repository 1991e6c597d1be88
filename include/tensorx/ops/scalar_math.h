// The math library on single numbers, in host and device code alike: the primitives that the
// functors of ops/math.h call in the scalar CPU loop and in CUDA kernels. float and double go to
// the C math functions (::expf, ::exp, ...), which nvcc provides for device code too; the
// ordering functions also take integers. ops/simd_math.h has the same functions on SIMD batches.
#pragma once

#include <cmath>
#include <type_traits>

#include "tensorx/core/config.h"

namespace tensorx {
namespace detail {

/// float and double: what the transcendental and rounding functions take.
template <class T>
constexpr bool is_real_v = std::is_same_v<T, float> || std::is_same_v<T, double>;

/// Any number but bool: what abs, maximum, minimum, clip, square, sign and where take.
template <class T>
constexpr bool is_number_v = std::is_arithmetic_v<T> && !std::is_same_v<T, bool>;

/// True for a floating-point NaN; integers are never NaN.
template <class T>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE bool is_nan(const T& x) {
  if constexpr (std::is_floating_point_v<T>) {
    return x != x;
  } else {
    return false;
  }
}

}  // namespace detail

// Each function has a float and a double overload; integers are rejected as ambiguous rather than
// silently computed in one of the two precisions. Each pair is documented once.
///@{
/// e^x, by the C library (expf, exp), in host and device code.
TENSORX_HOST_DEVICE inline float exp(float x) {
  return ::expf(x);
}
TENSORX_HOST_DEVICE inline double exp(double x) {
  return ::exp(x);
}
///@}
///@{
/// The natural logarithm, by the C library, in host and device code.
TENSORX_HOST_DEVICE inline float log(float x) {
  return ::logf(x);
}
TENSORX_HOST_DEVICE inline double log(double x) {
  return ::log(x);
}
///@}
///@{
/// log(1 + x), accurate near 0, by the C library, in host and device code.
TENSORX_HOST_DEVICE inline float log1p(float x) {
  return ::log1pf(x);
}
TENSORX_HOST_DEVICE inline double log1p(double x) {
  return ::log1p(x);
}
///@}
///@{
/// e^x - 1, accurate near 0, by the C library, in host and device code.
TENSORX_HOST_DEVICE inline float expm1(float x) {
  return ::expm1f(x);
}
TENSORX_HOST_DEVICE inline double expm1(double x) {
  return ::expm1(x);
}
///@}
///@{
/// The square root, by the C library, in host and device code.
TENSORX_HOST_DEVICE inline float sqrt(float x) {
  return ::sqrtf(x);
}
TENSORX_HOST_DEVICE inline double sqrt(double x) {
  return ::sqrt(x);
}
///@}
///@{
/// The hyperbolic tangent, by the C library, in host and device code.
TENSORX_HOST_DEVICE inline float tanh(float x) {
  return ::tanhf(x);
}
TENSORX_HOST_DEVICE inline double tanh(double x) {
  return ::tanh(x);
}
///@}
///@{
/// The error function 2 / sqrt(pi) times the integral of e^(-t^2) from 0 to x, by the C library
/// (erff, erf), in host and device code.
TENSORX_HOST_DEVICE inline float erf(float x) {
  return ::erff(x);
}
TENSORX_HOST_DEVICE inline double erf(double x) {
  return ::erf(x);
}
///@}
///@{
/// x^y, by the C library, in host and device code.
TENSORX_HOST_DEVICE inline float pow(float x, float y) {
  return ::powf(x, y);
}
TENSORX_HOST_DEVICE inline double pow(double x, double y) {
  return ::pow(x, y);
}
///@}
///@{
/// x rounded down, in host and device code.
TENSORX_HOST_DEVICE inline float floor(float x) {
  return ::floorf(x);
}
TENSORX_HOST_DEVICE inline double floor(double x) {
  return ::floor(x);
}
///@}
///@{
/// x rounded up, in host and device code.
TENSORX_HOST_DEVICE inline float ceil(float x) {
  return ::ceilf(x);
}
TENSORX_HOST_DEVICE inline double ceil(double x) {
  return ::ceil(x);
}
///@}
///@{
/// Halfway cases round away from zero, like std::round (round(2.5) == 3, round(-2.5) == -3).
TENSORX_HOST_DEVICE inline float round(float x) {
  return ::roundf(x);
}
TENSORX_HOST_DEVICE inline double round(double x) {
  return ::round(x);
}
///@}
///@{
/// |x| of a float or double, in host and device code.
TENSORX_HOST_DEVICE inline float abs(float x) {
  return ::fabsf(x);
}
TENSORX_HOST_DEVICE inline double abs(double x) {
  return ::fabs(x);
}
///@}

/// |x| of an integer (the most negative value stays as it is, as in two's complement).
template <class T, std::enable_if_t<std::is_integral_v<T> && detail::is_number_v<T>, int> = 0>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T abs(T x) {
  return x < T(0) ? static_cast<T>(-x) : x;
}

/// The larger of a and b; NaN if either is NaN (like NumPy's maximum, unlike std::max and fmax).
template <class T, std::enable_if_t<detail::is_number_v<T>, int> = 0>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T maximum(T a, T b) {
  return a > b || detail::is_nan(a) ? a : b;
}

/// The smaller of a and b; NaN if either is NaN.
template <class T, std::enable_if_t<detail::is_number_v<T>, int> = 0>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T minimum(T a, T b) {
  return a < b || detail::is_nan(a) ? a : b;
}

/// a where cond is true or nonzero (NaN counts as nonzero), else b.
template <class C, class T,
          std::enable_if_t<std::is_arithmetic_v<C> && detail::is_number_v<T>, int> = 0>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T where(C cond, T a, T b) {
  return cond != C(0) ? a : b;
}

}  // namespace tensorx
