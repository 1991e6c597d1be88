// Counter-based random numbers as expression leaves: tx::uniform and tx::normal. Element i of a
// draw is a pure function of (seed, offset, i), computed from Philox4x32-10 (random/philox.h) where
// and when the element is needed, so a draw fuses into the pass that uses it (dropout is one pass
// and stores no mask), any part of it can be recomputed, and the CPU and a GPU give the same bits.
// Successive draws with one seed take successive offsets.
#pragma once

#include <cstdint>

#include "tensorx/core/compute_type.h"
#include "tensorx/core/narrow_float.h"
#include "tensorx/random/distributions.h"
#include "tensorx/random/generator_exp.h"
#include "tensorx/random/generators.h"
#include "tensorx/random/philox.h"
#include "tensorx/shape/dim.h"

namespace tensorx {
namespace detail {

template <class Distribution, class T, int N>
auto random_draw(const char* function, const Dim<N>& dims, std::uint64_t seed,
                 std::uint64_t offset) {
  check_generator_extent(function, dims);
  using Generator = PhiloxGenerator<Distribution>;
  const PhiloxKey key = {
      {static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)}};
  return GeneratorExp<T, N, Generator>(dims, Generator{key, offset});
}

}  // namespace detail

/// Uniform random numbers in [0, 1) of extent `dims`: element i (row-major) is k / 2^d for d random
/// bits k, d the significand bits of T (24 for float, 53 for double, 11 for float16, 8 for
/// bfloat16), taken from the Philox4x32-10 block of counter (i / 4, offset) (i / 2 for double)
/// under the key `seed`: the same values on the CPU and on a GPU. A lazy GeneratorExp computed in
/// the pass of the assignment it joins, on the destination's place. Throws ShapeError for a
/// negative extent.
template <class T, int N>
auto uniform(const Dim<N>& dims, std::uint64_t seed, std::uint64_t offset = 0) {
  static_assert(is_floating_element_v<T>,
                "tx::uniform draws float, double, float16 or bfloat16 numbers; convert them with "
                "tx::cast for integers.");
  return detail::random_draw<detail::UniformDistribution<T>, T>("tx::uniform", dims, seed, offset);
}

/// Standard normal random numbers of extent `dims`, by the Box-Muller transform of the Philox
/// block of counter (i / 4, offset) (i / 2 for double) under the key `seed`: each block gives
/// two pairs (one for double) of uniforms, each pair r cos(2 pi u2) and r sin(2 pi u2). Places as
/// for tx::uniform, the same values on the CPU and on a GPU; throws ShapeError for a negative
/// extent.
template <class T, int N>
auto normal(const Dim<N>& dims, std::uint64_t seed, std::uint64_t offset = 0) {
  static_assert(is_floating_element_v<T>,
                "tx::normal draws float, double, float16 or bfloat16 numbers.");
  return detail::random_draw<detail::NormalDistribution<T>, T>("tx::normal", dims, seed, offset);
}

}  // namespace tensorx
