// tx::softmax, tx::log_softmax and tx::logsumexp along one axis. Each is an ordinary expression
// of reductions: along the last axis it runs as ONE pass (reduce/row_fusion.h: a kernel, or a
// pass over each row in cache), its max reduced once however often the formula reads it; along
// another axis its reductions are materialised first, as for any expression.
//
// Special values as PyTorch: a row with NaN gives NaN; an all -inf row gives NaN for softmax and
// log_softmax and -inf for logsumexp; a row with +inf gives NaN for softmax and +inf for
// logsumexp; an empty row gives an empty result (and logsumexp -inf).
#pragma once

#include <limits>
#include <type_traits>

#include "tensorx/core/data_type.h"
#include "tensorx/ops/arithmetic.h"
#include "tensorx/ops/compare.h"
#include "tensorx/ops/math.h"
#include "tensorx/reduce/reductions.h"

namespace tensorx {
namespace detail {

template <class E>
void check_normalizable() {
  static_assert(is_expression_v<E>, "takes an array or an expression");
  static_assert(is_floating_element_v<typename E::value_type>,
                "softmax, log_softmax, logsumexp, layer_norm and rms_norm need floating-point "
                "elements: convert integers with tx::cast<float>(...) first.");
}

/// The max of softmax and logsumexp: -inf over no elements instead of an error, so that an empty
/// row gives an empty softmax and a logsumexp of -inf, as in PyTorch.
struct row_max_reducer : op::max_reducer {
  /// True: an empty reduction gives -inf.
  static constexpr bool kHasIdentity = true;
  /// maximum(a, b), NaN if either is NaN; for floats on GPUs of compute capability 8.0 on, one
  /// max.NaN instruction (FMNMX.NAN) where tx::maximum's select takes three (FSETP.NAN, FSETP,
  /// FSEL: a third of a softmax's max sweep, SASS sm_90). Its NaN is the canonical one and its
  /// max of +0 and -0 is +0 whatever their order; the row's max only shifts the row (x - max
  /// and max + log(sum) are the same for either zero), and a NaN row gives NaN all the same.
  template <class A>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE static A combine(const A& a, const A& b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if constexpr (std::is_same_v<A, float>) {
      float larger;
      asm("max.NaN.f32 %0, %1, %2;" : "=f"(larger) : "f"(a), "f"(b));
      return larger;
    } else {
      return op::max_reducer::combine(a, b);
    }
#else
    return op::max_reducer::combine(a, b);
#endif
  }
};

/// e^x for the shifted elements x - max of a softmax, log_softmax or logsumexp whose elements
/// are float16 or bfloat16 (computed in float): on a GPU 2^(x log2(e)) by the hardware's
/// approximate exp2 (ex2.approx.ftz: a multiplication and one MUFU.EX2, where expf takes 9
/// instructions an element, a fifth of the fused bfloat16 softmax's, SASS sm_90), elsewhere
/// tensorx::exp. Its relative error, at most about 2^-17 for |x| up to 88 (the rounding of
/// x log2(e) to float, then exp2's 2^-22), is far below the narrow result's half unit, 2^-9 for
/// bfloat16 and 2^-11 for float16; results that would be subnormal floats, below 1.2e-38, flush
/// to 0; e^0 is within 2^-22 of 1, e^-inf is 0, e^inf is inf and NaN stays NaN (PTX's ex2).
/// float and double rows keep tensorx::exp, whose 1-ulp results a float output would show.
struct narrow_row_exp {
  template <class T>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE T operator()(const T& x) const {
#if defined(__CUDA_ARCH__)
    if constexpr (std::is_same_v<T, float>) {
      float power;
      asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(power) : "f"(x * 1.4426950408889634f));
      return power;
    } else {
      return tensorx::exp(x);
    }
#else
    return tensorx::exp(x);
#endif
  }
};

/// e^x of a row normalisation's shifted elements: narrow_row_exp where x's elements are float16
/// or bfloat16, else tensorx::exp.
template <class X, class E>
auto row_exp(const E& shifted) {
  if constexpr (is_narrow_float_v<typename X::value_type>) {
    return make_real_map(narrow_row_exp{}, shifted);
  } else {
    return exp(shifted);
  }
}

/// The max of x along Axis, kept with extent 1, -inf where empty.
template <int Axis, class E>
auto row_max(const E& x, KeepDims) {
  return make_reduce<row_max_reducer, true, Axis>(x);
}
template <int Axis, class E>
auto row_max(const E& x) {
  return make_reduce<row_max_reducer, false, Axis>(x);
}

/// m where it is finite, else 0: the shift of logsumexp, which keeps rows of infinities exact.
template <class M>
auto finite_or_zero(const M& m) {
  // Numbers as double: a scalar takes the expression's element type, float16 and bfloat16 too.
  return where(abs(m) < std::numeric_limits<double>::infinity(), m, 0.0);
}

}  // namespace detail

/// softmax along Axis (negative counts from the end): exp(x - max) / sum(exp(x - max)), each
/// slice along Axis summing to 1. Floating-point elements.
///
/// Computed as exp(x - max) * (1 / sum), as PyTorch's CPU softmax does: the reciprocal once per
/// slice, then a multiplication per element, within an ulp of the quotient (the sum is at least 1,
/// so its reciprocal is a normal number). A division per element took a third of the fused GPU
/// kernel's instructions per element (IEEE division with its slow-path check, SASS, sm_90) and
/// is the slowest SIMD arithmetic on a CPU.
template <int Axis, class E>
auto softmax(const E& x) {
  detail::check_normalizable<E>();
  const auto shifted = detail::row_exp<E>(x - detail::row_max<Axis>(x, keepdims));
  return shifted * (1.0 / sum<Axis>(shifted, keepdims));
}

/// log(softmax(x)) along Axis, computed as x - max - log(sum(exp(x - max))) (no log of 0 for
/// probabilities that underflow).
template <int Axis, class E>
auto log_softmax(const E& x) {
  detail::check_normalizable<E>();
  const auto centred = x - detail::row_max<Axis>(x, keepdims);
  return centred - log(sum<Axis>(detail::row_exp<E>(centred), keepdims));
}

///@{
/// log(sum(exp(x))) along Axis without overflow: the axis dropped, or kept with extent 1 with
/// tx::keepdims. -inf for an empty slice or one of -inf only.
template <int Axis, class E>
auto logsumexp(const E& x) {
  detail::check_normalizable<E>();
  const auto shift = detail::finite_or_zero(detail::row_max<Axis>(x, keepdims));
  return detail::finite_or_zero(detail::row_max<Axis>(x)) +
         log(sum<Axis>(detail::row_exp<E>(x - shift)));
}
template <int Axis, class E>
auto logsumexp(const E& x, KeepDims) {
  detail::check_normalizable<E>();
  const auto shift = detail::finite_or_zero(detail::row_max<Axis>(x, keepdims));
  return shift + log(sum<Axis>(detail::row_exp<E>(x - shift), keepdims));
}
///@}

}  // namespace tensorx
