// The logistic function on float SIMD batches, written for speed: 1 / (1 + exp(-x)) through a
// general exp spends a third of its work on range checks that the logistic never needs (its
// exponent -|x| is never positive), so this one computes e = exp(-|x|) directly and then
// sigmoid(x) = 1 / (1 + e) for x >= 0 and e / (1 + e) for x < 0, which also never divides an
// infinity. Relative error within 2 float ulps of the exact value for x above -87; below, where
// the exact value is under 2^-125, the result is 0 (an absolute error under 1.7e-38). NaN stays
// NaN. The scalar and GPU paths keep the literal formula of composite_math.h.
#pragma once

#include <cstdint>

#include "tensorx/core/config.h"
#include "tensorx/engine/simd.h"

namespace tensorx {

#if TENSORX_HAS_SIMD

template <class A>
TENSORX_FORCE_INLINE xsimd::batch<float, A> sigmoid(const xsimd::batch<float, A>& x) {
  using Floats = xsimd::batch<float, A>;
  using Ints = xsimd::batch<std::int32_t, A>;
  // exp(-t) for t = min(|x|, 87), so that 2^n below stays a normal float.
  const Floats t = xsimd::min(xsimd::abs(x), Floats(87.0f));
  // -t = n ln2 + r with |r| <= ln2 / 2; ln2 in two parts keeps r exact to float precision.
  const Floats n = xsimd::nearbyint(t * Floats(-1.44269504f));
  Floats r = xsimd::fma(n, Floats(-0.693145751953125f), -t);
  r = xsimd::fma(n, Floats(-1.428606765330187e-06f), r);
  // exp(r) = 1 + r + r^2 q(r), q a least-squares fit on Chebyshev nodes of [-ln2/2, ln2/2]
  // (relative error 3.6e-9 before rounding).
  Floats q = xsimd::fma(Floats(0.00137514f), r, Floats(0.00836892f));
  q = xsimd::fma(q, r, Floats(0.04166953f));
  q = xsimd::fma(q, r, Floats(0.16666518f));
  q = xsimd::fma(q, r, Floats(0.49999989f));
  const Floats exp_r = xsimd::fma(q, r * r, r + Floats(1.0f));
  // 2^n by building its exponent bits: n is in [-126, 0].
  const Ints biased = (xsimd::batch_cast<std::int32_t>(n) + Ints(127)) << 23;
  const Floats e = exp_r * xsimd::bitwise_cast<Floats>(biased);
  const Floats s = Floats(1.0f) / (Floats(1.0f) + e);
  const Floats negative_side = xsimd::select(t < Floats(87.0f), e * s, Floats(0.0f));
  const Floats result = xsimd::select(x >= Floats(0.0f), s, negative_side);
  return xsimd::select(x != x, x, result);
}

#endif

}  // namespace tensorx
