// The math library on xsimd batches: the same functions as ops/scalar_math.h with the same
// semantics (NaN-propagating maximum, round half away from zero), so that a functor written once
// computes the same values in the SIMD CPU loop as in the scalar loop and on the GPU.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <type_traits>
#include <utility>

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

namespace detail {

/// `r` with the lanes where `redo` holds recomputed by `f` (a C math function) on the lanes of
/// `xs`: xsimd's functions are accurate over the common range but not at its edges (exp overflows
/// and underflows early, log and pow of a denormal are off by a few units); those rare lanes go
/// through the same C functions as the scalar loop, so that both loops agree at every input.
template <class T, class A, class F, class... Xs, std::size_t... I>
TENSORX_FORCE_INLINE xsimd::batch<T, A> recompute_lanes_impl(const xsimd::batch<T, A>& r,
                                                             const xsimd::batch_bool<T, A>& redo,
                                                             F f, std::index_sequence<I...>,
                                                             const Xs&... xs) {
  using B = xsimd::batch<T, A>;
  alignas(B) T out[B::size], flags[B::size], in[sizeof...(Xs)][B::size];
  r.store_aligned(out);
  (xs.store_aligned(in[I]), ...);
  xsimd::select(redo, B(T(1)), B(T(0))).store_aligned(flags);
  for (std::size_t l = 0; l < B::size; ++l) {
    if (flags[l] != T(0)) out[l] = f(in[I][l]...);
  }
  return B::load_aligned(out);
}
template <class T, class A, class F, class... Xs>
TENSORX_FORCE_INLINE xsimd::batch<T, A> recompute_lanes(const xsimd::batch<T, A>& r,
                                                        const xsimd::batch_bool<T, A>& redo, F f,
                                                        const Xs&... xs) {
  if (!xsimd::any(redo)) return r;
  return recompute_lanes_impl(r, redo, f, std::index_sequence_for<Xs...>{}, xs...);
}

/// Beyond this |x|, xsimd's exp and expm1 saturate before C's do (at about 88.38 for float and
/// 708.4 for double, where C's exp is finite up to 88.72 and 709.78 and denormal below).
template <class T>
constexpr T kSimdExpLimit = std::is_same_v<T, float> ? T(87) : T(708);

/// Inputs of log below the smallest normal number, where xsimd's log loses accuracy.
template <class T>
constexpr T kSimdLogFloor = std::numeric_limits<T>::min();

}  // namespace detail

/// e^x of each lane; lanes beyond xsimd's range go through C's exp.
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> exp(const xsimd::batch<T, A>& x) {
  return detail::recompute_lanes(
      xsimd::exp(x), xsimd::abs(x) > detail::kSimdExpLimit<T>, [](T v) { return std::exp(v); }, x);
}
/// The natural logarithm of each lane; denormal lanes go through C's log.
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> log(const xsimd::batch<T, A>& x) {
  const xsimd::batch<T, A> zero(T(0));
  return detail::recompute_lanes(
      xsimd::log(x), x > zero && x < detail::kSimdLogFloor<T>, [](T v) { return std::log(v); }, x);
}
/// log1p and expm1 return a zero argument itself, keeping its sign, as C does.
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> log1p(const xsimd::batch<T, A>& x) {
  return xsimd::select(x == xsimd::batch<T, A>(T(0)), x, xsimd::log1p(x));
}
/// e^x - 1 of each lane; lanes beyond xsimd's range go through C's expm1.
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> expm1(const xsimd::batch<T, A>& x) {
  const auto r = detail::recompute_lanes(
      xsimd::expm1(x), xsimd::abs(x) > detail::kSimdExpLimit<T>, [](T v) { return std::expm1(v); },
      x);
  return xsimd::select(x == xsimd::batch<T, A>(T(0)), x, r);
}
/// The square root of each lane.
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> sqrt(const xsimd::batch<T, A>& x) {
  return xsimd::sqrt(x);
}
/// The hyperbolic tangent of each lane.
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
  r = xsimd::select(y == zero || x == one, one, r);
  // xsimd's pow is exp(y log x): inaccurate for denormal and near-denormal bases, and its error
  // grows with |y log x| (0.5^89 in float, exactly 2^-89, comes out 10 ulps off). Lanes whose
  // result lies outside [2^-20, 2^20] (or underflowed) go to C's pow; the common powers of
  // moderate values (squares, roots, x^1.5 of activations) stay on the SIMD path.
  const B finite_limit(std::numeric_limits<T>::max()), wide(T(1 << 20));
  const B ar = xsimd::abs(r);
  const auto tiny = ax > zero && ax < B(std::numeric_limits<T>::min() * T(1 << 24));
  const auto far_from_one = (ar > wide || ar < one / wide) && ax > zero && ax <= finite_limit &&
                            xsimd::abs(y) <= finite_limit;
  return detail::recompute_lanes(
      r, (tiny || far_from_one) && y != zero && y != one && !no_real_value,
      [](T u, T v) { return std::pow(u, v); }, x, y);
}
/// Each lane rounded down, keeping the sign of zeros as C does.
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> floor(const xsimd::batch<T, A>& x) {
  return xsimd::copysign(xsimd::floor(x), x);  // floor(-0) is -0, as in C
}
/// Each lane rounded up, keeping the sign of zeros as C does.
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> ceil(const xsimd::batch<T, A>& x) {
  return xsimd::copysign(xsimd::ceil(x), x);  // ceil(-0.5) is -0, as in C
}
/// xsimd::round, like std::round, rounds halfway cases away from zero (xsimd::nearbyint would
/// round them to even).
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> round(const xsimd::batch<T, A>& x) {
  return xsimd::copysign(xsimd::round(x), x);  // round(-0.4) is -0, as in C
}
/// |x| of each lane.
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> abs(const xsimd::batch<T, A>& x) {
  return xsimd::abs(x);
}
// xsimd::max and min follow the instruction (the second operand when one is NaN): select instead,
// to propagate NaN from either side like the scalar versions.
/// The larger of each pair of lanes; NaN if either is NaN.
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> maximum(const xsimd::batch<T, A>& a,
                                                const xsimd::batch<T, A>& b) {
  return xsimd::select(a > b || a != a, a, b);
}
/// The smaller of each pair of lanes; NaN if either is NaN.
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
