// Random shapes and values for tests: a fixed seed per test keeps failures reproducible.
#pragma once

#include <random>

#include "tensorx/array/array.h"
#include "tensorx/array/array_view.h"

namespace tensorx {
namespace testing {

/// A fixed-seed generator; each test makes its own so that tests stay independent.
inline std::mt19937_64 make_rng(unsigned seed = 2026) { return std::mt19937_64(seed); }

/// A random extent with every dimension in [low, high].
template <int N>
Dim<N> random_dim(std::mt19937_64& rng, index_t low, index_t high) {
  std::uniform_int_distribution<index_t> extent(low, high);
  Dim<N> dims;
  if constexpr (N > 0) {
    for (int i = 0; i < N; ++i) dims.at(i) = extent(rng);
  }
  return dims;
}

/// Fills a CPU array (any strides) with uniform values in [low, high), converted to T.
template <class T, int N>
void fill_random(const Array<T, N>& array, std::mt19937_64& rng, double low = -1.0,
                 double high = 1.0) {
  std::uniform_real_distribution<double> value(low, high);
  for (T& element : make_view(array)) element = static_cast<T>(value(rng));
}

}  // namespace testing
}  // namespace tensorx
