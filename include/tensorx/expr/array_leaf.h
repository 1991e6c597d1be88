// Arrays as expression leaves: the plan of an array reads its elements through strides laid over
// the destination's iteration space, where broadcast dimensions (missing, or of size 1) get stride
// 0.
#pragma once

#include <cstdint>
#include <type_traits>

#include "tensorx/array/array.h"
#include "tensorx/core/lanes.h"
#include "tensorx/core/simd_storage.h"
#include "tensorx/expr/exp.h"

namespace tensorx {
namespace detail {

/// One row of a leaf: elements base[j * stride] for j along the innermost dimension.
template <class T>
struct RowLeafPlan {
  const T* base;
  index_t stride;

  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE compute_t<T> get(index_t j) const {
    return static_cast<compute_t<T>>(base[j * stride]);
  }
  /// Lanes j .. j + B::size - 1; only used when stride is 0 (a broadcast row) or 1.
  template <class B>
  TENSORX_FORCE_INLINE B batch(index_t j) const {
    return stride == 0 ? B(get(0)) : load_batch<B>(base + j);
  }
};

/// A leaf in an N-dimensional iteration space.
template <class T, int N>
struct LeafPlan {
  const T* data;
  Dim<N> strides;

  template <class B>
  static constexpr bool vectorizable = batch_storage_v<T, B>;

  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE compute_t<T> at(const Dim<N>& index) const {
    return static_cast<compute_t<T>>(data[linearize(index, strides)]);
  }
  /// Element i of a leaf that is dense in the iteration space (see dense_in).
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE compute_t<T> flat(index_t i) const {
    return static_cast<compute_t<T>>(data[i]);
  }
  /// Elements i .. i + V - 1 of a dense leaf whose data is 16-byte aligned, i a multiple of V.
  template <int V>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE Lanes<compute_t<T>, V> load(index_t i) const {
    return load_lanes<compute_t<T>, V>(data + i);
  }
  /// Elements index .. index + V - 1 along the last axis (N >= 1): V loaded at once where the inner
  /// stride is 1 (the address 16-byte aligned, as the rows path checks), one value for all lanes
  /// where it is 0 (broadcast along the row).
  template <int V>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE Lanes<compute_t<T>, V> load_at(
      const Dim<N>& index) const {
    const T* element = data + linearize(index, strides);
    if (strides.at(N - 1) != 0) return load_lanes<compute_t<T>, V>(element);
    Lanes<compute_t<T>, V> lanes;
    const auto value = static_cast<compute_t<T>>(*element);
    TENSORX_UNROLL
    for (int k = 0; k < V; ++k) lanes[k] = value;
    return lanes;
  }
  RowLeafPlan<T> row(const Dim<N>& start) const {
    if constexpr (N == 0) {
      return {data, 0};
    } else {
      return {data + linearize(start, strides), strides.at(N - 1)};
    }
  }
  RowLeafPlan<T> flat_row() const { return {data, 1}; }

  /// Visits this leaf (plans of inner nodes forward to their children).
  template <class Visitor>
  void visit_leaves(Visitor&& visitor) const {
    visitor(data, strides, sizeof(T));
  }
};

/// True for the plan of an array leaf (LeafPlan): what row-local fusion stages and compares, and
/// what the row reduction kernel keeps as stored bytes until it combines them.
template <class Plan>
struct is_leaf_plan : std::false_type {};
template <class T, int N>
struct is_leaf_plan<LeafPlan<T, N>> : std::true_type {};

/// The strides of an array of rank M read in an N-dimensional iteration space (N >= M):
/// right-aligned, with 0 for missing dimensions and for dimensions of extent 1.
template <int N, int M>
Dim<N> broadcast_strides(const Dim<M>& dims, const Dim<M>& strides) {
  static_assert(M <= N, "an operand cannot have a higher rank than the iteration space.");
  Dim<N> out;
  if constexpr (M > 0) {
    for (int i = 0; i < M; ++i) {
      out.at(N - M + i) = dims.at(i) == 1 ? 0 : strides.at(i);
    }
  }
  return out;
}

}  // namespace detail

///@{
/// The node protocol (expr/exp.h) for an array, the leaf: prepared as itself, planned as a
/// strided read right-aligned in the iteration space (stride 0 along extents of 1), and reported
/// as the one array it reads.
template <class T, int N, class Context>
const Array<T, N>& prepare(const Array<T, N>& array, const Context&) {
  return array;
}

template <int N, class T, int M>
detail::LeafPlan<T, N> make_plan(const Array<T, M>& array, const Dim<N>&) {
  return {array.data(), detail::broadcast_strides<N>(array.dims(), array.strides())};
}

template <class T, int N, class F>
void for_each_array(const Array<T, N>& array, F&& f) {
  f(array);
}
///@}

}  // namespace tensorx
