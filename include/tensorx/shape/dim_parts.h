// Pieces of extents and indices: the leading or trailing dimensions of a Dim, and two Dims joined
// end to end. Nodes whose output axes come from several operands (take, one_hot) split their
// iteration index with these, in host and device code alike.
#pragma once

#include "tensorx/core/config.h"
#include "tensorx/shape/dim.h"

namespace tensorx {
namespace detail {

/// Dimensions 0 .. K-1 of `d`.
template <int K, int N>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE constexpr Dim<K> leading(const Dim<N>& d) {
  static_assert(0 <= K && K <= N, "leading<K> takes at most the N dimensions there are.");
  Dim<K> out;
  if constexpr (K > 0) {
    for (int i = 0; i < K; ++i) out.at(i) = d.at(i);
  }
  return out;
}

/// Dimensions N-M .. N-1 of `d`.
template <int M, int N>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE constexpr Dim<M> trailing(const Dim<N>& d) {
  static_assert(0 <= M && M <= N, "trailing<M> takes at most the N dimensions there are.");
  Dim<M> out;
  if constexpr (M > 0) {
    for (int i = 0; i < M; ++i) out.at(i) = d.at(N - M + i);
  }
  return out;
}

/// The dimensions of `a` followed by those of `b`.
template <int A, int B>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE constexpr Dim<A + B> join(const Dim<A>& a,
                                                                   const Dim<B>& b) {
  Dim<A + B> out;
  if constexpr (A > 0) {
    for (int i = 0; i < A; ++i) out.at(i) = a.at(i);
  }
  if constexpr (B > 0) {
    for (int i = 0; i < B; ++i) out.at(A + i) = b.at(i);
  }
  return out;
}

}  // namespace detail
}  // namespace tensorx
