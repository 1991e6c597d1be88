// The operators of labelled expressions: + - * / between labelled operands and numbers, and
// unary -. `a("i,k") * b("k,j")` builds a LabelledMap; whether a product is element-wise or a
// contraction is decided by the assignment, from the labels of its left side.
#pragma once

#include <type_traits>

#include "tensorx/core/narrow_float.h"
#include "tensorx/labels/labelled_exp.h"
#include "tensorx/ops/arithmetic.h"

namespace tensorx {
namespace detail {

/// Enables a binary operator when one side is labelled and the other labelled or a number.
template <class L, class R>
constexpr bool is_labelled_pair_v = (is_labelled_v<L> &&
                                     (is_labelled_v<R> || is_scalar_number_v<R>)) ||
                                    (is_scalar_number_v<L> && is_labelled_v<R>);

template <class X>
auto labelled_operand(const X& x) {
  if constexpr (is_labelled_v<X>) {
    return x;
  } else {
    return LabelledScalar<X>(x);
  }
}

template <class F, class... Xs>
auto make_labelled_map(F functor, const Xs&... xs) {
  return LabelledMap<F, decltype(labelled_operand(xs))...>(functor, labelled_operand(xs)...);
}

}  // namespace detail

/// l + r, between labelled expressions and numbers: a LabelledMap, run by the assignment.
template <class L, class R, std::enable_if_t<detail::is_labelled_pair_v<L, R>, int> = 0>
auto operator+(const L& l, const R& r) {
  return detail::make_labelled_map(op::plus{}, l, r);
}
/// l - r, between labelled expressions and numbers: a LabelledMap, run by the assignment.
template <class L, class R, std::enable_if_t<detail::is_labelled_pair_v<L, R>, int> = 0>
auto operator-(const L& l, const R& r) {
  return detail::make_labelled_map(op::minus{}, l, r);
}
/// l * r between labelled expressions and numbers: a LabelledMap, which the assignment runs as an
/// element-wise product, or as a contraction over the labels absent on its left side.
template <class L, class R, std::enable_if_t<detail::is_labelled_pair_v<L, R>, int> = 0>
auto operator*(const L& l, const R& r) {
  return detail::make_labelled_map(op::multiplies{}, l, r);
}
/// l / r, between labelled expressions and numbers: a LabelledMap, run by the assignment.
template <class L, class R, std::enable_if_t<detail::is_labelled_pair_v<L, R>, int> = 0>
auto operator/(const L& l, const R& r) {
  return detail::make_labelled_map(op::divides{}, l, r);
}
/// -e of a labelled expression.
template <class E, std::enable_if_t<is_labelled_v<E>, int> = 0>
auto operator-(const E& e) {
  return detail::make_labelled_map(op::negate{}, e);
}

}  // namespace tensorx
