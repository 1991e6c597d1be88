// PlanPack: the operands of a node and the children of a plan, as a tuple that copies into CUDA
// kernels by value (std::tuple is not usable in device code). It is also cheaper to compile than
// std::tuple, whose constructors and std::apply (its noexcept specification asks
// is_nothrow_invocable) are instantiated again for every expression type.
#pragma once

#include <cstddef>
#include <utility>

#include "tensorx/core/config.h"

namespace tensorx {
namespace detail {

template <class... Plans>
struct PlanPack;

template <>
struct PlanPack<> {};

template <class Head, class... Rest>
struct PlanPack<Head, Rest...> {
  Head head;
  PlanPack<Rest...> tail;
};

template <std::size_t I, class Head, class... Rest>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE const auto& pack_get(const PlanPack<Head, Rest...>& pack) {
  if constexpr (I == 0) {
    return pack.head;
  } else {
    return pack_get<I - 1>(pack.tail);
  }
}

TENSORX_HOST_DEVICE inline PlanPack<> make_plan_pack() {
  return {};
}

template <class Head, class... Rest>
TENSORX_HOST_DEVICE PlanPack<Head, Rest...> make_plan_pack(const Head& head, const Rest&... rest) {
  return PlanPack<Head, Rest...>{head, make_plan_pack(rest...)};
}

/// make_plan_pack for the operands of a node, which may hold arrays (host-only handles): nvcc
/// rejects a __host__ __device__ instantiation that copies one when an extended lambda is among
/// the pack's types.
inline PlanPack<> make_operand_pack() {
  return {};
}

template <class Head, class... Rest>
PlanPack<Head, Rest...> make_operand_pack(const Head& head, const Rest&... rest) {
  return PlanPack<Head, Rest...>{head, make_operand_pack(rest...)};
}

template <class F, class Pack, std::size_t... I>
decltype(auto) apply_pack(F&& f, const Pack& pack, std::index_sequence<I...>) {
  return f(pack_get<I>(pack)...);
}

/// f(element 0, ..., element n - 1): std::apply for a PlanPack.
template <class F, class... Ts>
decltype(auto) apply_pack(F&& f, const PlanPack<Ts...>& pack) {
  return apply_pack(f, pack, std::index_sequence_for<Ts...>{});
}

}  // namespace detail
}  // namespace tensorx
