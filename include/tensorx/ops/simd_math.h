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
#include "tensorx/ops/simd_erf.h"
#include "tensorx/ops/simd_exp_log.h"

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
/// `xs`: double pow's rare lanes (see pow), which xsimd's pow gets a few units wrong.
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

/// |x|^y for finite positive x and finite y, float: exp(y log|x|) in double, whose kernels' error
/// (about 1e-16 of y log|x|, which is below 104 wherever the float result is not 0 or inf) stays
/// far below float's half ulp, rounded once to float: overflow, underflow and subnormal results
/// come out as C's. The lanes go to double batches of half the width and back through memory.
template <class A>
TENSORX_FORCE_INLINE xsimd::batch<float, A> magnitude_pow(const xsimd::batch<float, A>& ax,
                                                          const xsimd::batch<float, A>& y) {
  using B = xsimd::batch<float, A>;
  using D = xsimd::batch<double, A>;
  alignas(A::alignment()) float base[B::size], exponent[B::size], result[B::size];
  ax.store_aligned(base);
  y.store_aligned(exponent);
  for (std::size_t half = 0; half < B::size; half += D::size) {
    const D wide_base = D::load_aligned(base + half);
    const D wide_exponent = D::load_aligned(exponent + half);
    exp_kernel(wide_exponent * log_kernel(wide_base)).store_aligned(result + half);
  }
  return B::load_aligned(result);
}

/// |x|^y, double: xsimd's pow, exp(y log x) in double itself, is inaccurate for subnormal and
/// near-subnormal bases and its error grows with |y log x|. Lanes whose result lies outside
/// [2^-20, 2^20] (or underflowed) go to C's pow; the common powers of moderate values stay on the
/// SIMD path.
template <class A>
TENSORX_FORCE_INLINE xsimd::batch<double, A> magnitude_pow(const xsimd::batch<double, A>& ax,
                                                           const xsimd::batch<double, A>& y) {
  using B = xsimd::batch<double, A>;
  const B r = xsimd::pow(ax, y);
  const B zero(0.0), one(1.0), finite_limit(std::numeric_limits<double>::max()), wide(1 << 20);
  const B ar = xsimd::abs(r);
  const auto tiny = ax > zero && ax < B(std::numeric_limits<double>::min() * (1 << 24));
  const auto far_from_one = (ar > wide || ar < one / wide) && ax > zero && ax <= finite_limit &&
                            xsimd::abs(y) <= finite_limit;
  return recompute_lanes(
      r, (tiny || far_from_one) && !(y == zero) && !(y == one),
      [](double u, double v) { return std::pow(u, v); }, ax, y);
}

}  // namespace detail

/// e^x of each lane; lanes beyond xsimd's range go through C's exp.
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> exp(const xsimd::batch<T, A>& x) {
  return detail::exp_kernel(x);
}
/// The natural logarithm of each lane; denormal lanes go through C's log.
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> log(const xsimd::batch<T, A>& x) {
  return detail::log_kernel(x);
}
/// log1p and expm1 return a zero argument itself, keeping its sign, as C does.
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> log1p(const xsimd::batch<T, A>& x) {
  return detail::log1p_kernel(x);
}
/// e^x - 1 of each lane; lanes beyond xsimd's range go through C's expm1.
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> expm1(const xsimd::batch<T, A>& x) {
  return detail::expm1_kernel(x);
}
/// The square root of each lane.
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> sqrt(const xsimd::batch<T, A>& x) {
  return xsimd::sqrt(x);
}
/// The hyperbolic tangent of each lane.
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> tanh(const xsimd::batch<T, A>& x) {
  return detail::tanh_kernel(x);
}
/// The error function of each lane.
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> erf(const xsimd::batch<T, A>& x) {
  return detail::erf_kernel(x);
}
/// x^y with C's pow at every special value (C11 Annex F.10.4.4): magnitude_pow of |x| for the
/// finite, positive bases, then zeros, infinities, negative bases, NaN, y == 0 and x == 1 by the
/// standard's rules, so that the SIMD loop and the scalar loop agree everywhere.
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
  B r = detail::magnitude_pow(ax, y);
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
  r = xsimd::select(y == one, x, r);  // exact, subnormal x too
  return xsimd::select(y == zero || x == one, one, r);
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
// xsimd::max and min follow the instruction: on x86, max(a, b) is a > b ? a : b, so b when either
// is NaN and on ties (+0 against -0). That is the scalar versions' choice except for a NaN a, which
// one select restores: three instructions where the general form takes four (column maxima of a
// float matrix read at 0.80 of a copy's bandwidth that way, against 1.05 for column sums). On
// other instruction sets (NEON's max propagates NaN and orders zeros), the general form.
/// The larger of each pair of lanes; NaN if either is NaN.
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> maximum(const xsimd::batch<T, A>& a,
                                                const xsimd::batch<T, A>& b) {
#if defined(__SSE2__)
  if constexpr (std::is_floating_point_v<T>) {
    return xsimd::select(xsimd::isnan(a), a, xsimd::max(a, b));
  }
#endif
  return xsimd::select(a > b || !(a == a), a, b);
}
/// The smaller of each pair of lanes; NaN if either is NaN.
template <class T, class A>
TENSORX_FORCE_INLINE xsimd::batch<T, A> minimum(const xsimd::batch<T, A>& a,
                                                const xsimd::batch<T, A>& b) {
#if defined(__SSE2__)
  if constexpr (std::is_floating_point_v<T>) {
    return xsimd::select(xsimd::isnan(a), a, xsimd::min(a, b));
  }
#endif
  return xsimd::select(a < b || !(a == a), a, b);
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
  return xsimd::select(!(cond == xsimd::batch<T, A>(T(0))), a, b);
}

#endif

}  // namespace tensorx
