// The math library on xsimd batches: the same functions as ops/scalar_math.h with the same
// semantics (NaN-propagating maximum, round half away from zero), so that a functor written once
// computes the same values in the SIMD CPU loop as in the scalar loop and on the GPU.
#pragma once

#include <limits>
#include <type_traits>

#include "tensorx/core/config.h"
#include "tensorx/engine/simd.h"

namespace tensorx {
namespace detail {

/// True for xsimd batches (never in CUDA translation units, which have no SIMD loop).
template <class T>
struct is_simd_batch : std::false_type {};
#if TENSORX_HAS_SIMD
template <class T, class A>
struct is_simd_batch<xsimd::batch<T, A>> : std::true_type {};
#endif
template <class T>
constexpr bool is_simd_batch_v = is_simd_batch<T>::value;

}  // namespace detail

#if TENSORX_HAS_SIMD

template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> exp(const xsimd::batch<T, A>& x) {
  return xsimd::exp(x);
}
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> log(const xsimd::batch<T, A>& x) {
  return xsimd::log(x);
}
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> log1p(const xsimd::batch<T, A>& x) {
  return xsimd::log1p(x);
}
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> expm1(const xsimd::batch<T, A>& x) {
  return xsimd::expm1(x);
}
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> sqrt(const xsimd::batch<T, A>& x) {
  return xsimd::sqrt(x);
}
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> tanh(const xsimd::batch<T, A>& x) {
  return xsimd::tanh(x);
}
/// x^y with C's pow at every special value (C11 Annex F.10.4.4), where xsimd's differs: xsimd's
/// pow of |x| for the finite, positive bases, then zeros, infinities, negative bases, NaN, y == 0
/// and x == 1 by the standard's rules, so that the SIMD loop and the scalar loop agree everywhere.
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> pow(const xsimd::batch<T, A>& x,
                                            const xsimd::batch<T, A>& y) {
  using B = xsimd::batch<T, A>;
  const B zero(T(0)), one(T(1)), infinity(std::numeric_limits<T>::infinity());
  const B ax = xsimd::abs(x);
  const auto y_integer = xsimd::floor(y) == y;  // true for the infinities, false for NaN
  // An odd integer: every float at or above 2^digits is even, and floor(y / 2) * 2 says so.
  const auto y_odd = y_integer & (xsimd::floor(y * T(0.5)) * T(2) != y);
  const auto x_negative = (x < zero) | ((x == zero) & (one / x < zero));  // -0 included
  B r = xsimd::pow(ax, y);
  r = xsimd::select(ax == zero, xsimd::select(y < zero, infinity, zero), r);
  r = xsimd::select(ax == infinity, xsimd::select(y < zero, zero, infinity), r);
  r = xsimd::select(y == infinity, xsimd::select(ax < one, zero, infinity), r);
  r = xsimd::select(y == -infinity, xsimd::select(ax < one, infinity, zero), r);
  r = xsimd::select(xsimd::abs(y) == infinity && ax == one, one, r);
  r = xsimd::select(x_negative && y_odd, -r, r);
  // A finite negative base to a non-integer power has no real value.
  const auto no_real_value = (x < zero) & (ax != infinity) & !y_integer;
  r = xsimd::select(no_real_value || xsimd::isnan(x) || xsimd::isnan(y),
                    B(std::numeric_limits<T>::quiet_NaN()), r);
  r = xsimd::select(y == one, x, r);  // exact, denormal x too
  return xsimd::select(y == zero || x == one, one, r);
}
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> floor(const xsimd::batch<T, A>& x) {
  return xsimd::floor(x);
}
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> ceil(const xsimd::batch<T, A>& x) {
  return xsimd::ceil(x);
}
/// xsimd::round, like std::round, rounds halfway cases away from zero (xsimd::nearbyint would
/// round them to even).
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> round(const xsimd::batch<T, A>& x) {
  return xsimd::round(x);
}
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> abs(const xsimd::batch<T, A>& x) {
  return xsimd::abs(x);
}
// xsimd::max and min follow the instruction (the second operand when one is NaN): select instead,
// to propagate NaN from either side like the scalar versions.
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> maximum(const xsimd::batch<T, A>& a,
                                                const xsimd::batch<T, A>& b) {
  return xsimd::select(a > b || a != a, a, b);
}
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> minimum(const xsimd::batch<T, A>& a,
                                                const xsimd::batch<T, A>& b) {
  return xsimd::select(a < b || a != a, a, b);
}
/// The lanes of a where cond is true, else those of b (a comparison inside a user functor).
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> where(const xsimd::batch_bool<T, A>& cond,
                                              const xsimd::batch<T, A>& a,
                                              const xsimd::batch<T, A>& b) {
  return xsimd::select(cond, a, b);
}
/// The lanes of a where cond is nonzero, else those of b (a condition computed as numbers, like
/// the comparison expressions' 1 and 0).
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> where(const xsimd::batch<T, A>& cond,
                                              const xsimd::batch<T, A>& a,
                                              const xsimd::batch<T, A>& b) {
  return xsimd::select(cond != xsimd::batch<T, A>(T(0)), a, b);
}

#endif

}  // namespace tensorx
