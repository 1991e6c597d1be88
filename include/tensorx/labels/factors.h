// A right side as a product: its factors (the operands of nested *, at compile time) and the
// numbers multiplying them (at run time), which become the BLAS's alpha. Negation and division
// by a number are scalar factors too: -(0.5f * a("i,k") * b("k,j")) / 2 has alpha -0.25.
#pragma once

#include <tuple>
#include <type_traits>

#include "tensorx/expr/exp.h"
#include "tensorx/labels/labelled_exp.h"
#include "tensorx/ops/arithmetic.h"

namespace tensorx {
namespace detail {

/// A factor of a product: a node and the index of its first operand.
template <class Node, int Offset>
struct Factor {
  using node_type = Node;
  static constexpr int offset = Offset;
  const Node* node;
};

template <class Node, class F>
constexpr bool is_map_of_v = false;
template <class F, class... Args>
constexpr bool is_map_of_v<LabelledMap<F, Args...>, F> = true;

/// A number as the expression's element type computes with it (as in an element-wise pass).
template <class T, class V>
double scalar_value(const V& value) {
  return static_cast<double>(static_cast<compute_t<T>>(static_cast<T>(value)));
}

/// The factors of `node` (the leaves of its tree of products that are not numbers), with every
/// number among them multiplied into `alpha`.
template <class T, int Offset, class Node>
auto collect_factors(const Node& node, double& alpha) {
  if constexpr (Node::leaf_count == 0) {
    alpha *= scalar_value<T>(node.value());
    return std::tuple<>();
  } else if constexpr (is_map_of_v<Node, op::multiplies>) {
    using L = std::tuple_element_t<0, std::decay_t<decltype(node.args())>>;
    auto left = collect_factors<T, Offset>(std::get<0>(node.args()), alpha);
    auto right = collect_factors<T, Offset + L::leaf_count>(std::get<1>(node.args()), alpha);
    return std::tuple_cat(left, right);
  } else if constexpr (is_map_of_v<Node, op::negate>) {
    alpha = -alpha;
    return collect_factors<T, Offset>(std::get<0>(node.args()), alpha);
  } else if constexpr (is_map_of_v<Node, op::divides>) {
    using R = std::tuple_element_t<1, std::decay_t<decltype(node.args())>>;
    if constexpr (R::leaf_count == 0) {
      alpha /= scalar_value<T>(std::get<1>(node.args()).value());
      return collect_factors<T, Offset>(std::get<0>(node.args()), alpha);
    } else {
      return std::tuple<Factor<Node, Offset>>{{&node}};
    }
  } else {
    return std::tuple<Factor<Node, Offset>>{{&node}};
  }
}

}  // namespace detail
}  // namespace tensorx
