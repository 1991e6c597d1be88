// The protocol every expression node follows, and the traits the engines read from it.
//
// A node is an immutable value deriving from Exp<Node> with
//   value_type, rank, dims()                     what it computes, and its extent;
//   prepare(node, place)                         the node with every part that cannot fuse
//                                                materialised into arrays (Alea's Prepare phase);
//   make_plan(node, out_dims)                    a trivially-copyable Plan evaluated per element
//                                                by the engines (mshadow's split);
//   for_each_array(node, f)                      every array the node reads (place and alias
//   checks).
// Arrays are the leaves (array_leaf.h); scalars adopt the element type of what they join.
#pragma once

#include <type_traits>

#include "tensorx/core/float16.h"

namespace tensorx {

template <class T, int N>
class Array;

/// Base of every expression node (CRTP).
template <class Derived>
struct Exp {
  const Derived& self() const { return static_cast<const Derived&>(*this); }
};

namespace detail {
template <class E>
struct is_array : std::false_type {};
template <class T, int N>
struct is_array<Array<T, N>> : std::true_type {};
}  // namespace detail

/// True for arrays and expression nodes: what the operators and engines accept.
template <class E>
constexpr bool is_expression_v = detail::is_array<std::decay_t<E>>::value ||
                                 std::is_base_of_v<Exp<std::decay_t<E>>, std::decay_t<E>>;

/// The type elements are computed in: float16 is stored as binary16 but computed in float.
template <class T>
struct compute_type {
  using type = T;
};
template <>
struct compute_type<float16> {
  using type = float;
};
template <class T>
using compute_t = typename compute_type<T>::type;

/// Converts a computed value to the stored element type.
template <class T, class C>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T to_storage(const C& value) {
  return static_cast<T>(value);
}

}  // namespace tensorx
