// Arithmetic functors and the operators that build expressions from them: + - * / and unary -.
// Each functor body serves the scalar CPU loop, the SIMD CPU loop and the CUDA kernel.
#pragma once

#include <type_traits>

#include "tensorx/core/integer_arithmetic.h"

#include "tensorx/engine/assign.h"
#include "tensorx/expr/map_exp.h"

namespace tensorx {
namespace op {

struct plus {
  template <class T>
  TENSORX_HOST_DEVICE T operator()(const T& a, const T& b) const {
    return a + b;
  }
};
struct minus {
  template <class T>
  TENSORX_HOST_DEVICE T operator()(const T& a, const T& b) const {
    return a - b;
  }
};
struct multiplies {
  template <class T>
  TENSORX_HOST_DEVICE T operator()(const T& a, const T& b) const {
    return a * b;
  }
};
/// a / b; for integers with every input defined (core/integer_arithmetic.h). SIMD batches of
/// integers are not accepted: no CPU divides them in SIMD, and lane by lane the scalar loop is as
/// fast, so expressions that divide integers run in it.
struct divides {
  template <class T, class = std::enable_if_t<!detail::is_integer_batch<T>::value>>
  TENSORX_HOST_DEVICE T operator()(const T& a, const T& b) const {
    if constexpr (std::is_integral_v<T>) {
      return detail::divide_integers(a, b);
    } else {
      return a / b;
    }
  }
};
struct negate {
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
                                     (is_expression_v<R> || std::is_arithmetic_v<R>)) ||
                                    (is_expression_v<R> && std::is_arithmetic_v<L>);
}  // namespace detail

template <class L, class R, class = std::enable_if_t<detail::is_operator_pair_v<L, R>>>
auto operator+(const L& l, const R& r) {
  return make_map(op::plus{}, l, r);
}
template <class L, class R, class = std::enable_if_t<detail::is_operator_pair_v<L, R>>>
auto operator-(const L& l, const R& r) {
  return make_map(op::minus{}, l, r);
}
template <class L, class R, class = std::enable_if_t<detail::is_operator_pair_v<L, R>>>
auto operator*(const L& l, const R& r) {
  return make_map(op::multiplies{}, l, r);
}
template <class L, class R, class = std::enable_if_t<detail::is_operator_pair_v<L, R>>>
auto operator/(const L& l, const R& r) {
  return make_map(op::divides{}, l, r);
}
template <class E, class = std::enable_if_t<is_expression_v<E>>>
auto operator-(const E& e) {
  return make_map(op::negate{}, e);
}

}  // namespace tensorx
