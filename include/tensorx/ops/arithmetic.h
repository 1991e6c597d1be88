// Arithmetic functors and the operators that build expressions from them: + - * / and unary -.
// Each functor body serves the scalar CPU loop, the SIMD CPU loop and the CUDA kernel.
#pragma once

#include <cstring>
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
/// a / divisor for a divisor that is the same for the whole pass: the plan of `e / number` for
/// floating-point elements (make_plan below), its reciprocal worked out once on the host. A GPU
/// divides through it (detail::divide_by_reciprocal) where the divisor allows, else as
/// op::divides does; the CPU divides as op::divides does. The same bits either way.
template <class C>
struct divides_by {
  /// The divisor, in the compute type.
  C divisor;
  /// 1 / divisor, correctly rounded.
  C reciprocal;
  /// Whether detail::reciprocal_divides(divisor).
  bool through_reciprocal;

  /// a / divisor of a number or a floating-point SIMD batch.
  template <class T>
  TENSORX_HOST_DEVICE T operator()(const T& a) const {
#if defined(__CUDA_ARCH__)
    if constexpr (std::is_same_v<T, C>) {
      if (through_reciprocal) return detail::divide_by_reciprocal(a, divisor, reciprocal);
    }
#endif
    return detail::divide(a, T(divisor));
  }
  /// The same divisor, bit for bit (row-local fusion shares only equal parts).
  friend bool operator==(const divides_by& a, const divides_by& b) {
    return std::memcmp(&a.divisor, &b.divisor, sizeof(C)) == 0;
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

/// The plan of `e / number` for floating-point elements: one operand and op::divides_by, whose
/// reciprocal is worked out here, once per assignment; integers and the other layouts of a
/// division plan as every map does (expr/map_exp.h).
template <int N, class R, class A, class T>
auto make_plan(const MapExp<R, op::divides, A, ScalarExp<T>>& e, const Dim<N>& out_dims) {
  using C = compute_t<R>;
  if constexpr (std::is_same_v<C, float> || std::is_same_v<C, double>) {
    const C divisor = static_cast<C>(detail::pack_get<1>(e.args()).value());
    const op::divides_by<C> functor{divisor, C(1) / divisor, detail::reciprocal_divides(divisor)};
    using Operand = decltype(make_plan(detail::pack_get<0>(e.args()), out_dims));
    return detail::MapPlan<R, op::divides_by<C>, Operand>{
        functor, detail::make_plan_pack(make_plan(detail::pack_get<0>(e.args()), out_dims))};
  } else {
    return detail::map_plan(e, out_dims, std::index_sequence_for<A, ScalarExp<T>>{});
  }
}

}  // namespace tensorx
