// tx::layer_norm and tx::rms_norm along one axis, and their statistics. Ordinary expressions of
// reductions: along the last axis each runs as ONE pass (reduce/row_fusion.h), the mean reduced
// once although the formula reads it twice; along another axis the reductions are materialised
// first. The variance is the two-pass one, the mean of the squared deviations from the row's
// mean: with the row in cache (CPU) or on chip (GPU) the second sweep costs no memory traffic,
// and it is as accurate as Welford's update without its division per element.
#pragma once

#include "tensorx/normalize/softmax.h"
#include "tensorx/ops/arithmetic.h"
#include "tensorx/ops/math.h"
#include "tensorx/reduce/reductions.h"

namespace tensorx {

/// (x - mean) / sqrt(var + eps) * gamma + beta along Axis (eps converted to x's element type), mean
/// and biased variance over Axis (PyTorch's layer_norm over the last axis when Axis is -1). gamma
/// and beta broadcast against x (typically of the axis' extent); shapes that do not are a
/// ShapeError naming them.
template <int Axis, class E, class G, class B>
auto layer_norm(const E& x, const G& gamma, const B& beta, double eps) {
  detail::check_normalizable<E>();
  const auto mean_of_x = mean<Axis>(x, keepdims);
  return (x - mean_of_x) * rsqrt(var<Axis>(x, keepdims) + eps) * gamma + beta;
}

/// x / sqrt(mean(x^2) + eps) * gamma along Axis (root-mean-square normalisation); gamma
/// broadcasts as for layer_norm.
template <int Axis, class E, class G>
auto rms_norm(const E& x, const G& gamma, double eps) {
  detail::check_normalizable<E>();
  return x * rsqrt(mean<Axis>(square(x), keepdims) + eps) * gamma;
}

}  // namespace tensorx
