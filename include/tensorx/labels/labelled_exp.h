// The nodes of a labelled (Einstein-notation) expression: labelled arrays are its leaves
// (labelled_array.h, labelled_darray.h), numbers join as LabelledScalar, and one generic
// LabelledMap applies + - * / to its operands. Nothing is computed while the expression is built:
// how it runs (one fused pass, one reduction, or GEMMs) depends on the labels of the left side,
// which only the assignment knows (labelled_assign.h).
#pragma once

#include <tuple>
#include <type_traits>
#include <utility>

#include "tensorx/core/float16.h"

namespace tensorx {

/// Base of every labelled expression node (CRTP).
template <class Derived>
struct LabelledExp {
  /// The node itself, as its own type.
  const Derived& self() const { return static_cast<const Derived&>(*this); }
};

/// Base of the leaves: labelled arrays, whose operands the assignment reads in leaf order.
template <class Derived>
struct LabelledLeaf : LabelledExp<Derived> {};

/// True for labelled arrays and the expressions built from them.
template <class E>
constexpr bool is_labelled_v = std::is_base_of_v<LabelledExp<std::decay_t<E>>, std::decay_t<E>>;

/// A number inside a labelled expression; it takes the element type of the arrays it joins.
template <class V>
class LabelledScalar : public LabelledExp<LabelledScalar<V>> {
 public:
  /// void: the number adopts the expression's element type.
  using value_type = void;
  /// A number brings no labels.
  static constexpr int max_labels = 0;
  /// A number is no leaf.
  static constexpr int leaf_count = 0;

  /// The node of `value`.
  explicit LabelledScalar(V value) : value_(value) {}
  /// The number.
  V value() const { return value_; }

 private:
  V value_;
};

/// True for the leaves of a labelled expression.
template <class E>
constexpr bool is_labelled_leaf_v =
    std::is_base_of_v<LabelledLeaf<std::decay_t<E>>, std::decay_t<E>>;

namespace detail {

/// The element type shared by labelled nodes, void while only DArrays and numbers are involved
/// (their element type is known when the assignment runs).
template <class... Nodes>
struct labelled_value;
template <>
struct labelled_value<> {
  using type = void;
};
template <class Node, class... Rest>
struct labelled_value<Node, Rest...> {
  using first = typename Node::value_type;
  using rest = typename labelled_value<Rest...>::type;
  static_assert(std::is_void_v<first> || std::is_void_v<rest> || std::is_same_v<first, rest>,
                "Labelled arrays of different element types cannot be mixed in one expression: "
                "copy one into an array of the other's element type first (tx::cast).");
  using type = std::conditional_t<std::is_void_v<first>, rest, first>;
};

}  // namespace detail

/// F applied element by element to labelled operands (+, -, *, / and unary -).
template <class F, class... Args>
class LabelledMap : public LabelledExp<LabelledMap<F, Args...>> {
 public:
  /// The operands' element type (void while only DArrays and numbers are involved).
  using value_type = typename detail::labelled_value<Args...>::type;
  /// At most this many distinct labels (the sum over the leaves): the rank of the iteration
  /// space that a reduction of this expression may need, known at compile time.
  static constexpr int max_labels = (Args::max_labels + ...);
  /// The number of labelled arrays among the operands, recursively.
  static constexpr int leaf_count = (Args::leaf_count + ...);

  /// `functor` over `args`, held by value.
  explicit LabelledMap(F functor, Args... args) : functor_(functor), args_(std::move(args)...) {}

  /// The functor applied.
  const F& functor() const { return functor_; }
  /// The operands.
  const std::tuple<Args...>& args() const { return args_; }

 private:
  F functor_;
  std::tuple<Args...> args_;
};

namespace detail {

/// The index of the first leaf of argument I of a node whose arguments are Args (leaves are
/// numbered depth-first, left to right: the order of the assignment's operand list).
template <std::size_t I, class... Args>
constexpr int leaf_offset() {
  constexpr int counts[] = {Args::leaf_count..., 0};
  constexpr int count = static_cast<int>(I);  // signed: nvcc flags `i < I` as pointless for I = 0
  int offset = 0;
  for (int i = 0; i < count; ++i) offset += counts[i];
  return offset;
}

}  // namespace detail
}  // namespace tensorx
