// materialise(e, context): an expression evaluated into a new array on the context's place, for
// nodes that need an operand in memory (the indices of a gather, a product's operands, the
// operand of a permuted expression) and for nodes that prepare() replaces by their value (a
// reduction or a product inside a larger expression). An array is returned as it is.
#pragma once

#include "tensorx/array/array.h"
#include "tensorx/engine/assign.h"
#include "tensorx/expr/eval_context.h"
#include "tensorx/expr/exp.h"
#include "tensorx/expr/saver.h"

namespace tensorx {
namespace detail {

template <class E, class TU>
auto materialise(const E& e, const EvalContext<TU>& context) {
  if constexpr (is_array<E>::value) {
    return e;
  } else {
    Array<typename E::value_type, E::rank> result(e.dims(), context.place);
    evaluate<saver::write, TU>(result, e);
    return result;
  }
}

}  // namespace detail
}  // namespace tensorx
