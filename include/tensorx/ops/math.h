// The math library on expressions: one functor per operation in tensorx::op, whose body calls the
// tx:: function of scalar_math.h / simd_math.h / composite_math.h, so the scalar CPU loop, the
// SIMD CPU loop and the CUDA kernel share it; and the tx:: overloads that build the element-wise
// node from arrays and expressions (numbers allowed as the other operands: tx::pow(a, 2.0f)).
#pragma once

#include <type_traits>

#include "tensorx/core/narrow_float.h"
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
/// The functor of tx::exp: e^x.
struct exp {
  /// tensorx::exp(x) of numbers or SIMD batches.
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x) const {
    return tensorx::exp(x);
  }
};
/// The functor of tx::log: the natural logarithm of x.
struct log {
  /// tensorx::log(x) of numbers or SIMD batches.
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x) const {
    return tensorx::log(x);
  }
};
/// The functor of tx::log1p: log(1 + x), accurate near 0.
struct log1p {
  /// tensorx::log1p(x) of numbers or SIMD batches.
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x) const {
    return tensorx::log1p(x);
  }
};
/// The functor of tx::expm1: e^x - 1, accurate near 0.
struct expm1 {
  /// tensorx::expm1(x) of numbers or SIMD batches.
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x) const {
    return tensorx::expm1(x);
  }
};
/// The functor of tx::sqrt: the square root of x.
struct sqrt {
  /// tensorx::sqrt(x) of numbers or SIMD batches.
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x) const {
    return tensorx::sqrt(x);
  }
};
/// The functor of tx::rsqrt: 1 / sqrt(x).
struct rsqrt {
  /// tensorx::rsqrt(x) of numbers or SIMD batches.
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x) const {
    return tensorx::rsqrt(x);
  }
};
/// The functor of tx::tanh: the hyperbolic tangent of x.
struct tanh {
  /// tensorx::tanh(x) of numbers or SIMD batches.
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x) const {
    return tensorx::tanh(x);
  }
};
/// The functor of tx::erf: the error function of x.
struct erf {
  /// tensorx::erf(x) of numbers or SIMD batches.
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x) const {
    return tensorx::erf(x);
  }
};
/// The functor of tx::sigmoid: the logistic function 1 / (1 + e^-x).
struct sigmoid {
  /// tensorx::sigmoid(x) of numbers or SIMD batches.
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x) const {
    return tensorx::sigmoid(x);
  }
};
/// The functor of tx::floor: x rounded down.
struct floor {
  /// tensorx::floor(x) of numbers or SIMD batches.
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x) const {
    return tensorx::floor(x);
  }
};
/// The functor of tx::ceil: x rounded up.
struct ceil {
  /// tensorx::ceil(x) of numbers or SIMD batches.
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x) const {
    return tensorx::ceil(x);
  }
};
/// The functor of tx::round: x rounded to nearest, halfway cases away from zero.
struct round {
  /// tensorx::round(x) of numbers or SIMD batches.
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x) const {
    return tensorx::round(x);
  }
};
/// The functor of tx::abs: |x|.
struct abs {
  /// tensorx::abs(x) of numbers or SIMD batches.
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x) const {
    return tensorx::abs(x);
  }
};
/// The functor of tx::relu: max(x, 0), NaN staying NaN.
struct relu {
  /// tensorx::relu(x) of numbers or SIMD batches.
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x) const {
    return tensorx::relu(x);
  }
};
/// The functor of tx::gelu: GELU in its tanh form.
struct gelu {
  /// tensorx::gelu(x) of numbers or SIMD batches.
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x) const {
    return tensorx::gelu(x);
  }
};
/// The functor of tx::square: x * x.
struct square {
  /// tensorx::square(x) of numbers or SIMD batches.
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x) const {
    return tensorx::square(x);
  }
};
/// The functor of tx::sign: -1, 0 or 1 by the sign of x (zeros keep theirs, NaN stays NaN).
struct sign {
  /// tensorx::sign(x) of numbers or SIMD batches.
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x) const {
    return tensorx::sign(x);
  }
};

// Functors of several operands.
/// The functor of tx::pow: x^y.
struct pow {
  /// tensorx::pow(x, y) of numbers or SIMD batches.
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x, const T& y) const {
    return tensorx::pow(x, y);
  }
};
/// The functor of tx::maximum: the larger of a and b, NaN if either is NaN.
struct maximum {
  /// tensorx::maximum(a, b) of numbers or SIMD batches.
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& a, const T& b) const {
    return tensorx::maximum(a, b);
  }
};
/// The functor of tx::minimum: the smaller of a and b, NaN if either is NaN.
struct minimum {
  /// tensorx::minimum(a, b) of numbers or SIMD batches.
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& a, const T& b) const {
    return tensorx::minimum(a, b);
  }
};
/// The functor of tx::clip: x limited to [lo, hi].
struct clip {
  /// tensorx::clip(x, lo, hi) of numbers or SIMD batches.
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x, const T& lo,
                                                        const T& hi) const {
    return tensorx::clip(x, lo, hi);
  }
};
/// The functor of tx::where: a where cond is nonzero, else b.
struct where {
  /// tensorx::where(cond, a, b) of numbers or SIMD batches.
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
constexpr bool is_map_operand_v = is_expression_v<Operand> || is_scalar_number_v<Operand>;

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
// assigned, in the one pass of the assignment, on the destination's place). exp, log, log1p,
// expm1, sqrt, rsqrt, tanh, erf, sigmoid, gelu, floor, ceil, round and pow need floating-point
// elements (a static_assert says so); the others also take integers. Operands that do not
// broadcast throw ShapeError when the expression is assigned.
/// e^x for every element x of e (floating-point elements).
template <class E, detail::if_map_operands<E> = 0>
auto exp(const E& e) {
  return detail::make_real_map(op::exp{}, e);
}
/// The natural logarithm of every element (floating-point elements).
template <class E, detail::if_map_operands<E> = 0>
auto log(const E& e) {
  return detail::make_real_map(op::log{}, e);
}
/// log(1 + x) for every element x, accurate near 0 (floating-point elements).
template <class E, detail::if_map_operands<E> = 0>
auto log1p(const E& e) {
  return detail::make_real_map(op::log1p{}, e);
}
/// e^x - 1 for every element x, accurate near 0 (floating-point elements).
template <class E, detail::if_map_operands<E> = 0>
auto expm1(const E& e) {
  return detail::make_real_map(op::expm1{}, e);
}
/// The square root of every element (floating-point elements).
template <class E, detail::if_map_operands<E> = 0>
auto sqrt(const E& e) {
  return detail::make_real_map(op::sqrt{}, e);
}
/// 1 / sqrt(x) for every element x, a correctly rounded division (floating-point elements).
template <class E, detail::if_map_operands<E> = 0>
auto rsqrt(const E& e) {
  return detail::make_real_map(op::rsqrt{}, e);
}
/// The hyperbolic tangent of every element (floating-point elements).
template <class E, detail::if_map_operands<E> = 0>
auto tanh(const E& e) {
  return detail::make_real_map(op::tanh{}, e);
}
/// The error function of every element (floating-point elements).
template <class E, detail::if_map_operands<E> = 0>
auto erf(const E& e) {
  return detail::make_real_map(op::erf{}, e);
}
/// The logistic function 1 / (1 + e^-x) of every element (floating-point elements).
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
/// Every element rounded down (floating-point elements).
template <class E, detail::if_map_operands<E> = 0>
auto floor(const E& e) {
  return detail::make_real_map(op::floor{}, e);
}
/// Every element rounded up (floating-point elements).
template <class E, detail::if_map_operands<E> = 0>
auto ceil(const E& e) {
  return detail::make_real_map(op::ceil{}, e);
}
/// Halfway cases away from zero, like std::round.
template <class E, detail::if_map_operands<E> = 0>
auto round(const E& e) {
  return detail::make_real_map(op::round{}, e);
}
/// x^y element-wise, broadcasting (floating-point elements; either may be a number).
template <class X, class Y, detail::if_map_operands<X, Y> = 0>
auto pow(const X& x, const Y& y) {
  return detail::make_real_map(op::pow{}, x, y);
}

/// The absolute value of every element (the most negative integer stays as it is).
template <class E, detail::if_map_operands<E> = 0>
auto abs(const E& e) {
  return make_map(op::abs{}, e);
}
/// max(x, 0) for every element x; NaN stays NaN.
template <class E, detail::if_map_operands<E> = 0>
auto relu(const E& e) {
  return make_map(op::relu{}, e);
}
/// x * x for every element x.
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
