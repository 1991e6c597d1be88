// Operands for the layout tests: random extents with the edge cases mixed in (extent 0 and 1),
// the same values stored with gaps or with their axes in another order (so every op is also
// checked on strided inputs), and pass counting.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>

#include <tensorx/tensorx.h>

#include "support/test_place.h"

namespace tensorx {
namespace testing {

/// Extents in [0, high]: 0 with probability 1/12, 1 with probability 1/4, else in [2, high].
template <int N>
Dim<N> random_extents(std::mt19937_64& rng, index_t high) {
  Dim<N> dims;
  if constexpr (N > 0) {
    for (int i = 0; i < N; ++i) {
      const auto pick = rng() % 12;
      dims[i] = pick == 0 ? 0 : pick < 4 ? 1 : std::uniform_int_distribution<index_t>(2, high)(rng);
    }
  }
  return dims;
}

/// A random range [begin, end) inside [0, extent], empty now and then.
inline std::pair<index_t, index_t> random_range(std::mt19937_64& rng, index_t extent) {
  std::uniform_int_distribution<index_t> any(0, extent);
  index_t begin = any(rng), end = any(rng);
  if (begin > end) std::swap(begin, end);
  return {begin, end};
}

/// The values of `a` in a new buffer on a's place with one element of padding after every
/// extent: the view of them has strides of a larger array.
template <class T, int N>
Array<T, N> with_gaps(const Array<T, N>& a) {
  Dim<N> padded = a.dims();
  if constexpr (N > 0) {
    for (int i = 0; i < N; ++i) padded[i] += 1;
  }
  const Array<T, N> storage(padded, a.place());
  const Array<T, N> view(storage.buffer(), a.dims(), storage.strides(), 0);
  copy(view, a);
  return view;
}

/// The values of `a` in a new buffer on a's place whose axes are stored in reverse order: the
/// view of them has strides growing inwards, as a transposed array's do.
template <class T, int N>
Array<T, N> stored_reversed(const Array<T, N>& a) {
  Dim<N> reversed;
  if constexpr (N > 0) {
    for (int i = 0; i < N; ++i) reversed[i] = a.dims()[N - 1 - i];
  }
  const Array<T, N> storage(reversed, a.place());
  Dim<N> strides;
  if constexpr (N > 0) {
    for (int i = 0; i < N; ++i) strides[i] = storage.strides()[N - 1 - i];
  }
  const Array<T, N> view(storage.buffer(), a.dims(), strides, 0);
  copy(view, a);
  return view;
}

/// `a` as it is (variant 0), with gaps (1) or stored reversed (2).
template <class T, int N>
Array<T, N> layout_variant(const Array<T, N>& a, int variant) {
  switch (variant % 3) {
    case 1:
      return with_gaps(a);
    case 2:
      return stored_reversed(a);
    default:
      return a;
  }
}

/// The number of passes tensorx starts while f runs.
template <class F>
std::uint64_t passes_of(F&& f) {
  const auto before = stats::passes();
  f();
  return stats::passes() - before;
}

/// One pass, or none for an empty destination.
template <int N>
std::uint64_t one_pass_unless_empty(const Dim<N>& dims) {
  return product(dims) > 0 ? 1u : 0u;
}

}  // namespace testing
}  // namespace tensorx
