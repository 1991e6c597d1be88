// Arithmetic functors and the operators that build expressions from them: + - * / and unary -.
// Each functor body serves the scalar CPU loop, the SIMD CPU loop and the CUDA kernel.
#pragma once

#include <type_traits>

#include "tensorx/core/division.h"
#include "tensorx/core/narrow_float.h"
#include "tensorx/engine/assign.h"
#include "tensorx/expr/map_exp.h"

namespace tensorx {
namespace op {

/// The functor of `a + b` on expressions.
struct plus {
  /// a + b of numbers or SIMD batches.
  template <class T>
  TENSORX_HOST_DEVICE T operator()(const T& a, const T& b) const {
    return a + b;
  }
};
/// The functor of `a - b` on expressions.
struct minus {
  /// a - b of numbers or SIMD batches.
  template <class T>
  TENSORX_HOST_DEVICE T operator()(const T& a, const T& b) const {
    return a - b;
  }
};
/// The functor of `a * b` on expressions.
struct multiplies {
  /// a * b of numbers or SIMD batches.
  template <class T>
  TENSORX_HOST_DEVICE T operator()(const T& a, const T& b) const {
    return a * b;
  }
};
/// a / b (core/division.h): integers with every input defined, floats rounded once. SIMD batches of
/// integers are not accepted: no CPU divides them in SIMD, and lane by lane the scalar loop is as
/// fast, so expressions that divide integers run in it.
struct divides {
  /// a / b of numbers or floating-point SIMD batches.
  template <class T, class = std::enable_if_t<!detail::is_integer_batch<T>::value>>
  TENSORX_HOST_DEVICE T operator()(const T& a, const T& b) const {
    return detail::divide(a, b);
  }
};
/// The functor of unary `-` on expressions.
struct negate {
  /// -a of a number or a SIMD batch.
  template <class T>
  TENSORX_HOST_DEVICE T operator()(const T& a) const {
    return -a;
  }
};

}  // namespace op

namespace detail {
/// Enables a binary operator when at least one side is an array or expression and the other is
/// one too or a number.
template <class L, class R>
constexpr bool is_operator_pair_v = (is_expression_v<L> &&
                                     (is_expression_v<R> || is_scalar_number_v<R>)) ||
                                    (is_expression_v<R> && is_scalar_number_v<L>);
}  // namespace detail

/// l + r element-wise, broadcasting: a lazy node, assigned in one pass.
template <class L, class R, class = std::enable_if_t<detail::is_operator_pair_v<L, R>>>
auto operator+(const L& l, const R& r) {
  return make_map(op::plus{}, l, r);
}
/// l - r element-wise, broadcasting: a lazy node, assigned in one pass.
template <class L, class R, class = std::enable_if_t<detail::is_operator_pair_v<L, R>>>
auto operator-(const L& l, const R& r) {
  return make_map(op::minus{}, l, r);
}
/// l * r element-wise, broadcasting: a lazy node, assigned in one pass.
template <class L, class R, class = std::enable_if_t<detail::is_operator_pair_v<L, R>>>
auto operator*(const L& l, const R& r) {
  return make_map(op::multiplies{}, l, r);
}
/// l / r element-wise, broadcasting: a lazy node, assigned in one pass. Integers never trap:
/// x / 0 is 0 (core/integer_arithmetic.h).
template <class L, class R, class = std::enable_if_t<detail::is_operator_pair_v<L, R>>>
auto operator/(const L& l, const R& r) {
  return make_map(op::divides{}, l, r);
}
/// -e element-wise.
template <class E, class = std::enable_if_t<is_expression_v<E>>>
auto operator-(const E& e) {
  return make_map(op::negate{}, e);
}

}  // namespace tensorx
