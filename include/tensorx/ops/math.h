// The math library on expressions: one functor per operation in tensorx::op, whose body calls the
// tx:: function of scalar_math.h / simd_math.h / composite_math.h, so the scalar CPU loop, the
// SIMD CPU loop and the CUDA kernel share it; and the tx:: overloads that build the element-wise
// node from arrays and expressions (numbers allowed as the other operands: tx::pow(a, 2.0f)).
#pragma once

#include <type_traits>

#include "tensorx/engine/assign.h"
#include "tensorx/expr/map_exp.h"
#include "tensorx/ops/composite_math.h"
#include "tensorx/ops/scalar_math.h"
#include "tensorx/ops/simd_math.h"

namespace tensorx {
namespace op {

// Each operator() is forced inline like the plan's batch() that calls it, so that an expression's
// whole SIMD body is one loop: left to its heuristics, g++ kept op::exp's and op::pow's batch
// versions out of line in bench_elementwise (a call per batch of 8, the kernel's constants
// broadcast again in every call: 45 instructions a batch for exp against 30, and 1.5 times the
// inlined loop's CPU time), and inlined them in smaller units.

// One-operand functors.
struct exp {
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x) const {
    return tensorx::exp(x);
  }
};
struct log {
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x) const {
    return tensorx::log(x);
  }
};
struct log1p {
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x) const {
    return tensorx::log1p(x);
  }
};
struct expm1 {
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x) const {
    return tensorx::expm1(x);
  }
};
struct sqrt {
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x) const {
    return tensorx::sqrt(x);
  }
};
struct rsqrt {
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x) const {
    return tensorx::rsqrt(x);
  }
};
struct tanh {
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x) const {
    return tensorx::tanh(x);
  }
};
struct sigmoid {
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x) const {
    return tensorx::sigmoid(x);
  }
};
struct floor {
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x) const {
    return tensorx::floor(x);
  }
};
struct ceil {
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x) const {
    return tensorx::ceil(x);
  }
};
struct round {
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x) const {
    return tensorx::round(x);
  }
};
struct abs {
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x) const {
    return tensorx::abs(x);
  }
};
struct relu {
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x) const {
    return tensorx::relu(x);
  }
};
struct gelu {
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x) const {
    return tensorx::gelu(x);
  }
};
struct square {
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x) const {
    return tensorx::square(x);
  }
};
struct sign {
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x) const {
    return tensorx::sign(x);
  }
};

// Functors of several operands.
struct pow {
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x, const T& y) const {
    return tensorx::pow(x, y);
  }
};
struct maximum {
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& a, const T& b) const {
    return tensorx::maximum(a, b);
  }
};
struct minimum {
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& a, const T& b) const {
    return tensorx::minimum(a, b);
  }
};
struct clip {
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x, const T& lo,
                                                        const T& hi) const {
    return tensorx::clip(x, lo, hi);
  }
};
struct where {
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& cond, const T& a,
                                                        const T& b) const {
    return tensorx::where(cond, a, b);
  }
};

}  // namespace op

namespace detail {

/// An operand of an element-wise function: an array, an expression or a number.
template <class Operand>
constexpr bool is_map_operand_v = is_expression_v<Operand> || std::is_arithmetic_v<Operand>;

/// Operands of an element-wise function: at least one of them an array or expression.
template <class... Operands>
constexpr bool is_map_operands_v = (is_expression_v<Operands> || ...) &&
                                   (is_map_operand_v<Operands> && ...);

template <class... Operands>
using if_map_operands = std::enable_if_t<is_map_operands_v<Operands...>, int>;

/// make_map for the functions defined on floating-point numbers only (exp, log, sqrt, ...).
template <class F, class... Operands>
auto make_real_map(F functor, const Operands&... operands) {
  using T = typename common_value<Operands...>::type;
  static_assert(is_floating_element_v<T>,
                "This math function needs floating-point elements (float, double, float16 or "
                "bfloat16): convert integer arrays with tx::cast<float>(...) first.");
  return make_map(functor, operands...);
}

}  // namespace detail

// The expression forms: each returns the element-wise node (nothing is computed until it is
// assigned). exp, log, log1p, expm1, sqrt, rsqrt, tanh, sigmoid, gelu, floor, ceil, round and
// pow need floating-point elements; the others also take integers.
template <class E, detail::if_map_operands<E> = 0>
auto exp(const E& e) {
  return detail::make_real_map(op::exp{}, e);
}
template <class E, detail::if_map_operands<E> = 0>
auto log(const E& e) {
  return detail::make_real_map(op::log{}, e);
}
template <class E, detail::if_map_operands<E> = 0>
auto log1p(const E& e) {
  return detail::make_real_map(op::log1p{}, e);
}
template <class E, detail::if_map_operands<E> = 0>
auto expm1(const E& e) {
  return detail::make_real_map(op::expm1{}, e);
}
template <class E, detail::if_map_operands<E> = 0>
auto sqrt(const E& e) {
  return detail::make_real_map(op::sqrt{}, e);
}
template <class E, detail::if_map_operands<E> = 0>
auto rsqrt(const E& e) {
  return detail::make_real_map(op::rsqrt{}, e);
}
template <class E, detail::if_map_operands<E> = 0>
auto tanh(const E& e) {
  return detail::make_real_map(op::tanh{}, e);
}
template <class E, detail::if_map_operands<E> = 0>
auto sigmoid(const E& e) {
  return detail::make_real_map(op::sigmoid{}, e);
}
/// The tanh form of GELU (see tensorx::gelu on numbers); fused into cuBLASLt's epilogue when
/// it wraps `tx::dot(a, w) + bias`.
template <class E, detail::if_map_operands<E> = 0>
auto gelu(const E& e) {
  return detail::make_real_map(op::gelu{}, e);
}
template <class E, detail::if_map_operands<E> = 0>
auto floor(const E& e) {
  return detail::make_real_map(op::floor{}, e);
}
template <class E, detail::if_map_operands<E> = 0>
auto ceil(const E& e) {
  return detail::make_real_map(op::ceil{}, e);
}
/// Halfway cases away from zero, like std::round.
template <class E, detail::if_map_operands<E> = 0>
auto round(const E& e) {
  return detail::make_real_map(op::round{}, e);
}
template <class X, class Y, detail::if_map_operands<X, Y> = 0>
auto pow(const X& x, const Y& y) {
  return detail::make_real_map(op::pow{}, x, y);
}

template <class E, detail::if_map_operands<E> = 0>
auto abs(const E& e) {
  return make_map(op::abs{}, e);
}
template <class E, detail::if_map_operands<E> = 0>
auto relu(const E& e) {
  return make_map(op::relu{}, e);
}
template <class E, detail::if_map_operands<E> = 0>
auto square(const E& e) {
  return make_map(op::square{}, e);
}
/// -1, 0 or 1; NaN stays NaN.
template <class E, detail::if_map_operands<E> = 0>
auto sign(const E& e) {
  return make_map(op::sign{}, e);
}
/// Element-wise larger value, broadcasting; NaN if either is NaN.
template <class A, class B, detail::if_map_operands<A, B> = 0>
auto maximum(const A& a, const B& b) {
  return make_map(op::maximum{}, a, b);
}
/// Element-wise smaller value, broadcasting; NaN if either is NaN.
template <class A, class B, detail::if_map_operands<A, B> = 0>
auto minimum(const A& a, const B& b) {
  return make_map(op::minimum{}, a, b);
}
/// x limited to [lo, hi] element-wise (bounds may be numbers or expressions).
template <class X, class Lo, class Hi, detail::if_map_operands<X, Lo, Hi> = 0>
auto clip(const X& x, const Lo& lo, const Hi& hi) {
  return make_map(op::clip{}, x, lo, hi);
}
/// a where cond is nonzero, else b, broadcasting all three: tx::where(x > 0.0f, x, 0.1f * x).
/// cond has the element type of a and b (comparisons give 1 or 0 in it).
template <class C, class A, class B, detail::if_map_operands<C, A, B> = 0>
auto where(const C& cond, const A& a, const B& b) {
  return make_map(op::where{}, cond, a, b);
}

}  // namespace tensorx
