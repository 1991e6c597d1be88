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
struct equal {
  template <class T>
  TENSORX_HOST_DEVICE T operator()(const T& a, const T& b) const {
    return tensorx::where(a == b, T(1), T(0));
  }
};
struct not_equal {
  template <class T>
  TENSORX_HOST_DEVICE T operator()(const T& a, const T& b) const {
    return tensorx::where(a != b, T(1), T(0));
  }
};
struct less {
  template <class T>
  TENSORX_HOST_DEVICE T operator()(const T& a, const T& b) const {
    return tensorx::where(a < b, T(1), T(0));
  }
};
struct less_equal {
  template <class T>
  TENSORX_HOST_DEVICE T operator()(const T& a, const T& b) const {
    return tensorx::where(a <= b, T(1), T(0));
  }
};
struct greater {
  template <class T>
  TENSORX_HOST_DEVICE T operator()(const T& a, const T& b) const {
    return tensorx::where(a > b, T(1), T(0));
  }
};
struct greater_equal {
  template <class T>
  TENSORX_HOST_DEVICE T operator()(const T& a, const T& b) const {
    return tensorx::where(a >= b, T(1), T(0));
  }
};

}  // namespace op

// Each operator takes an array or expression on at least one side and an array, expression or
// number on the other, broadcasting them.
template <class L, class R, class = std::enable_if_t<detail::is_operator_pair_v<L, R>>>
auto operator==(const L& l, const R& r) {
  return make_map(op::equal{}, l, r);
}
template <class L, class R, class = std::enable_if_t<detail::is_operator_pair_v<L, R>>>
auto operator!=(const L& l, const R& r) {
  return make_map(op::not_equal{}, l, r);
}
template <class L, class R, class = std::enable_if_t<detail::is_operator_pair_v<L, R>>>
auto operator<(const L& l, const R& r) {
  return make_map(op::less{}, l, r);
}
template <class L, class R, class = std::enable_if_t<detail::is_operator_pair_v<L, R>>>
auto operator<=(const L& l, const R& r) {
  return make_map(op::less_equal{}, l, r);
}
template <class L, class R, class = std::enable_if_t<detail::is_operator_pair_v<L, R>>>
auto operator>(const L& l, const R& r) {
  return make_map(op::greater{}, l, r);
}
template <class L, class R, class = std::enable_if_t<detail::is_operator_pair_v<L, R>>>
auto operator>=(const L& l, const R& r) {
  return make_map(op::greater_equal{}, l, r);
}

}  // namespace tensorx
