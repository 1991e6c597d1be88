// How the engines read a plan's optional members (expr/exp.h lists them): the member where the
// plan has it, otherwise a default built from the required ones. Nodes whose elements do not lie
// in memory (gathers, one-hot, concatenations) thereby write only at, flat and visit_leaves.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "tensorx/core/config.h"
#include "tensorx/core/lanes.h"
#include "tensorx/shape/dim.h"

namespace tensorx {
namespace detail {

/// The compute type of a plan's elements.
template <class Plan>
using plan_value_t = std::decay_t<decltype(std::declval<const Plan&>().flat(index_t{}))>;

template <class Plan, class = void>
struct has_flat_row : std::false_type {};
template <class Plan>
struct has_flat_row<Plan, std::void_t<decltype(std::declval<const Plan&>().flat_row())>>
    : std::true_type {};

template <class Plan, int N, class = void>
struct has_row : std::false_type {};
template <class Plan, int N>
struct has_row<Plan, N, std::void_t<decltype(std::declval<const Plan&>().row(Dim<N>()))>>
    : std::true_type {};

template <class Plan, int V, int N, class = void>
struct has_load_at : std::false_type {};
template <class Plan, int V, int N>
struct has_load_at<Plan, V, N,
                   std::void_t<decltype(std::declval<const Plan&>().template load_at<V>(
                       std::declval<const Dim<N>&>()))>> : std::true_type {};

template <class Plan, int V, class = void>
struct has_load : std::false_type {};
template <class Plan, int V>
struct has_load<Plan, V,
                std::void_t<decltype(std::declval<const Plan&>().template load<V>(index_t{}))>>
    : std::true_type {};

template <class Row, class B, class = void>
struct has_batch : std::false_type {};
template <class Row, class B>
struct has_batch<Row, B,
                 std::void_t<decltype(std::declval<const Row&>().template batch<B>(index_t{}))>>
    : std::true_type {};

template <class Plan, class B, class = void>
struct declares_vectorizable : std::false_type {};
template <class Plan, class B>
struct declares_vectorizable<
    Plan, B, std::void_t<std::integral_constant<bool, Plan::template vectorizable<B>>>>
    : std::true_type {};

/// True when the plan's rows compute in SIMD batches of type B (false unless it says so).
template <class Plan, class B>
constexpr bool vectorizable_v = [] {
  if constexpr (declares_vectorizable<Plan, B>::value) {
    return Plan::template vectorizable<B>;
  } else {
    return false;
  }
}();

/// The batch whose lane l is lane(l), for l in 0 .. B::size - 1 (host code: batches are the CPU
/// engine's).
template <class B, class LaneFunction>
TENSORX_FORCE_INLINE B batch_of_lanes(LaneFunction&& lane) {
  alignas(B) typename B::value_type values[B::size];
  for (std::size_t l = 0; l < B::size; ++l) values[l] = lane(static_cast<index_t>(l));
  return B::load_aligned(values);
}

/// Lanes j .. j + B::size - 1 of a row plan.
template <class B, class Row>
TENSORX_FORCE_INLINE B batch_of(const Row& row, index_t j) {
  if constexpr (has_batch<Row, B>::value) {
    return row.template batch<B>(j);
  } else {
    return batch_of_lanes<B>([&](index_t l) { return row.get(j + l); });
  }
}

/// Elements i .. i + V - 1 of a dense plan as lanes of its compute type.
template <int V, class Plan>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE Lanes<plan_value_t<Plan>, V> load_of(const Plan& plan,
                                                                              index_t i) {
  if constexpr (has_load<Plan, V>::value) {
    return plan.template load<V>(i);
  } else {
    Lanes<plan_value_t<Plan>, V> lanes;
    TENSORX_UNROLL
    for (int k = 0; k < V; ++k) lanes[k] = plan.flat(i + k);
    return lanes;
  }
}

/// Elements index, index + (0, .., 0, 1), .., index + (0, .., 0, V - 1) of a plan (V consecutive
/// elements along the last axis, rank N >= 1) as lanes of its compute type: the CUDA indexed kernel
/// along rows.
template <int V, class Plan, int N>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE Lanes<plan_value_t<Plan>, V> load_at_of(
    const Plan& plan, const Dim<N>& index) {
  if constexpr (has_load_at<Plan, V, N>::value) {
    return plan.template load_at<V>(index);
  } else {
    Lanes<plan_value_t<Plan>, V> lanes;
    Dim<N> at = index;
    TENSORX_UNROLL
    for (int k = 0; k < V; ++k) {
      at.at(N - 1) = index.at(N - 1) + k;
      lanes[k] = plan.at(at);
    }
    return lanes;
  }
}

/// The default row of a plan without one: element j read through at() (get, and flat for the
/// GPU's contiguous row sweeps, reduce/contiguous_row.h), V of them through load_at.
template <class Plan, int N>
struct RowThroughAt {
  Plan plan;
  Dim<N> start;

  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE auto get(index_t j) const { return plan.at(at(j)); }
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE auto flat(index_t j) const { return plan.at(at(j)); }
  template <int V>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE Lanes<plan_value_t<Plan>, V> load(index_t j) const {
    return load_at_of<V>(plan, at(j));
  }

 private:
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE Dim<N> at(index_t j) const {
    Dim<N> index = start;
    index.at(N - 1) += j;
    return index;
  }
};

/// The default flat row: element j is plan.flat(j).
template <class Plan>
struct FlatRow {
  Plan plan;

  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE auto get(index_t j) const { return plan.flat(j); }
};

/// The row of `plan` that starts at index `start` (of an iteration space of rank N >= 1).
template <class Plan, int N>
TENSORX_FORCE_INLINE auto row_of(const Plan& plan, const Dim<N>& start) {
  if constexpr (has_row<Plan, N>::value) {
    return plan.row(start);
  } else {
    return RowThroughAt<Plan, N>{plan, start};
  }
}

/// The row of a dense plan: element j is plan.flat(j).
template <class Plan>
TENSORX_FORCE_INLINE auto flat_row_of(const Plan& plan) {
  if constexpr (has_flat_row<Plan>::value) {
    return plan.flat_row();
  } else {
    return FlatRow<Plan>{plan};
  }
}

template <class T, int N>
struct LeafPlan;

/// The size in bytes of the narrowest element a plan reads from memory, or 0 where it reads none
/// (a scalar) or is of a kind this does not look into: the CUDA kernels choose their vector width
/// from it, so that every operand is read 16 bytes at a time. Plans of arrays are LeafPlans; a
/// plan whose parameters are all types (MapPlan) reads what its parameters read.
template <class Plan>
struct narrowest_load : std::integral_constant<std::size_t, 0> {};
template <class T, int N>
struct narrowest_load<LeafPlan<T, N>> : std::integral_constant<std::size_t, sizeof(T)> {};

/// The smallest of `sizes` that is not 0, or 0.
template <class... Sizes>
constexpr std::size_t smallest_nonzero(Sizes... sizes) {
  std::size_t smallest = 0;
  for (const std::size_t size : {std::size_t{0}, static_cast<std::size_t>(sizes)...}) {
    if (size != 0 && (smallest == 0 || size < smallest)) smallest = size;
  }
  return smallest;
}

template <template <class...> class Node, class... Parts>
struct narrowest_load<Node<Parts...>>
    : std::integral_constant<std::size_t, smallest_nonzero(narrowest_load<Parts>::value...)> {};
template <class Plan>
constexpr std::size_t narrowest_load_v = narrowest_load<Plan>::value;

}  // namespace detail
}  // namespace tensorx
