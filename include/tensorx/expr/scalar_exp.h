// A scalar inside an expression. It takes the element type of the expression it joins
// (2.0 * a with a float array is a float scalar), so mixing a double literal in costs nothing.
#pragma once

#include "tensorx/core/lanes.h"
#include "tensorx/expr/exp.h"
#include "tensorx/place/place.h"
#include "tensorx/shape/dim.h"

namespace tensorx {

/// A number as a rank-0 expression node; operators make one from a number that joins an
/// expression, with that expression's element type.
template <class T>
class ScalarExp : public Exp<ScalarExp<T>> {
 public:
  /// The element type.
  using value_type = T;
  /// 0: a scalar broadcasts to any extent.
  static constexpr int rank = 0;

  /// The node of `value`.
  explicit ScalarExp(T value) : value_(value) {}
  /// The number.
  T value() const { return value_; }
  /// The rank-0 extent.
  Dim<0> dims() const { return Dim<0>(); }

 private:
  T value_;
};

namespace detail {

template <class C>
struct ScalarPlan {
  C value;

  template <class B>
  static constexpr bool vectorizable = std::is_same_v<C, typename B::value_type>;

  template <int N>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE C at(const Dim<N>&) const {
    return value;
  }
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE C flat(index_t) const { return value; }
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE C get(index_t) const { return value; }
  template <int V>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE Lanes<C, V> load(index_t) const {
    Lanes<C, V> lanes;
    TENSORX_UNROLL
    for (int k = 0; k < V; ++k) lanes[k] = value;
    return lanes;
  }
  template <class B>
  TENSORX_FORCE_INLINE B batch(index_t) const {
    return B(value);
  }
  template <int N>
  ScalarPlan row(const Dim<N>&) const {
    return *this;
  }
  ScalarPlan flat_row() const { return *this; }
  template <class Visitor>
  void visit_leaves(Visitor&&) const {}
};

}  // namespace detail

///@{
/// The node protocol (expr/exp.h) for ScalarExp: prepared as itself, planned as its value in
/// the compute type at every index, reading no array.
template <class T, class Context>
const ScalarExp<T>& prepare(const ScalarExp<T>& scalar, const Context&) {
  return scalar;
}

template <int N, class T>
detail::ScalarPlan<compute_t<T>> make_plan(const ScalarExp<T>& scalar, const Dim<N>&) {
  return {static_cast<compute_t<T>>(scalar.value())};
}

template <class T, class F>
void for_each_array(const ScalarExp<T>&, F&&) {}
///@}

}  // namespace tensorx
