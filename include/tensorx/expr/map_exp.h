// MapExp: the one generic element-wise node. It applies a functor of any arity to its operands
// element by element, broadcasting them to a common extent; every element-wise operation of
// tensorx (arithmetic, comparisons, math, casts, user functors and lambdas) is a MapExp.
#pragma once

#include <algorithm>
#include <type_traits>
#include <utility>

#include "tensorx/core/lanes.h"
#include "tensorx/expr/array_leaf.h"
#include "tensorx/expr/broadcast.h"
#include "tensorx/expr/exp.h"
#include "tensorx/expr/plan_access.h"
#include "tensorx/expr/plan_pack.h"
#include "tensorx/expr/scalar_exp.h"

namespace tensorx {

/// Opt a functor out of the SIMD CPU loop (when its body only compiles for scalars, e.g. it uses
/// `if` on its arguments): specialise to true, or give the functor `using scalar_only = void;`.
template <class F, class = void>
struct scalar_only : std::false_type {};
template <class F>
struct scalar_only<F, std::void_t<typename F::scalar_only>> : std::true_type {};

/// Applies F to its operands element-wise; the result has element type R. Every operator, math
/// function, cast, tx::F and tx::map builds one (make_map); it is lazy, and fuses with the rest of
/// the expression into the one pass of the assignment.
template <class R, class F, class... Args>
class MapExp : public Exp<MapExp<R, F, Args...>> {
 public:
  /// The result's element type.
  using value_type = R;
  /// The highest rank among the operands.
  static constexpr int rank = std::max({0, Args::rank...});

  /// `functor` over `args`, held by value.
  explicit MapExp(F functor, Args... args)
      : functor_(functor), args_(detail::make_operand_pack(args...)) {}

  /// The functor applied.
  const F& functor() const { return functor_; }
  /// The operands.
  const detail::PlanPack<Args...>& args() const { return args_; }

  /// The broadcast extent of the operands; throws ShapeError when they do not broadcast.
  Dim<rank> dims() const { return dims_of(std::index_sequence_for<Args...>{}); }

 private:
  template <std::size_t... I>
  Dim<rank> dims_of(std::index_sequence<I...>) const {
    return detail::broadcast_dims<rank>(detail::pack_get<I>(args_).dims()...);
  }

  F functor_;
  detail::PlanPack<Args...> args_;
};

namespace detail {

template <class R, class F, class Indices, class... Children>
struct MapPlanOver;

/// The plan of a MapExp: children are full plans (evaluated at an index) or row plans. The
/// children's positions I are a parameter of the type, so that every member expands over them
/// directly (a member and an _impl helper per member would double what each expression compiles).
template <class R, class F, class... Children>
using MapPlan = MapPlanOver<R, F, std::index_sequence_for<Children...>, Children...>;

template <class R, class F, std::size_t... I, class... Children>
struct MapPlanOver<R, F, std::index_sequence<I...>, Children...> {
  F functor;
  PlanPack<Children...> children;

  using result_type = compute_t<R>;

  // std::conjunction stops at the first false term, so a scalar_only functor is never tried on
  // batches: with a deduced return type, asking is_invocable would compile its body for them.
  template <class B>
  static constexpr bool vectorizable = std::conjunction_v<
      std::is_same<result_type, typename B::value_type>, std::negation<scalar_only<F>>,
      std::bool_constant<(vectorizable_v<Children, B> && ...)>,
      std::is_invocable_r<B, const F&, decltype((void)sizeof(Children), std::declval<B>())...>>;

  template <int N>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE result_type at(const Dim<N>& index) const {
    return static_cast<result_type>(functor(pack_get<I>(children).at(index)...));
  }
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE result_type flat(index_t i) const {
    return static_cast<result_type>(functor(pack_get<I>(children).flat(i)...));
  }
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE result_type get(index_t j) const {
    return static_cast<result_type>(functor(pack_get<I>(children).get(j)...));
  }
  template <class B>
  TENSORX_FORCE_INLINE B batch(index_t j) const {
    return functor(batch_of<B>(pack_get<I>(children), j)...);
  }
  /// Elements i .. i + V - 1 of a plan whose leaves are all dense (the CUDA dense kernel).
  template <int V>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE Lanes<result_type, V> load(index_t i) const {
    // Every operand's loads are issued before the first lane is computed, so they are all in
    // flight together.
    const auto operands = make_plan_pack(load_of<V>(pack_get<I>(children), i)...);
    return apply_lanes<V>(operands);
  }
  /// V elements along the last axis from `index` (the CUDA indexed kernel along rows).
  template <int V, int N>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE Lanes<result_type, V> load_at(
      const Dim<N>& index) const {
    const auto operands = make_plan_pack(load_at_of<V>(pack_get<I>(children), index)...);
    return apply_lanes<V>(operands);
  }
  template <int N>
  auto row(const Dim<N>& start) const {
    return MapPlan<R, F, decltype(row_of(pack_get<I>(children), start))...>{
        functor, make_plan_pack(row_of(pack_get<I>(children), start)...)};
  }
  auto flat_row() const {
    return MapPlan<R, F, decltype(flat_row_of(pack_get<I>(children)))...>{
        functor, make_plan_pack(flat_row_of(pack_get<I>(children))...)};
  }
  template <class Visitor>
  void visit_leaves(Visitor&& visitor) const {
    (pack_get<I>(children).visit_leaves(visitor), ...);
  }

 private:
  /// The functor lane by lane over the operands' loaded lanes.
  template <int V, class Operands>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE Lanes<result_type, V> apply_lanes(
      const Operands& operands) const {
    Lanes<result_type, V> lanes;
    TENSORX_UNROLL
    for (int k = 0; k < V; ++k) {
      lanes[k] = static_cast<result_type>(functor(pack_get<I>(operands)[k]...));
    }
    return lanes;
  }
};

/// prepare, make_plan and for_each_array of a MapExp over its operands' positions I. A node
/// whose operands all prepare to themselves returns itself, not a copy.
template <class R, class F, class... Args, class Context, std::size_t... I>
decltype(auto) prepare_map(const MapExp<R, F, Args...>& e, const Context& context,
                           std::index_sequence<I...>) {
  if constexpr ((prepared_itself_v<decltype(prepare(pack_get<I>(e.args()), context)), Args> &&
                 ...)) {
    return e;
  } else {
    return MapExp<R, F, std::decay_t<decltype(prepare(pack_get<I>(e.args()), context))>...>(
        e.functor(), prepare(pack_get<I>(e.args()), context)...);
  }
}
template <int N, class R, class F, class... Args, std::size_t... I>
auto map_plan(const MapExp<R, F, Args...>& e, const Dim<N>& out_dims, std::index_sequence<I...>) {
  return MapPlan<R, F, decltype(make_plan(pack_get<I>(e.args()), out_dims))...>{
      e.functor(), make_plan_pack(make_plan(pack_get<I>(e.args()), out_dims)...)};
}
template <class R, class F, class... Args, class Visitor, std::size_t... I>
void for_each_map_array(const MapExp<R, F, Args...>& e, Visitor& visitor,
                        std::index_sequence<I...>) {
  (for_each_array(pack_get<I>(e.args()), visitor), ...);
}

}  // namespace detail

///@{
/// The node protocol (expr/exp.h) for MapExp: each operand prepared (the node itself where none
/// changes), planned in the iteration space, and asked for the arrays it reads.
template <class R, class F, class... Args, class Context>
decltype(auto) prepare(const MapExp<R, F, Args...>& e, const Context& context) {
  return detail::prepare_map(e, context, std::index_sequence_for<Args...>{});
}

template <int N, class R, class F, class... Args>
auto make_plan(const MapExp<R, F, Args...>& e, const Dim<N>& out_dims) {
  return detail::map_plan(e, out_dims, std::index_sequence_for<Args...>{});
}

template <class R, class F, class... Args, class Visitor>
void for_each_array(const MapExp<R, F, Args...>& e, Visitor&& visitor) {
  detail::for_each_map_array(e, visitor, std::index_sequence_for<Args...>{});
}
///@}

namespace detail {

/// What an operand of an element-wise function becomes inside a MapExp: arrays and nodes stay
/// as they are, a scalar becomes a ScalarExp of the expression's element type T.
template <class T, class A>
auto as_operand(const A& a) {
  if constexpr (is_expression_v<A>) {
    return a;
  } else {
    static_assert(
        std::is_arithmetic_v<A> || is_narrow_float_v<A>,
        "An operand of a tensorx expression must be an array, an expression or a number.");
    return ScalarExp<T>(static_cast<T>(a));
  }
}

template <class A, class = void>
struct operand_value {
  using type = void;
};
template <class A>
struct operand_value<A, std::enable_if_t<is_expression_v<A>>> {
  using type = typename A::value_type;
};

template <class A, class = void>
struct operand_rank : std::integral_constant<int, 0> {};
template <class A>
struct operand_rank<A, std::enable_if_t<is_expression_v<A>>>
    : std::integral_constant<int, A::rank> {};

/// The element type shared by the expression operands among As (scalars adopt it); `agree` is
/// false when two of them differ (make_map's static_assert then says so).
template <class... As>
struct common_value;
template <>
struct common_value<> {
  using type = void;
  static constexpr bool agree = true;
};
template <class A, class... Rest>
struct common_value<A, Rest...> {
  using first = typename operand_value<A>::type;
  using rest = typename common_value<Rest...>::type;
  static constexpr bool agree =
      common_value<Rest...>::agree &&
      (std::is_void_v<first> || std::is_void_v<rest> || std::is_same_v<first, rest>);
  using type = std::conditional_t<std::is_void_v<first>, rest, first>;
};

/// What make_map returns once a static_assert has reported an ill-formed expression (operands of
/// different element types): a node that compiles wherever it goes, so that the sentence is the
/// only error the user reads.
template <class T, int N>
class InvalidExp : public Exp<InvalidExp<T, N>> {
 public:
  using value_type = T;
  static constexpr int rank = N;
  Dim<N> dims() const { return Dim<N>(); }
};

}  // namespace detail

/// The element-wise node applying `functor` to `operands` (arrays, expressions or scalars; at
/// least one must be an array or expression, and those must share one element type: a
/// static_assert says so); scalars take the operands' element type. Operands that do not
/// broadcast throw ShapeError when the node is assigned.
template <class F, class... Operands>
auto make_map(F functor, const Operands&... operands) {
  using Common = detail::common_value<Operands...>;
  using T = typename Common::type;
  static_assert(!std::is_void_v<T>,
                "An element-wise function needs at least one array or expression operand.");
  static_assert(Common::agree,
                "Arrays of different element types cannot be mixed in one expression: convert "
                "one of them with tx::cast<T>(...).");
  if constexpr (Common::agree) {
    return MapExp<T, F, decltype(detail::as_operand<T>(operands))...>(
        functor, detail::as_operand<T>(operands)...);
  } else {
    return detail::InvalidExp<T, std::max({0, detail::operand_rank<Operands>::value...})>();
  }
}

/// The element-wise node of a functor whose result has element type R (casts).
template <class R, class F, class E>
auto make_map_to(F functor, const E& operand) {
  static_assert(is_expression_v<E>, "make_map_to takes an array or expression operand.");
  return MapExp<R, F, E>(functor, operand);
}

namespace detail {
template <class T, int N, class Context>
const InvalidExp<T, N>& prepare(const InvalidExp<T, N>& e, const Context&) {
  return e;
}
template <int M, class T, int N>
ScalarPlan<compute_t<T>> make_plan(const InvalidExp<T, N>&, const Dim<M>&) {
  return {};
}
template <class T, int N, class F>
void for_each_array(const InvalidExp<T, N>&, F&&) {}
}  // namespace detail

}  // namespace tensorx
