// What counts as an expression, for the layers below expr/ that must recognise one without knowing
// any node: Array's assignment operators accept exactly the types is_expression_v admits. The node
// protocol itself is written down in expr/exp.h.
#pragma once

#include <type_traits>

namespace tensorx {

template <class T, int N>
class Array;

/// Base of every expression node (CRTP): deriving from Exp<Node> is what makes a node an
/// expression (is_expression_v) that the operators, functions and assignments accept. The
/// protocol a node follows is in tensorx/expr/exp.h and docs/nodes.md.
template <class Derived>
struct Exp {
  /// The node itself, as its own type.
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

}  // namespace tensorx
