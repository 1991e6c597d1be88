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

/// Element I of a pack, of type T: a base of the pack, so that pack_get<I> finds it by deduction
/// instead of recursing through I nested packs, and one pack_get<I, T> serves every pack with a T
/// at position I.
template <std::size_t I, class T>
struct PackSlot {
  T value;
};

template <class Indices, class... Ts>
struct PackSlots;
template <std::size_t... I, class... Ts>
struct PackSlots<std::index_sequence<I...>, Ts...> : PackSlot<I, Ts>... {};

/// An aggregate: PlanPack<A, B>{{a}, {b}} (make_plan_pack and make_operand_pack write it). An
/// alias, not a class of its own deriving from PackSlots: one level less of constructors and
/// destructors for every pack type.
template <class... Ts>
using PlanPack = PackSlots<std::index_sequence_for<Ts...>, Ts...>;

template <std::size_t I, class T>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE const T& pack_get(const PackSlot<I, T>& slot) {
  return slot.value;
}

template <class... Ts>
TENSORX_HOST_DEVICE PlanPack<Ts...> make_plan_pack(const Ts&... values) {
  return PlanPack<Ts...>{{values}...};
}

/// make_plan_pack for the operands of a node, which may hold arrays (host-only handles): nvcc
/// rejects a __host__ __device__ instantiation that copies one when an extended lambda is among
/// the pack's types.
template <class... Ts>
PlanPack<Ts...> make_operand_pack(const Ts&... values) {
  return PlanPack<Ts...>{{values}...};
}

/// f(element 0, ..., element n - 1): std::apply for a PlanPack. It names the slots' type, which
/// PlanPack is an alias of: nvcc does not deduce a pack's types through the alias.
template <class F, std::size_t... I, class... Ts>
decltype(auto) apply_pack(F&& f, const PackSlots<std::index_sequence<I...>, Ts...>& pack) {
  return f(pack_get<I>(pack)...);
}

}  // namespace detail
}  // namespace tensorx
