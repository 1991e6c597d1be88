// NumPy broadcasting of extents: right-aligned, and a missing dimension or one of extent 1
// stretches to match. Incompatible extents throw ShapeError naming every shape involved.
#pragma once

#include <algorithm>
#include <sstream>

#include "tensorx/core/error.h"
#include "tensorx/shape/dim.h"

namespace tensorx {
namespace detail {

template <int N, class... Dims>
[[noreturn]] void throw_broadcast_error(const Dims&... dims) {
  std::ostringstream shapes;
  int i = 0;
  ((shapes << (i++ ? " and " : "") << dims), ...);
  throw ShapeError(message("cannot broadcast shapes ", shapes.str(), " together"));
}

/// The broadcast extent of all the given extents, of the largest rank N.
template <int N, class... Dims>
Dim<N> broadcast_dims(const Dims&... dims) {
  Dim<N> out;
  if constexpr (N > 0) {
    for (int i = 0; i < N; ++i) out.at(i) = 1;
    bool compatible = true;
    auto merge = [&](const auto& d) {
      constexpr int M = std::decay_t<decltype(d)>::dimensions;
      if constexpr (M > 0) {
        for (int i = 0; i < M; ++i) {
          index_t& o = out.at(N - M + i);
          const index_t e = d.at(i);
          if (e == o || e == 1) continue;
          if (o == 1) {
            o = e;
          } else {
            compatible = false;
          }
        }
      }
    };
    (merge(dims), ...);
    if (!compatible) throw_broadcast_error<N>(dims...);
  }
  return out;
}

/// True when `from` stretches to `to` by broadcasting: right-aligned, every extent equal or 1.
template <int M, int N>
bool stretches_to(const Dim<M>& from, const Dim<N>& to) {
  if constexpr (M > N) {
    return false;
  } else if constexpr (M > 0) {
    for (int i = 0; i < M; ++i) {
      const index_t e = from.at(i);
      if (e != 1 && e != to.at(N - M + i)) return false;
    }
  }
  return true;
}

}  // namespace detail
}  // namespace tensorx
