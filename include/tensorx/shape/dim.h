// Dim<N>: a fixed-rank extent or index, stored as a recursive head/tail pair (after Majel) so that
// it is a trivially-copyable value usable in host and device code alike. Row-major throughout:
// the last index is the fastest.
#pragma once

#include <ostream>
#include <type_traits>

#include "tensorx/core/config.h"
#include "tensorx/core/error.h"

namespace tensorx {

/// The largest rank tensorx supports.
constexpr int kMaxRank = 9;

template <int N>
struct Dim;

/// The rank-0 extent: the shape of a scalar. Its product is 1.
template <>
struct Dim<0> {
  /// The rank, 0.
  static constexpr int dimensions = 0;
  /// The one rank-0 extent.
  TENSORX_HOST_DEVICE constexpr Dim() {}
};

/// A rank-N extent or index (N from 1 to kMaxRank; Dim<0> is specialised), a trivially-copyable
/// value usable in host and device code.
template <int N>
struct Dim {
  static_assert(N > 0 && N <= kMaxRank, "Dim<N> supports ranks 0 to 9.");
  /// The rank, N.
  static constexpr int dimensions = N;

  /// Element 0, the outermost.
  index_t head;
  /// Elements 1 to N - 1.
  Dim<N - 1> tail;

  /// All zeros.
  TENSORX_HOST_DEVICE constexpr Dim() : head(0), tail() {}

  /// One integer per dimension, outermost first: Dim<3>(2, 3, 4). Every value must be an integer
  /// (the first too), so that Dim<2>(2.5, 3) is rejected instead of truncated.
  template <class First, class... Rest,
            class = std::enable_if_t<sizeof...(Rest) == N - 1 && std::is_integral_v<First> &&
                                     (std::is_integral_v<Rest> && ...)>>
  TENSORX_HOST_DEVICE constexpr explicit Dim(First first, Rest... rest)
      : head(static_cast<index_t>(first)), tail(static_cast<index_t>(rest)...) {}

  ///@{
  /// Element i; on the host an index outside [0, N) throws IndexError (device code does not check).
  TENSORX_HOST_DEVICE index_t& operator[](int i) {
    check_index(i);
    return at(i);
  }
  TENSORX_HOST_DEVICE index_t operator[](int i) const {
    check_index(i);
    return at(i);
  }
  ///@}

  ///@{
  /// Element i without a bounds check (for hot loops whose i is known to be valid). constexpr so
  /// that contiguous_strides, delinearize and contains, which loop over it, are constexpr too.
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE constexpr index_t& at(int i) {
    if constexpr (N == 1) {
      return head;
    } else {
      return i == 0 ? head : tail.at(i - 1);
    }
  }
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE constexpr index_t at(int i) const {
    if constexpr (N == 1) {
      return head;
    } else {
      return i == 0 ? head : tail.at(i - 1);
    }
  }
  ///@}

 private:
  TENSORX_HOST_DEVICE static void check_index(int i) {
#if !TENSORX_DEVICE_CODE
    if (i < 0 || i >= N) {
      throw IndexError(detail::message("index ", i, " is out of range for a Dim<", N, ">"));
    }
#else
    (void)i;
#endif
  }
};

/// A Dim from its values, outermost first: make_dim(2, 3) is a Dim<2>.
template <class... Extents>
TENSORX_HOST_DEVICE constexpr Dim<sizeof...(Extents)> make_dim(Extents... extents) {
  static_assert((std::is_integral_v<Extents> && ...), "make_dim takes integer extents.");
  return Dim<sizeof...(Extents)>(static_cast<index_t>(extents)...);
}

///@{
/// Element I, checked at compile time.
template <int I, int N>
TENSORX_HOST_DEVICE constexpr index_t& get(Dim<N>& d) {
  static_assert(I >= 0 && I < N, "get<I>(Dim<N>) needs 0 <= I < N.");
  if constexpr (I == 0) {
    return d.head;
  } else {
    return get<I - 1>(d.tail);
  }
}
template <int I, int N>
TENSORX_HOST_DEVICE constexpr index_t get(const Dim<N>& d) {
  static_assert(I >= 0 && I < N, "get<I>(Dim<N>) needs 0 <= I < N.");
  if constexpr (I == 0) {
    return d.head;
  } else {
    return get<I - 1>(d.tail);
  }
}
///@}

/// The number of elements an extent holds (1 for Dim<0>).
template <int N>
TENSORX_HOST_DEVICE constexpr index_t product(const Dim<N>& d) {
  if constexpr (N == 0) {
    return 1;
  } else {
    return d.head * product(d.tail);
  }
}

namespace detail {

/// The number of elements of `dims`, for an extent about to be allocated or reshaped to: throws
/// ShapeError naming the extent when one is negative or their product exceeds what index_t counts.
template <int N>
index_t checked_numel(const Dim<N>& dims) {
  index_t count = 1;
  if constexpr (N > 0) {
    for (int i = 0; i < N; ++i) {
      if (dims.at(i) < 0) throw ShapeError(detail::message("negative extent in shape ", dims));
    }
    for (int i = 0; i < N; ++i) {
      if (dims.at(i) == 0) return 0;  // empty, whatever the other extents
    }
    for (int i = 0; i < N; ++i) {
      if (__builtin_mul_overflow(count, dims.at(i), &count)) {
        throw ShapeError(detail::message("the shape ", dims, " has more elements than ",
                                         "a 64-bit index counts"));
      }
    }
  }
  return count;
}

}  // namespace detail

/// Equal when every element is (Dims of different ranks do not compare).
template <int N>
TENSORX_HOST_DEVICE constexpr bool operator==(const Dim<N>& a, const Dim<N>& b) {
  if constexpr (N == 0) {
    return true;
  } else {
    return a.head == b.head && a.tail == b.tail;
  }
}
/// !(a == b).
template <int N>
TENSORX_HOST_DEVICE constexpr bool operator!=(const Dim<N>& a, const Dim<N>& b) {
  return !(a == b);
}

/// Row-major strides of a dense array of this extent: (2, 3, 4) gives (12, 4, 1).
template <int N>
TENSORX_HOST_DEVICE constexpr Dim<N> contiguous_strides(const Dim<N>& extent) {
  Dim<N> strides;
  if constexpr (N > 0) {
    index_t stride = 1;
    for (int i = N - 1; i >= 0; --i) {
      strides.at(i) = stride;
      stride *= extent.at(i);
    }
  }
  return strides;
}

/// The offset of an index under the given strides: the sum of index[i] * strides[i].
template <int N>
TENSORX_HOST_DEVICE constexpr index_t linearize(const Dim<N>& index, const Dim<N>& strides) {
  if constexpr (N == 0) {
    return 0;
  } else {
    return index.head * strides.head + linearize(index.tail, strides.tail);
  }
}

/// The row-major index of the offset-th element of an array of the given extent.
template <int N>
TENSORX_HOST_DEVICE constexpr Dim<N> delinearize(index_t offset, const Dim<N>& extent) {
  Dim<N> index;
  if constexpr (N > 0) {
    for (int i = N - 1; i >= 0; --i) {
      const index_t size = extent.at(i);
      index.at(i) = size == 0 ? 0 : offset % size;
      offset = size == 0 ? 0 : offset / size;
    }
  }
  return index;
}

/// True when every index is inside the extent: 0 <= index[i] < extent[i].
template <int N>
TENSORX_HOST_DEVICE constexpr bool contains(const Dim<N>& extent, const Dim<N>& index) {
  if constexpr (N > 0) {
    for (int i = 0; i < N; ++i) {
      if (index.at(i) < 0 || index.at(i) >= extent.at(i)) return false;
    }
  }
  return true;
}

/// Prints "(2, 3, 4)"; Dim<0> prints "()".
template <int N>
std::ostream& operator<<(std::ostream& out, const Dim<N>& d) {
  out << '(';
  if constexpr (N > 0) {
    for (int i = 0; i < N; ++i) out << (i ? ", " : "") << d.at(i);
  }
  return out << ')';
}

}  // namespace tensorx
