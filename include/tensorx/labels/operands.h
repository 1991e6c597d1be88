// The operands of a labelled expression, read for an element type T: its leaves, depth-first and
// left to right, become LabelledOperands and fill the assignment's LabelTable. A DArray leaf is
// read as the typed array it holds (TypeError unless its elements are T).
#pragma once

#include <type_traits>
#include <utility>

#include <boost/variant.hpp>

#include "tensorx/array/darray.h"
#include "tensorx/core/data_type.h"
#include "tensorx/labels/label_table.h"
#include "tensorx/labels/labelled_array.h"
#include "tensorx/labels/labelled_darray.h"

namespace tensorx {
namespace detail {

template <class T, int N>
void add_array(LabelTable& table, const Array<T, N>& array, const LabelList& labels,
               LabelledOperand& out) {
  index_t dims[N > 0 ? N : 1] = {};
  index_t strides[N > 0 ? N : 1] = {};
  if constexpr (N > 0) {
    for (int i = 0; i < N; ++i) {
      dims[i] = array.dims().at(i);
      strides[i] = array.strides().at(i);
    }
  }
  add_operand(table, labels, dims, strides, &array.buffer(), array.offset(), out);
}

/// Adds the typed array that a DArray holds. The operand points into the DArray itself (not into
/// a copy of its handle), which lives as long as the expression. D is DArray (a parameter, so that
/// the compiler looks at it only when a DArray is labelled: array/darray.h).
template <class T, class D>
void add_darray(LabelTable& table, const D& x, const LabelList& labels, LabelledOperand& out) {
  const auto* typed = boost::get<TypedDArray<T>>(static_cast<const DArrayVariant*>(&x));
  if (typed == nullptr) {
    throw TypeError(message("operand ", labels, " holds ", dtype(x),
                            " elements but the labelled expression computes in ", data_type_of<T>(),
                            "; every operand needs one element type"));
  }
  boost::apply_visitor([&](const auto& array) { add_array(table, array, labels, out); }, *typed);
}

template <class T, int Offset, class Node>
void gather(const Node& node, LabelTable& table, LabelledOperand* out);

template <class T, int Offset, class F, class... Args, std::size_t... I>
void gather_arguments(const LabelledMap<F, Args...>& node, LabelTable& table, LabelledOperand* out,
                      std::index_sequence<I...>) {
  (gather<T, Offset + leaf_offset<I, Args...>()>(std::get<I>(node.args()), table, out), ...);
}

/// Reads every leaf of `node` into out[Offset ...] and `table`.
template <class T, int Offset, class Node>
void gather(const Node& node, LabelTable& table, LabelledOperand* out) {
  if constexpr (std::is_same_v<Node, LabelledDArray>) {
    add_darray<T>(table, node.array(), node.labels(), out[Offset]);
  } else if constexpr (is_labelled_leaf_v<Node>) {
    static_assert(std::is_same_v<typename Node::value_type, T>,
                  "A labelled array's element type differs from the expression's.");
    add_array(table, node.array(), node.labels(), out[Offset]);
  } else if constexpr (Node::leaf_count > 0) {
    gather_arguments<T, Offset>(
        node, table, out,
        std::make_index_sequence<std::tuple_size_v<std::decay_t<decltype(node.args())>>>{});
  }
}

/// The labels of the `Count` operands from `operands` on.
template <int Count>
LabelMask mask_of(const LabelledOperand* operands) {
  LabelMask mask = 0;
  for (int i = 0; i < Count; ++i) mask |= operands[i].mask;
  return mask;
}

}  // namespace detail
}  // namespace tensorx
