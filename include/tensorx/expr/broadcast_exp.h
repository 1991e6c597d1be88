// tx::broadcast_to: an expression stretched to a larger extent by NumPy's rules (right-aligned,
// missing dimensions and dimensions of extent 1 stretch). No data moves: the stretched operands
// are read with stride 0 along the new dimensions.
#pragma once

#include "tensorx/expr/array_leaf.h"
#include "tensorx/expr/broadcast.h"
#include "tensorx/expr/exp.h"
#include "tensorx/expr/scalar_exp.h"

namespace tensorx {

/// The node of tx::broadcast_to: operand E stretched to rank N and extent dims().
template <class E, int N>
class BroadcastExp : public Exp<BroadcastExp<E, N>> {
 public:
  /// The operand's element type.
  using value_type = typename E::value_type;
  /// The target rank.
  static constexpr int rank = N;
  static_assert(E::rank <= N, "tx::broadcast_to cannot lower the rank of an expression.");

  /// `e` stretched to `dims`; checked by dims(), when the node is evaluated.
  BroadcastExp(E e, const Dim<N>& dims) : e_(std::move(e)), dims_(dims) {}

  /// The stretched operand.
  const E& operand() const { return e_; }
  /// The target extent; throws ShapeError when the operand does not stretch to it.
  Dim<N> dims() const {
    if (!detail::stretches_to(e_.dims(), dims_)) {
      throw ShapeError(detail::message("cannot broadcast shape ", e_.dims(), " to shape ", dims_));
    }
    return dims_;
  }

 private:
  E e_;
  Dim<N> dims_;
};

/// `e` stretched to `dims` (an array, an expression or a number) by NumPy's rules, without moving
/// data; a lazy node, evaluated where it is assigned. An extent that does not stretch throws
/// ShapeError naming both shapes when it is assigned.
template <class E, int N>
auto broadcast_to(const E& e, const Dim<N>& dims) {
  if constexpr (is_expression_v<E>) {
    return BroadcastExp<E, N>(e, dims);
  } else {
    return BroadcastExp<ScalarExp<E>, N>(ScalarExp<E>(e), dims);
  }
}

///@{
/// The node protocol (expr/exp.h) for BroadcastExp: the operand's, with the operand planned in
/// the larger iteration space (stride 0 along stretched extents).
template <class E, int N, class Context>
decltype(auto) prepare(const BroadcastExp<E, N>& b, const Context& context) {
  using Prepared = decltype(prepare(b.operand(), context));
  if constexpr (detail::prepared_itself_v<Prepared, E>) {
    static_cast<void>(b.dims());  // the check that constructing a prepared copy would make
    return b;
  } else {
    return BroadcastExp<std::decay_t<Prepared>, N>(prepare(b.operand(), context), b.dims());
  }
}

// Plans of operands are right-aligned to the iteration space with stride 0 for extents of 1, so
// the stretched operand's own plan already reads the broadcast elements.
template <int M, class E, int N>
auto make_plan(const BroadcastExp<E, N>& b, const Dim<M>& out_dims) {
  return make_plan(b.operand(), out_dims);
}

template <class E, int N, class F>
void for_each_array(const BroadcastExp<E, N>& b, F&& f) {
  for_each_array(b.operand(), f);
}
///@}

}  // namespace tensorx
