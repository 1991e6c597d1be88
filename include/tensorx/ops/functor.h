// User code in expressions (mshadow's F<op>): a functor struct applied element-wise with
// tx::F<Op>(operands...), a lambda with tx::map(e, lambda), and element type conversion with
// tx::cast<U>(e). All three are MapExp nodes, so they fuse with the rest of an expression.
#pragma once

#include <type_traits>

#include "tensorx/core/narrow_float.h"
#include "tensorx/engine/assign.h"
#include "tensorx/expr/map_exp.h"

namespace tensorx {

/// Op{} applied element-wise to the operands (arrays, expressions or numbers; numbers take the
/// element type), e.g. c = tx::F<smooth_l1>(a, 1.5f). Op is a struct with a templated
/// TENSORX_HOST_DEVICE call operator taking and returning the compute type (float for float16
/// elements); written with tensorx's math functions (tx::exp, tx::where, ...) it also runs in the
/// SIMD CPU loop. A functor whose body only compiles for numbers (it branches with `if` on its
/// arguments) declares `using scalar_only = void;`.
template <class Op, class... Operands>
auto F(const Operands&... operands) {
  return make_map(Op{}, operands...);
}

namespace detail {

/// A callable of one compute-type value C. The call operator takes exactly C, so the engine never
/// tries the callable on SIMD batches, whatever it is (a generic lambda included).
template <class C, class Function>
struct ScalarFunction {
  using scalar_only = void;
  Function function;

  TENSORX_HOST_DEVICE C operator()(const C& value) const { return static_cast<C>(function(value)); }
};

}  // namespace detail

/// `function` applied to every element of e: it takes and returns the compute type (float for
/// float and float16 elements, else the element type), e.g.
///   c = tx::map(a, [] TENSORX_HOST_DEVICE (float v) { return v > 0 ? v : 0.1f * v; });
/// Runs in the scalar CPU loop (use tx::F with a functor for SIMD). For GPU arrays the lambda must
/// be a device lambda, which nvcc accepts with --extended-lambda.
template <class E, class Function>
auto map(const E& e, Function function) {
  static_assert(is_expression_v<E>, "tx::map applies a function to an array or expression.");
  using C = compute_t<typename E::value_type>;
  return make_map(detail::ScalarFunction<C, Function>{function}, e);
}

/// The element-wise functors behind the operators and math functions (op::plus, op::exp, ...) and
/// the reducers behind the reductions (reduce/reducers.h): structs with a templated call operator
/// that tx::F and the reductions accept like a user's own.
namespace op {

/// Conversion to element type U, computed in U's compute type (so float16 goes through float).
template <class U>
struct cast {
  /// x in U's compute type.
  template <class T, std::enable_if_t<std::is_arithmetic_v<T> || is_narrow_float_v<T>, int> = 0>
  TENSORX_HOST_DEVICE compute_t<U> operator()(const T& x) const {
    return static_cast<compute_t<U>>(x);
  }
  /// A SIMD batch reaches a cast only between element types of one compute type (bfloat16 to
  /// float or back), where the conversion in compute space is the identity: the loads and stores
  /// of the element types do the widening and the rounding.
  template <class B, std::enable_if_t<!std::is_arithmetic_v<B> && !is_narrow_float_v<B>, int> = 0>
  B operator()(const B& x) const {
    return x;
  }
};

}  // namespace op

/// e converted element-wise to element type U (float, double, float16, int32, ...): the one way
/// to mix element types in an expression. Conversions to or from float16 go through float;
/// floating point to integer truncates toward zero (values out of U's range are undefined).
/// Converting to e's own element type returns e unchanged.
template <class U, class E>
auto cast(const E& e) {
  static_assert(is_expression_v<E>, "tx::cast converts an array or expression.");
  if constexpr (std::is_same_v<U, typename E::value_type>) {
    return e;
  } else {
    return make_map_to<U>(op::cast<U>{}, e);
  }
}

}  // namespace tensorx
