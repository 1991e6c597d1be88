// The reducers behind tx::sum, mean, max, min, prod, argmax and argmin. Each is a struct that says
// how an element becomes an accumulator (lift), where accumulation starts (identity), how two
// accumulators combine and what the result is (finalize). Every engine (the CPU rows and columns,
// the CUDA kernels, the compiled layer) runs these same structs, on numbers and, for the reducers
// that are not indexed, on SIMD batches too.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#include "tensorx/core/config.h"
#include "tensorx/core/error.h"
#include "tensorx/core/integer_arithmetic.h"
#include "tensorx/ops/scalar_math.h"
#include "tensorx/ops/simd_math.h"
#include "tensorx/shape/dim.h"

namespace tensorx {

/// The reductions by name, for the type-erased compiled layer and DArray forms.
enum class ReduceOp { kSum, kMean, kMax, kMin, kProd, kArgMax, kArgMin };

namespace detail {

/// The infinities (floating point) or the extreme values (integers) of C, as constants that device
/// code may read (std::numeric_limits functions are host functions to nvcc).
template <class C>
struct Bounds {
  static constexpr C kLowest = std::is_floating_point_v<C> ? -std::numeric_limits<C>::infinity()
                                                           : std::numeric_limits<C>::lowest();
  static constexpr C kHighest = std::is_floating_point_v<C> ? std::numeric_limits<C>::infinity()
                                                            : std::numeric_limits<C>::max();
};

/// A value and the position along the reduced axis where it was found (argmax, argmin).
template <class C>
struct Located {
  C value;
  index_t index;
};

}  // namespace detail

namespace op {

/// What the value reducers share: the element is its own accumulator, the result has the element
/// type and is the accumulated value itself (mean divides it), and an empty reduction is allowed
/// exactly when an identity exists.
struct value_reducer {
  /// False: the result is a value, not a position.
  static constexpr bool kIndexed = false;
  /// The result's element type for elements of T: T.
  template <class T>
  using result_type = T;
  /// The accumulator for elements computed in C: C.
  template <class C>
  using accumulator = C;

  /// The accumulator of one element: the element (its position is not needed).
  template <class A>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE static A lift(const A& value, index_t) {
    return value;
  }
  /// The result of an accumulation: the accumulated value.
  template <class A>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE static A finalize(const A& accumulated, index_t) {
    return accumulated;
  }
};

/// The sum of the elements (tx::sum); 0 for an empty reduction.
struct sum_reducer : value_reducer {
  /// The reduction's name in the compiled layer.
  static constexpr ReduceOp kOp = ReduceOp::kSum;
  /// The name error messages use.
  static constexpr const char* kName = "sum";
  /// True: an empty reduction gives identity().
  static constexpr bool kHasIdentity = true;
  /// 0.
  template <class C>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE static C identity() {
    return C(0);
  }
  /// Integers wrap around modulo 2^bits (core/integer_arithmetic.h) instead of overflowing.
  template <class A>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE static A combine(const A& a, const A& b) {
    if constexpr (std::is_integral_v<A>) {
      return detail::wrapping_add(a, b);
    } else {
      return a + b;
    }
  }
};

/// The sum divided by the number of reduced elements: NaN for an empty reduction (0 / 0).
struct mean_reducer : sum_reducer {
  /// The reduction's name in the compiled layer.
  static constexpr ReduceOp kOp = ReduceOp::kMean;
  /// The name error messages use.
  static constexpr const char* kName = "mean";
  /// The sum divided by the count (in the accumulator's type: integers divide as integers).
  template <class A>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE static A finalize(const A& total, index_t count) {
    return total / static_cast<A>(count);
  }
};

/// The product of the elements (tx::prod); 1 for an empty reduction.
struct prod_reducer : value_reducer {
  /// The reduction's name in the compiled layer.
  static constexpr ReduceOp kOp = ReduceOp::kProd;
  /// The name error messages use.
  static constexpr const char* kName = "prod";
  /// True: an empty reduction gives identity().
  static constexpr bool kHasIdentity = true;
  /// 1.
  template <class C>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE static C identity() {
    return C(1);
  }
  /// a * b; integers wrap around modulo 2^bits.
  template <class A>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE static A combine(const A& a, const A& b) {
    if constexpr (std::is_integral_v<A>) {
      return detail::wrapping_multiply(a, b);
    } else {
      return a * b;
    }
  }
};

/// The largest element; NaN as soon as one element is NaN. The identity (-inf) only pads SIMD
/// lanes: an empty max is an error.
struct max_reducer : value_reducer {
  /// The reduction's name in the compiled layer.
  static constexpr ReduceOp kOp = ReduceOp::kMax;
  /// The name error messages use.
  static constexpr const char* kName = "max";
  /// False: an empty reduction is an error.
  static constexpr bool kHasIdentity = false;
  /// -infinity (the lowest integer), which only pads SIMD lanes and partial results.
  template <class C>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE static C identity() {
    return detail::Bounds<C>::kLowest;
  }
  /// maximum(a, b): NaN if either is NaN.
  template <class A>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE static A combine(const A& a, const A& b) {
    return tensorx::maximum(a, b);
  }
};

/// The smallest element; NaN as soon as one element is NaN.
struct min_reducer : value_reducer {
  /// The reduction's name in the compiled layer.
  static constexpr ReduceOp kOp = ReduceOp::kMin;
  /// The name error messages use.
  static constexpr const char* kName = "min";
  /// False: an empty reduction is an error.
  static constexpr bool kHasIdentity = false;
  /// +infinity (the highest integer), which only pads SIMD lanes and partial results.
  template <class C>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE static C identity() {
    return detail::Bounds<C>::kHighest;
  }
  /// minimum(a, b): NaN if either is NaN.
  template <class A>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE static A combine(const A& a, const A& b) {
    return tensorx::minimum(a, b);
  }
};

/// The position of the largest (Greater) or smallest element along the one reduced axis, as
/// int64. Like NumPy, the first NaN wins, and among equal values the first position. combine
/// decides by position, not by argument order, so that any grouping (SIMD lanes, threads, CUDA
/// blocks) gives the same answer.
template <bool kGreater>
struct arg_reducer {
  /// The reduction's name in the compiled layer.
  static constexpr ReduceOp kOp = kGreater ? ReduceOp::kArgMax : ReduceOp::kArgMin;
  /// The name error messages use.
  static constexpr const char* kName = kGreater ? "argmax" : "argmin";
  /// True: the result is a position along the reduced axis.
  static constexpr bool kIndexed = true;
  /// False: an empty reduction is an error.
  static constexpr bool kHasIdentity = false;
  /// The result's element type: int64, whatever the elements.
  template <class T>
  using result_type = std::int64_t;
  /// The accumulator: a value and its position.
  template <class C>
  using accumulator = detail::Located<C>;

  /// The accumulator of the element `value` at position `index`.
  template <class C>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE static detail::Located<C> lift(const C& value,
                                                                          index_t index) {
    return {value, index};
  }
  /// The worst value at the last position, which only pads partial results.
  template <class C>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE static detail::Located<C> identity() {
    return {kGreater ? detail::Bounds<C>::kLowest : detail::Bounds<C>::kHighest,
            detail::Bounds<index_t>::kHighest};
  }
  /// The better of a and b: a NaN, else the larger (smaller) value, else the earlier position.
  template <class C>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE static detail::Located<C> combine(
      const detail::Located<C>& a, const detail::Located<C>& b) {
    const bool a_nan = detail::is_nan(a.value), b_nan = detail::is_nan(b.value);
    const bool earlier = b.index < a.index;
    bool b_wins;
    if (a_nan || b_nan) {
      b_wins = b_nan && (!a_nan || earlier);
    } else {
      const bool better = kGreater ? b.value > a.value : b.value < a.value;
      b_wins = better || (b.value == a.value && earlier);
    }
    return b_wins ? b : a;
  }
  /// The position found.
  template <class C>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE static std::int64_t finalize(
      const detail::Located<C>& best, index_t) {
    return best.index;
  }
};

/// The position of the largest element (tx::argmax).
using argmax_reducer = arg_reducer<true>;
/// The position of the smallest element (tx::argmin).
using argmin_reducer = arg_reducer<false>;

}  // namespace op

namespace detail {

/// The accumulator of reducer Op over elements computed in C.
template <class Op, class C>
using accumulator_t = typename Op::template accumulator<C>;

/// The value a reducer's finalize returns for accumulators of C: C, or int64 for positions.
template <class Op, class C>
using finalized_t = decltype(Op::finalize(std::declval<accumulator_t<Op, C>>(), index_t{}));

}  // namespace detail
}  // namespace tensorx
