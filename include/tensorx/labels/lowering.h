// The element-wise and reducing forms of a labelled assignment, lowered onto the engines that
// every expression uses. Each labelled operand becomes a strided view of its array laid over an
// iteration space of labels (permuted by label, stride 0 along labels it lacks, a diagonal's
// strides summed), so the whole right side is an ordinary expression of views:
//  - every label on the left: ONE element-wise pass over the left side, in its label order;
//  - labels missing on the left: ONE reduction (the reduction engine's run-time axis mask) that
//    reads the expression without a temporary, in the memory order of the largest operand.
#pragma once

#include <cstdlib>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "tensorx/engine/assign.h"
#include "tensorx/expr/map_exp.h"
#include "tensorx/expr/scalar_exp.h"
#include "tensorx/labels/label_table.h"
#include "tensorx/labels/labelled_exp.h"
#include "tensorx/labels/small_sort.h"
#include "tensorx/layout/permute_exp.h"
#include "tensorx/layout/permute_writer.h"
#include "tensorx/ops/arithmetic.h"
#include "tensorx/reduce/reduce_writer.h"
#include "tensorx/reduce/reducers.h"

namespace tensorx {
namespace detail {

/// The loops of an element-wise or reducing assignment: axis a carries label ids[a], or is a
/// leading padding axis of extent 1 (id -1) where the space has fewer labels than its rank K.
template <int K>
struct IterationSpace {
  int ids[K > 0 ? K : 1] = {};
  Dim<K> dims;
  unsigned reduced = 0;  // bit a: axis a is summed
};

/// `operand` as a rank-K view over `space`: its stride along each label it has, stride 0 (and
/// extent 1) along the others.
template <class T, int K>
Array<T, K> view_in(const LabelledOperand& operand, const IterationSpace<K>& space) {
  Dim<K> dims;
  Dim<K> strides;
  if constexpr (K > 0) {
    for (int a = 0; a < K; ++a) {
      const int axis = space.ids[a] < 0 ? -1 : operand.axis_of(space.ids[a]);
      dims.at(a) = axis < 0 ? 1 : operand.dims[axis];
      strides.at(a) = axis < 0 ? 0 : operand.strides[axis];
    }
  }
  return Array<T, K>(*operand.buffer, dims, strides, operand.offset);
}

template <class T, int K, int Offset, class Node>
auto lower(const Node& node, const LabelledOperand* operands, const IterationSpace<K>& space);

template <class T, int K, int Offset, class F, class... Args, std::size_t... I>
auto lower_map(const LabelledMap<F, Args...>& node, const LabelledOperand* operands,
               const IterationSpace<K>& space, std::index_sequence<I...>) {
  return MapExp<T, F,
                decltype(lower<T, K, Offset + leaf_offset<I, Args...>()>(std::get<I>(node.args()),
                                                                         operands, space))...>(
      node.functor(), lower<T, K, Offset + leaf_offset<I, Args...>()>(std::get<I>(node.args()),
                                                                      operands, space)...);
}

/// The ordinary expression that a labelled node is over `space`: leaves become views of
/// operands[Offset ...], numbers ScalarExp<T>, and LabelledMap the MapExp of the same functor.
template <class T, int K, int Offset, class Node>
auto lower(const Node& node, const LabelledOperand* operands, const IterationSpace<K>& space) {
  if constexpr (is_labelled_leaf_v<Node>) {
    return view_in<T>(operands[Offset], space);
  } else if constexpr (Node::leaf_count == 0) {
    return ScalarExp<T>(static_cast<T>(node.value()));
  } else {
    return lower_map<T, K, Offset>(
        node, operands, space,
        std::make_index_sequence<std::tuple_size_v<std::decay_t<decltype(node.args())>>>{});
  }
}

/// The space of an element-wise assignment: the left side's labels in its order.
template <int R>
IterationSpace<R> elementwise_space(const LabelledOperand& target) {
  IterationSpace<R> space;
  if constexpr (R > 0) {
    const int padding = R - target.rank;
    for (int a = 0; a < R; ++a) {
      space.ids[a] = a < padding ? -1 : target.ids[a - padding];
      space.dims.at(a) = a < padding ? 1 : target.dims[a - padding];
    }
  }
  return space;
}

/// The space of a reduction: the left side's labels and the summed ones, ordered by decreasing
/// stride in the largest operand (labels it lacks outermost), so that the reduction reads it in
/// memory order.
template <int K>
IterationSpace<K> reduction_space(const LabelTable& table, const LabelledOperand& target,
                                  LabelMask summed, const LabelledOperand* operands, int count) {
  int ids[kMaxLabels];
  int n = 0;
  for (int i = 0; i < target.rank; ++i) ids[n++] = target.ids[i];
  for (int id = 0; id < table.size; ++id) {
    if ((summed >> id) & 1u) ids[n++] = id;
  }
  if (n > K) {
    throw LabelError(message("a labelled element-wise or reducing expression runs over at most ",
                             kMaxRank, " labels, but the one assigned to ", *target.labels, " has ",
                             n));
  }
  const LabelledOperand* dominant = &operands[0];
  for (int i = 1; i < count; ++i) {
    if (operands[i].numel() > dominant->numel()) dominant = &operands[i];
  }
  auto key = [&](int id) {
    const int axis = dominant->axis_of(id);
    return axis < 0 ? std::numeric_limits<index_t>::max() : std::abs(dominant->strides[axis]);
  };
  small_stable_sort(ids, ids + n, [&](int a, int b) { return key(a) > key(b); });
  IterationSpace<K> space;
  const int padding = K - n;
  for (int a = 0; a < K; ++a) {
    const int id = a < padding ? -1 : ids[a - padding];
    space.ids[a] = id;
    space.dims.at(a) = id < 0 ? 1 : table.extents[id];
    if (id >= 0 && ((summed >> id) & 1u)) space.reduced |= 1u << a;
  }
  return space;
}

/// dst = Saver(dst, tree) in ONE pass over the target (rank at most R).
template <class Saver, class TU, class T, int R, class Tree>
void run_elementwise(const LabelledOperand& target, const Tree& tree,
                     const LabelledOperand* operands) {
  const IterationSpace<R> space = elementwise_space<R>(target);
  const Array<T, R> dst = view_in<T>(target, space);
  const auto e = lower<T, R, 0>(tree, operands, space);
  if constexpr (is_labelled_leaf_v<Tree> && R > 0) {
    // A lone permuted operand is a copy: the permute writer tiles it when that pays.
    Dim<R> identity;
    for (int i = 0; i < R; ++i) identity.at(i) = i;
    DirectWriter<PermuteExp<Array<T, R>, R>>::template write<Saver, TU>(
        PermuteExp<Array<T, R>, R>(e, identity), dst);
  } else {
    evaluate_elementwise<Saver, TU>(dst, e);
  }
}

/// dst = Saver(dst, the sum of tree over the labels in `summed`) in ONE reduction (rank K space).
template <class Saver, class TU, class T, int K, class Tree>
void run_reduction(const LabelTable& table, const LabelledOperand& target, LabelMask summed,
                   const Tree& tree, const LabelledOperand* operands, int count) {
  const IterationSpace<K> space = reduction_space<K>(table, target, summed, operands, count);
  Dim<K> dims;
  Dim<K> strides;
  for (int a = 0; a < K; ++a) {
    const int axis = space.ids[a] < 0 ? -1 : target.axis_of(space.ids[a]);
    dims.at(a) = axis < 0 ? 1 : target.dims[axis];
    strides.at(a) = axis < 0 ? 0 : target.strides[axis];
  }
  const Array<T, K> dst(*target.buffer, dims, strides, target.offset);
  write_reduction<op::sum_reducer, Saver, TU>(lower<T, K, 0>(tree, operands, space), space.reduced,
                                              dst);
}

/// The rank of the space a reduction of Tree may need: its labels, at most kMaxRank.
template <class Tree>
constexpr int reduction_rank = Tree::max_labels < kMaxRank ? Tree::max_labels : kMaxRank;

/// target = Saver(target, tree summed over `summed`): one element-wise pass or one reduction.
/// `operands` are the tree's leaves; R bounds the target's rank.
template <class Saver, class TU, class T, int R, class Tree>
void assign_general(const LabelTable& table, const LabelledOperand& target, LabelMask summed,
                    const Tree& tree, const LabelledOperand* operands) {
  if (summed == 0) {
    run_elementwise<Saver, TU, T, R>(target, tree, operands);
  } else if constexpr (Tree::max_labels > 0) {
    run_reduction<Saver, TU, T, reduction_rank<Tree>>(table, target, summed, tree, operands,
                                                      Tree::leaf_count);
  }
}

/// The top-level terms of a right side (the operands of its outermost + and -, through unary
/// minus and scalar factors) must each carry every summed label: a term without one would be
/// added once per value of that label, which is never what Einstein notation means. Throws
/// LabelError naming the label and the term otherwise.
template <int Offset, class Node>
void check_terms(const Node& node, const LabelledOperand* operands, const LabelTable& table,
                 LabelMask summed) {
  if constexpr (!is_labelled_leaf_v<Node> && Node::leaf_count > 0) {
    using Args = std::decay_t<decltype(node.args())>;
    using F = std::decay_t<decltype(node.functor())>;
    constexpr bool kUnary = std::tuple_size_v<Args> == 1;
    if constexpr (std::is_same_v<F, op::plus> || std::is_same_v<F, op::minus>) {
      using L = std::tuple_element_t<0, Args>;
      check_terms<Offset>(std::get<0>(node.args()), operands, table, summed);
      check_terms<Offset + L::leaf_count>(std::get<1>(node.args()), operands, table, summed);
      return;
    } else if constexpr (kUnary) {
      check_terms<Offset>(std::get<0>(node.args()), operands, table, summed);
      return;
    } else if constexpr ((std::is_same_v<F, op::multiplies> ||
                          std::is_same_v<F, op::divides>)&&std::tuple_element_t<1,
                                                                                Args>::leaf_count ==
                         0) {
      check_terms<Offset>(std::get<0>(node.args()), operands, table, summed);
      return;
    } else if constexpr (std::is_same_v<F, op::multiplies> &&
                         std::tuple_element_t<0, Args>::leaf_count == 0) {
      check_terms<Offset>(std::get<1>(node.args()), operands, table, summed);
      return;
    }
  }
  LabelMask mask = 0;
  for (int i = 0; i < Node::leaf_count; ++i) mask |= operands[Offset + i].mask;
  const LabelMask missing = summed & ~mask;
  if (missing != 0) {
    int id = 0;
    while (!((missing >> id) & 1u)) ++id;
    const std::string term = Node::leaf_count == 0 ? std::string("a number")
                                                   : message("the term that starts with operand ",
                                                             *operands[Offset].labels);
    throw LabelError(message("label ", table.labels[id].name(),
                             " is summed (it is not on the left), but ", term,
                             " does not have it, so the sum would add that term ",
                             table.extents[id], " times; assign it in a statement of its own"));
  }
}

}  // namespace detail
}  // namespace tensorx
