// Comparisons of expressions: == != < <= > >= element-wise, giving 1 or 0 in the operands' element
// type (mshadow's convention), so that they feed arithmetic and tx::where directly:
// tx::where(a > 0.0f, a, 0.1f * a). A comparison involving NaN is false, except != (true).
#pragma once

#include <type_traits>

#include "tensorx/engine/assign.h"
#include "tensorx/expr/map_exp.h"
#include "tensorx/ops/arithmetic.h"
#include "tensorx/ops/scalar_math.h"
#include "tensorx/ops/simd_math.h"

namespace tensorx {
namespace op {

// The comparison yields a bool (scalars) or a batch_bool (SIMD); where turns either into 1 or 0.
/// The functor of `==` on expressions: 1 where a == b, else 0.
struct equal {
  /// 1 or 0 in T (a number or a SIMD batch).
  template <class T>
  TENSORX_HOST_DEVICE T operator()(const T& a, const T& b) const {
    return tensorx::where(a == b, T(1), T(0));
  }
};
/// The functor of `!=` on expressions: 1 where a != b (true where either is NaN), else 0.
struct not_equal {
  /// 1 or 0 in T (a number or a SIMD batch).
  template <class T>
  TENSORX_HOST_DEVICE T operator()(const T& a, const T& b) const {
    // Not a != b: xsimd's AVX and AVX-512 batches compare != ordered, false where either is NaN
    // (core/simd.h).
    return tensorx::where(!(a == b), T(1), T(0));
  }
};
/// The functor of `<` on expressions: 1 where a < b, else 0.
struct less {
  /// 1 or 0 in T (a number or a SIMD batch).
  template <class T>
  TENSORX_HOST_DEVICE T operator()(const T& a, const T& b) const {
    return tensorx::where(a < b, T(1), T(0));
  }
};
/// The functor of `<=` on expressions: 1 where a <= b, else 0.
struct less_equal {
  /// 1 or 0 in T (a number or a SIMD batch).
  template <class T>
  TENSORX_HOST_DEVICE T operator()(const T& a, const T& b) const {
    return tensorx::where(a <= b, T(1), T(0));
  }
};
/// The functor of `>` on expressions: 1 where a > b, else 0.
struct greater {
  /// 1 or 0 in T (a number or a SIMD batch).
  template <class T>
  TENSORX_HOST_DEVICE T operator()(const T& a, const T& b) const {
    return tensorx::where(a > b, T(1), T(0));
  }
};
/// The functor of `>=` on expressions: 1 where a >= b, else 0.
struct greater_equal {
  /// 1 or 0 in T (a number or a SIMD batch).
  template <class T>
  TENSORX_HOST_DEVICE T operator()(const T& a, const T& b) const {
    return tensorx::where(a >= b, T(1), T(0));
  }
};

}  // namespace op

// Each operator takes an array or expression on at least one side and an array, expression or
// number on the other, broadcasting them.
/// l == r element-wise, broadcasting: 1 or 0 in the operands' element type.
template <class L, class R, class = std::enable_if_t<detail::is_operator_pair_v<L, R>>>
auto operator==(const L& l, const R& r) {
  return make_map(op::equal{}, l, r);
}
/// l != r element-wise, broadcasting: 1 or 0 in the operands' element type.
template <class L, class R, class = std::enable_if_t<detail::is_operator_pair_v<L, R>>>
auto operator!=(const L& l, const R& r) {
  return make_map(op::not_equal{}, l, r);
}
/// l < r element-wise, broadcasting: 1 or 0 in the operands' element type.
template <class L, class R, class = std::enable_if_t<detail::is_operator_pair_v<L, R>>>
auto operator<(const L& l, const R& r) {
  return make_map(op::less{}, l, r);
}
/// l <= r element-wise, broadcasting: 1 or 0 in the operands' element type.
template <class L, class R, class = std::enable_if_t<detail::is_operator_pair_v<L, R>>>
auto operator<=(const L& l, const R& r) {
  return make_map(op::less_equal{}, l, r);
}
/// l > r element-wise, broadcasting: 1 or 0 in the operands' element type.
template <class L, class R, class = std::enable_if_t<detail::is_operator_pair_v<L, R>>>
auto operator>(const L& l, const R& r) {
  return make_map(op::greater{}, l, r);
}
/// l >= r element-wise, broadcasting: 1 or 0 in the operands' element type.
template <class L, class R, class = std::enable_if_t<detail::is_operator_pair_v<L, R>>>
auto operator>=(const L& l, const R& r) {
  return make_map(op::greater_equal{}, l, r);
}

}  // namespace tensorx
