// The reducers chosen at run time, and the checks every reduction makes before any work: the
// reducer a ReduceOp names (for the compiled layer and the DArray forms), and the error for a
// reducer without identity (max, min, argmax, argmin) over no elements.
#pragma once

#include <sstream>
#include <string>

#include "tensorx/core/error.h"
#include "tensorx/reduce/reducers.h"
#include "tensorx/shape/dim.h"

namespace tensorx {
namespace detail {

/// Calls f(reducer{}) with the reducer struct that `op` names; TypeError for any other value.
template <class F>
decltype(auto) reducer_switch(ReduceOp op, F&& f) {
  switch (op) {
    case ReduceOp::kSum:
      return f(op::sum_reducer{});
    case ReduceOp::kMean:
      return f(op::mean_reducer{});
    case ReduceOp::kMax:
      return f(op::max_reducer{});
    case ReduceOp::kMin:
      return f(op::min_reducer{});
    case ReduceOp::kProd:
      return f(op::prod_reducer{});
    case ReduceOp::kArgMax:
      return f(op::argmax_reducer{});
    case ReduceOp::kArgMin:
      return f(op::argmin_reducer{});
  }
  throw TypeError(message("ReduceOp value ", static_cast<int>(op), " is not a reduction"));
}

/// Prints the axes of `mask` as "(0, 2)".
inline std::string axes_text(unsigned mask) {
  std::ostringstream out;
  out << '(';
  bool first = true;
  for (int i = 0; mask >> i; ++i) {
    if ((mask >> i) & 1u) {
      out << (first ? "" : ", ") << i;
      first = false;
    }
  }
  out << ')';
  return out.str();
}

/// Throws ShapeError when reducer Op has no identity (max, min, argmax, argmin) and the axes in
/// `mask` of an operand of extent `dims` hold no elements while some result exists.
template <class Op, int M>
void check_reducible(const Dim<M>& dims, unsigned mask) {
  if constexpr (!Op::kHasIdentity && M > 0) {
    index_t reduced = 1, results = 1;
    for (int i = 0; i < M; ++i) ((mask >> i) & 1u ? reduced : results) *= dims.at(i);
    if (reduced == 0 && results > 0) {
      throw ShapeError(message("tx::", Op::kName, " over axes ", axes_text(mask),
                               " of an expression of shape ", dims,
                               " has no elements to choose from"));
    }
  }
}

}  // namespace detail
}  // namespace tensorx
