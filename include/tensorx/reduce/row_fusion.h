// Row-local fusion (DESIGN.md section 10): reductions over the last axis inside an expression,
// evaluated in the assignment's ONE pass instead of being materialised first.
//
// Two forms of assignment fuse, decided from the expression's type:
//   rows     an element-wise expression that reads reductions kept as a size-1 last axis,
//            `p = tx::exp(x - tx::max<1>(x, tx::keepdims))`: each reduction is one value per row
//            of the destination, computed before the row is written;
//   per row  the destination holds one value per row of the reduced operand,
//            `s = tx::max<1>(x) + tx::log(tx::sum<1>(tx::exp(x - tx::max<1>(x, tx::keepdims))))`:
//            reductions that drop the last axis, whose operands read kept reductions of their
//            own rows.
// Everything else (an expression without such a reduction, a reduction over another axis, a
// plain `s = tx::sum<1>(x)`) is evaluated exactly as before.
//
// The machinery, in three steps:
//   prepare_fused   prepare() for the whole expression, except that the reductions that fuse
//                   stay nodes (their operands prepared the same way);
//   make_fused_plan the plan, each fused reduction a RowReducePlan: its operand's plan over the
//                   operand's own rows, and the row length;
//   bind_rows       per row (or per output element), every RowReducePlan replaced by a
//                   RowConstPlan holding its value, innermost first. The bound plan is an ordinary
//                   element-wise plan, which the engines' existing row and vector loops evaluate.
// How a reduction's value is computed is the engine's (cpu_row_engine.h: SIMD over the row in
// cache; cuda_row_engine.cuh: a collective of the threads that own the row).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "tensorx/core/lanes.h"
#include "tensorx/engine/layout_facts.h"
#include "tensorx/expr/array_leaf.h"
#include "tensorx/expr/eval_context.h"
#include "tensorx/expr/exp.h"
#include "tensorx/expr/map_exp.h"
#include "tensorx/expr/plan_pack.h"
#include "tensorx/reduce/reduce_exp.h"

namespace tensorx {
namespace detail {

template <class E>
struct is_map_exp : std::false_type {};
template <class R, class F, class... Args>
struct is_map_exp<MapExp<R, F, Args...>> : std::true_type {};

/// The positions of a MapExp's operands.
template <class E>
struct map_operand_positions;
template <class R, class F, class... Args>
struct map_operand_positions<MapExp<R, F, Args...>> {
  using type = std::index_sequence_for<Args...>;
};
template <class E>
using map_indices = typename map_operand_positions<E>::type;

/// True for a value reduction (not argmax or argmin) over exactly the last axis of its operand:
/// the reductions that row-local evaluation can compute while it holds the row.
template <class E>
struct last_axis_reduction : std::false_type {};
template <class Op, class X, bool kKeepDims, int... Axes>
struct last_axis_reduction<ReduceExp<Op, X, kKeepDims, Axes...>>
    : std::bool_constant<!Op::kIndexed && (X::rank >= 1) &&
                         ReduceExp<Op, X, kKeepDims, Axes...>::kAxes ==
                             (1u << (X::rank >= 1 ? X::rank - 1 : 0))> {};

/// Where a fused reduction's value goes.
enum class RowRole {
  kRows,  ///< one value per row of the enclosing space: the last axis kept, of extent 1
  kFinal  ///< one value per element of the destination: the last axis of the operand dropped
};

/// True when E is a reduction that fuses in role kRole.
template <RowRole kRole, class E>
constexpr bool fuses_as() {
  if constexpr (last_axis_reduction<E>::value) {
    const bool keeps = E::rank == E::operand_type::rank;
    return kRole == RowRole::kRows ? keeps : !keeps;
  } else {
    return false;
  }
}

/// True when E is, or reads through element-wise nodes only, a reduction that fuses in kRole.
template <RowRole kRole, class E>
struct reads_fused : std::bool_constant<fuses_as<kRole, E>()> {};
template <RowRole kRole, class R, class F, class... Args>
struct reads_fused<kRole, MapExp<R, F, Args...>> : std::disjunction<reads_fused<kRole, Args>...> {};

/// How an assignment of E is evaluated (see the file comment).
enum class RowFusion { kNone, kRows, kPerRow };

template <class E>
constexpr RowFusion row_fusion_of() {
  if constexpr (is_reduce_exp<E>::value) {
    // A plain reduction keeps its own writer; one whose operand reads kept reductions of its
    // rows computes each result from its row: a destination with the last axis kept (of extent
    // 1) has rows of one element, one without it has an element per row.
    if constexpr (last_axis_reduction<E>::value) {
      if constexpr (reads_fused<RowRole::kRows, typename E::operand_type>::value) {
        return fuses_as<RowRole::kRows, E>() ? RowFusion::kRows : RowFusion::kPerRow;
      }
    }
    return RowFusion::kNone;
  } else if constexpr (is_map_exp<E>::value) {
    if constexpr (reads_fused<RowRole::kRows, E>::value) return RowFusion::kRows;
    if constexpr (reads_fused<RowRole::kFinal, E>::value) return RowFusion::kPerRow;
    return RowFusion::kNone;
  } else {
    return RowFusion::kNone;
  }
}

/// How an assignment of E is evaluated: row-local (kRows, kPerRow) or as before (kNone).
template <class E>
constexpr RowFusion row_fusion_v = row_fusion_of<E>();

/// The role of the reductions at the top of an expression of fusion kind `kind`.
constexpr RowRole top_role(RowFusion kind) {
  return kind == RowFusion::kRows ? RowRole::kRows : RowRole::kFinal;
}

/// How a GPU pass with fused reductions runs (cuda_row_engine.cuh). kAuto lets the pass choose
/// from the shape; the others force one way, so that tests can run each on small shapes.
enum class RowGpuMode {
  kAuto,           ///< chosen from the row length, row count and shared memory (the default)
  kWarp,           ///< a warp per row, rows staged in shared memory where they fit
  kBlock,          ///< a block per row, rows staged where they fit
  kBlockGlobal,    ///< a block per row, rows read from global memory by every sweep
  kMaterialising,  ///< the reductions materialised first, then one element-wise pass
  kCluster         ///< the blocks of a cluster per row, each its slice (forced_cluster_blocks of
                   ///< them), staged where they fit; a block per row where clusters cannot run
};

/// The mode of every GPU pass with fused reductions from now on: kAuto unless a test forces one.
/// Not thread-safe: set it only where no other thread assigns.
inline RowGpuMode forced_row_gpu_mode = RowGpuMode::kAuto;

/// The blocks of a cluster that RowGpuMode::kCluster gives each row (2 to 16). Not thread-safe,
/// as forced_row_gpu_mode.
inline int forced_cluster_blocks = 4;

// ---------------------------------------------------------------------------------------------
// Prepare: everything that cannot fuse is materialised as by prepare(); fused reductions stay.

template <RowRole kRole, class E, class TU>
auto prepare_fused(const E& e, const EvalContext<TU>& context);

template <RowRole kRole, class R, class F, class... Args, class TU, std::size_t... I>
auto prepare_fused_map(const MapExp<R, F, Args...>& e, const EvalContext<TU>& context,
                       std::index_sequence<I...>) {
  return MapExp<R, F, decltype(prepare_fused<kRole>(pack_get<I>(e.args()), context))...>(
      e.functor(), prepare_fused<kRole>(pack_get<I>(e.args()), context)...);
}

template <class Op, class X, bool kKeepDims, int... Axes, class TU>
auto prepare_fused_reduction(const ReduceExp<Op, X, kKeepDims, Axes...>& r,
                             const EvalContext<TU>& context) {
  auto operand = prepare_fused<RowRole::kRows>(r.operand(), context);
  return ReduceExp<Op, decltype(operand), kKeepDims, Axes...>(std::move(operand));
}

/// `e` with every part that does not fuse in role kRole prepared (materialised where it must
/// be), as a new node held by value.
template <RowRole kRole, class E, class TU>
auto prepare_fused(const E& e, const EvalContext<TU>& context) {
  if constexpr (fuses_as<kRole, E>()) {
    return prepare_fused_reduction(e, context);
  } else if constexpr (is_map_exp<E>::value && reads_fused<kRole, E>::value) {
    return prepare_fused_map<kRole>(e, context, map_indices<E>{});
  } else {
    return std::decay_t<decltype(prepare(e, context))>(prepare(e, context));
  }
}

// ---------------------------------------------------------------------------------------------
// Plans.

/// A reduction inside a row-local pass: the plan of its operand over the operand's own rows, of
/// `length` elements. kExtraAxis: the operand has one axis more than the enclosing space (the
/// reduction drops it), so its row at enclosing index i is (i, 0 .. length - 1); otherwise the
/// row is i's own, its last index running over 0 .. length - 1. Never evaluated as it is:
/// bind_rows replaces it by the reduction's value for the row at hand.
template <class Op, class C, class OperandPlan, bool kExtraAxis>
struct RowReducePlan {
  /// The compute type of the reduced elements, and of the value.
  using value_type = C;

  OperandPlan operand;
  index_t length;
  /// Every leaf of the operand has inner stride 0 or 1 (the CPU reduces its rows in batches).
  bool unit_inner;
  /// Where the value is kept for the rest of the row (RowValues), or -1; and the slot of an
  /// equal reduction computed before it (the same reduction of the same operands written twice,
  /// as softmax's max is), whose value it takes, or -1. number_row_reductions sets both.
  int slot;
  int same_as;

  /// The first element of the row that the enclosing index `index` (rank S) reduces.
  template <int S>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE auto row_start(const Dim<S>& index) const {
    if constexpr (kExtraAxis) {
      Dim<S + 1> start;
      if constexpr (S > 0) {
        TENSORX_UNROLL
        for (int d = 0; d < S; ++d) start.at(d) = index.at(d);
      }
      start.at(S) = 0;
      return start;
    } else {
      Dim<S> start = index;
      start.at(S - 1) = 0;
      return start;
    }
  }
  /// Nothing: the engines lay out the enclosing pass by the leaves it reads element by element.
  template <class Visitor>
  void visit_leaves(Visitor&&) const {}
};

/// A value that is the same for the whole row: a fused reduction once computed. It is read like a
/// number in the expression (the plan of a scalar: at, flat, rows, lanes and SIMD batches all
/// give the value).
template <class C>
using RowConstPlan = ScalarPlan<C>;

template <class Plan>
struct is_row_reduce_plan : std::false_type {};
template <class Op, class C, class OperandPlan, bool kExtraAxis>
struct is_row_reduce_plan<RowReducePlan<Op, C, OperandPlan, kExtraAxis>> : std::true_type {};

template <class Plan>
struct has_row_reduction : std::false_type {};
template <class Op, class C, class OperandPlan, bool kExtraAxis>
struct has_row_reduction<RowReducePlan<Op, C, OperandPlan, kExtraAxis>> : std::true_type {};
template <class R, class F, std::size_t... I, class... Children>
struct has_row_reduction<MapPlanOver<R, F, std::index_sequence<I...>, Children...>>
    : std::disjunction<has_row_reduction<Children>...> {};

template <RowRole kRole, class E, int S>
auto make_fused_plan(const E& e, const Dim<S>& space);

template <RowRole kRole, class R, class F, class... Args, int S, std::size_t... I>
auto make_fused_map_plan(const MapExp<R, F, Args...>& e, const Dim<S>& space,
                         std::index_sequence<I...>) {
  return MapPlan<R, F, decltype(make_fused_plan<kRole>(pack_get<I>(e.args()), space))...>{
      e.functor(), make_plan_pack(make_fused_plan<kRole>(pack_get<I>(e.args()), space)...)};
}

/// The space a fused reduction's operand is planned in, from the enclosing space: the enclosing
/// extents with the row's length last (replacing the enclosing last extent, or appended where the
/// reduction drops the axis).
template <bool kExtraAxis, int S>
auto operand_space(const Dim<S>& space, index_t length) {
  if constexpr (kExtraAxis) {
    Dim<S + 1> out;
    if constexpr (S > 0) {
      for (int d = 0; d < S; ++d) out.at(d) = space.at(d);
    }
    out.at(S) = length;
    return out;
  } else {
    Dim<S> out = space;
    out.at(S - 1) = length;
    return out;
  }
}

template <class Op, class X, bool kKeepDims, int... Axes, int S>
auto make_row_reduce_plan(const ReduceExp<Op, X, kKeepDims, Axes...>& r, const Dim<S>& space) {
  constexpr bool kExtraAxis = !kKeepDims;
  const auto operand_dims = r.operand().dims();
  const index_t length = operand_dims.at(X::rank - 1);
  const auto xspace = operand_space<kExtraAxis>(space, length);
  auto operand = make_fused_plan<RowRole::kRows>(r.operand(), xspace);
  LayoutFacts<kExtraAxis ? S + 1 : S> facts;
  operand.visit_leaves(
      [&](const void*, const auto& strides, std::size_t) { facts.add(xspace, strides); });
  return RowReducePlan<Op, compute_t<typename X::value_type>, decltype(operand), kExtraAxis>{
      operand, length, facts.unit_inner, -1, -1};
}

/// The plan of a prepare_fused expression in `space`: fused reductions as RowReducePlans, every
/// other part as make_plan makes it.
template <RowRole kRole, class E, int S>
auto make_fused_plan(const E& e, const Dim<S>& space) {
  if constexpr (fuses_as<kRole, E>()) {
    return make_row_reduce_plan(e, space);
  } else if constexpr (is_map_exp<E>::value && reads_fused<kRole, E>::value) {
    return make_fused_map_plan<kRole>(e, space, map_indices<E>{});
  } else {
    return make_plan(e, space);
  }
}

// ---------------------------------------------------------------------------------------------
// Binding: the plan for one row, every fused reduction replaced by its value.

/// The most reductions of one row-local pass whose values are kept for the rest of the row (a
/// reduction beyond them is computed again wherever it is read).
constexpr int kMaxRowSlots = 16;

/// The number of fused reductions in a plan of type Plan, nested ones included.
template <class Plan>
struct row_reduction_count : std::integral_constant<int, 0> {};
template <class Op, class C, class OperandPlan, bool kExtraAxis>
struct row_reduction_count<RowReducePlan<Op, C, OperandPlan, kExtraAxis>>
    : std::integral_constant<int, 1 + row_reduction_count<OperandPlan>::value> {};
template <class R, class F, std::size_t... I, class... Children>
struct row_reduction_count<MapPlanOver<R, F, std::index_sequence<I...>, Children...>>
    : std::integral_constant<int, (0 + ... + row_reduction_count<Children>::value)> {};

/// The slots a pass of plan type Plan keeps its reductions' values in: one per reduction.
template <class Plan>
constexpr int kRowSlotsOf = std::min(row_reduction_count<Plan>::value, kMaxRowSlots);

/// The values of a row's reductions, by slot, while the row is evaluated; kSlots of them (at
/// least one slot, so that the array is never empty).
template <int kSlots = kMaxRowSlots>
struct RowValues {
  static_assert(kSlots >= 0 && kSlots <= kMaxRowSlots, "a slot's bit is in `computed`");
  static constexpr int kWords = kSlots > 0 ? kSlots : 1;
  // A value is kept as the 64-bit word that holds its bytes. The slot is chosen at run time, so
  // each access picks its word by comparing the slot with every slot in turn: indexed with the
  // slot, the words lived in (GPU local) memory, which took several hundred bytes of stack
  // frame in every fused kernel (ptxas -v, sm_90); compared, they stay in registers.
  std::uint64_t words[kWords] = {};
  unsigned computed = 0;  // bit s: slot s holds its value

  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE bool holds(int slot) const {
    return slot >= 0 && slot < kSlots && ((computed >> slot) & 1u) != 0;
  }

  template <class C>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE C get(int slot) const {
    static_assert(sizeof(C) <= sizeof(std::uint64_t), "a reduced value outgrows its slot");
    std::uint64_t word = 0;
    TENSORX_UNROLL
    for (int s = 0; s < kSlots; ++s) {
      if (s == slot) word = words[s];
    }
    C value;
    memcpy(&value, &word, sizeof(C));
    return value;
  }
  /// Keeps `value` in `slot`; a slot beyond kSlots keeps nothing (holds stays false).
  template <class C>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE void set(int slot, const C& value) {
    std::uint64_t word = 0;
    memcpy(&word, &value, sizeof(C));
    TENSORX_UNROLL
    for (int s = 0; s < kSlots; ++s) {
      if (s == slot) words[s] = word;
    }
    if (slot >= 0 && slot < kSlots) computed |= 1u << slot;
  }
};

/// The value of a reduction already computed for this row, or of `compute()`, kept in its slot
/// (the engines' reducers call it with their own way of computing). number_row_reductions gives
/// no slot beyond kMaxRowSlots, and a pass keeps one slot per reduction (kRowSlotsOf).
TENSORX_EXEC_CHECK_DISABLE
template <class Plan, int kSlots, class Compute>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE auto row_value(const Plan& plan, RowValues<kSlots>& values,
                                                        Compute&& compute) {
  using C = typename Plan::value_type;
  // The value is kept in the slot of the first of the equal reductions; whichever of them the
  // row reaches first computes it (a part of the output read from a row buffer instead, as
  // row_stash.h makes it, is never bound, nor are its reductions).
  const int slot = plan.same_as >= 0 ? plan.same_as : plan.slot;
  if (values.holds(slot)) return RowConstPlan<C>{values.template get<C>(slot)};
  const C value = compute();
  if (slot >= 0) values.set(slot, value);
  return RowConstPlan<C>{value};
}

TENSORX_EXEC_CHECK_DISABLE
template <class Reducer, class Plan, int S>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE decltype(auto) bind_rows(const Plan& plan,
                                                                  const Dim<S>& index,
                                                                  Reducer& reducer);

TENSORX_EXEC_CHECK_DISABLE
template <class Reducer, class R, class F, std::size_t... I, class... Children, int S>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE auto bind_map_rows(
    const MapPlanOver<R, F, std::index_sequence<I...>, Children...>& plan, const Dim<S>& index,
    Reducer& reducer) {
  // The children are bound in order (a braced list sequences its elements), so that reductions
  // are computed, and collectives reached, in the same order by every thread.
  return MapPlan<R, F,
                 std::decay_t<decltype(bind_rows(pack_get<I>(plan.children), index, reducer))>...>{
      plan.functor, {{bind_rows(pack_get<I>(plan.children), index, reducer)}...}};
}

/// `plan` with each RowReducePlan replaced by the RowConstPlan of its value at enclosing index
/// `index` (computed by reducer.reduce), or `plan` itself where it holds none.
TENSORX_EXEC_CHECK_DISABLE
template <class Reducer, class Plan, int S>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE decltype(auto) bind_rows(const Plan& plan,
                                                                  const Dim<S>& index,
                                                                  Reducer& reducer) {
  if constexpr (!has_row_reduction<Plan>::value) {
    return (plan);
  } else if constexpr (is_row_reduce_plan<Plan>::value) {
    return reducer.reduce(plan, plan.row_start(index));
  } else {
    return bind_map_rows(plan, index, reducer);
  }
}

/// True when plans a and b are known to compute the same values: the same leaves at the same
/// strides, the same numbers, the same stateless functors, the same reductions. False where that
/// cannot be told (a functor with state, a node of another kind): the reduction is then computed
/// twice, which is never wrong.
template <class PlanA, class PlanB>
bool same_plan(const PlanA&, const PlanB&) {
  return false;
}
template <class T, int N>
bool same_plan(const LeafPlan<T, N>& a, const LeafPlan<T, N>& b) {
  return a.data == b.data && a.strides == b.strides;
}
template <class C>
bool same_plan(const ScalarPlan<C>& a, const ScalarPlan<C>& b) {
  return a.value == b.value;
}
template <class F, class = void>
struct has_equality : std::false_type {};
template <class F>
struct has_equality<F, std::void_t<decltype(std::declval<const F&>() == std::declval<const F&>())>>
    : std::true_type {};
/// Whether two functors of one type compute the same function: a stateless one always, one with
/// state where it says so with == (op::divides_by: the same divisor), else never.
template <class F>
bool same_functor(const F& a, const F& b) {
  if constexpr (std::is_empty_v<F>) {
    return true;
  } else if constexpr (has_equality<F>::value) {
    return a == b;
  } else {
    return false;
  }
}
template <class R, class F, std::size_t... I, class... Children>
bool same_plan(const MapPlanOver<R, F, std::index_sequence<I...>, Children...>& a,
               const MapPlanOver<R, F, std::index_sequence<I...>, Children...>& b) {
  return same_functor(a.functor, b.functor) &&
         (same_plan(pack_get<I>(a.children), pack_get<I>(b.children)) && ...);
}
// With and without the reduced axis kept, the same reduction of the same operand has the same
// value wherever both occur in one plan: the only plans that hold both are per-row ones (an output
// per row) whose keepdims reduction sits inside another reduction's operand, bound to the same row
// (logsumexp's two maxima).
template <class Op, class C, class OperandPlan, bool kExtraAxisA, bool kExtraAxisB>
bool same_plan(const RowReducePlan<Op, C, OperandPlan, kExtraAxisA>& a,
               const RowReducePlan<Op, C, OperandPlan, kExtraAxisB>& b) {
  return a.length == b.length && same_plan(a.operand, b.operand);
}

/// True when reductions of plan types A and B may be the same value (same_plan then tells).
template <class A, class B>
struct may_share_row_value : std::is_same<A, B> {};
template <class Op, class C, class OperandPlan, bool kExtraAxisA, bool kExtraAxisB>
struct may_share_row_value<RowReducePlan<Op, C, OperandPlan, kExtraAxisA>,
                           RowReducePlan<Op, C, OperandPlan, kExtraAxisB>> : std::true_type {};

/// Calls f(child) for every child of an element-wise plan, as a reference that may change it.
TENSORX_EXEC_CHECK_DISABLE
template <class R, class F, std::size_t... I, class... Children, class G>
TENSORX_HOST_DEVICE void for_each_child(
    MapPlanOver<R, F, std::index_sequence<I...>, Children...>& plan, G&& g) {
  (g(static_cast<PackSlot<I, Children>&>(plan.children).value), ...);
}

/// Calls f(reduction) for every RowReducePlan in `plan`, in the order bind_rows computes them
/// (operands before the reduction, operands of an element-wise node in order).
template <class Plan, class F>
void for_each_row_reduction(Plan& plan, F&& f) {
  if constexpr (is_row_reduce_plan<Plan>::value) {
    for_each_row_reduction(plan.operand, f);
    f(plan);
  } else if constexpr (has_row_reduction<Plan>::value) {
    for_each_child(plan, [&](auto& child) { for_each_row_reduction(child, f); });
  }
}

/// Numbers the reductions of a fused plan in the order they are computed, and points each at the
/// first equal one before it (same_plan), whose value it then takes instead of computing it again.
template <class Plan>
void number_row_reductions(Plan& plan) {
  int next = 0;
  for_each_row_reduction(plan, [&](auto& reduction) {
    using Reduction = std::decay_t<decltype(reduction)>;
    int first = 0;
    for_each_row_reduction(plan, [&](auto& earlier) {
      if constexpr (may_share_row_value<std::decay_t<decltype(earlier)>, Reduction>::value) {
        if (first < next && reduction.same_as < 0 && earlier.slot >= 0 &&
            same_plan(earlier, reduction)) {
          reduction.same_as = earlier.slot;
        }
      }
      ++first;
    });
    if (reduction.same_as < 0 && next < kMaxRowSlots) reduction.slot = next;
    ++next;
  });
}

template <class Plan>
struct is_map_plan : std::false_type {};
template <class R, class F, std::size_t... I, class... Children>
struct is_map_plan<MapPlanOver<R, F, std::index_sequence<I...>, Children...>> : std::true_type {};

/// Calls f(leaf, start, length, in_reduction) for every array leaf of `plan` (which may change
/// it), with the first index of the row it reads for the enclosing index `index` (of a row
/// start), the row's length (0 for leaves of a per-row pass's results, which read no row), and
/// whether a reduction reads it (then the pass reads it more than once).
TENSORX_EXEC_CHECK_DISABLE
template <bool kInReduction, class Plan, int S, class F>
TENSORX_HOST_DEVICE void for_each_row_leaf(Plan& plan, const Dim<S>& index, index_t length, F& f) {
  if constexpr (is_leaf_plan<Plan>::value) {
    if constexpr (S > 0) f(plan, index, length, kInReduction);
  } else if constexpr (is_row_reduce_plan<Plan>::value) {
    for_each_row_leaf<true>(plan.operand, plan.row_start(index), plan.length, f);
  } else if constexpr (is_map_plan<Plan>::value) {
    for_each_child(plan,
                   [&](auto& child) { for_each_row_leaf<kInReduction>(child, index, length, f); });
  }
}

/// A visitor of a fused plan's leaves (for_each_row_leaf): `all` stays true while
/// pred(leaf.data, leaf.strides, element size) holds for every leaf it visits.
template <class Pred>
struct EveryLeafCheck {
  Pred pred;
  bool all = true;

  template <class T, int M>
  void operator()(LeafPlan<T, M>& leaf, const Dim<M>&, index_t, bool) {
    all = all && pred(static_cast<const void*>(leaf.data), leaf.strides, sizeof(T));
  }
};

/// True when pred(data, strides, element size) holds for every array leaf of `plan` (rank-N
/// enclosing space), those its reductions read included: how the GPU row kernel may read the
/// pass's rows (FusedLaunch).
template <int N, class Plan, class Pred>
bool every_row_leaf(const Plan& plan, Pred pred) {
  EveryLeafCheck<Pred> check{pred};
  Plan copy = plan;  // for_each_row_leaf visits mutable plans
  for_each_row_leaf<false>(copy, Dim<N>(), 0, check);
  return check.all;
}

/// Calls f(plan) for every RowReducePlan at the top of `plan` (not inside another's operand).
template <class Plan, class F>
void for_each_top_reduction(const Plan& plan, F&& f) {
  if constexpr (is_row_reduce_plan<Plan>::value) {
    f(plan);
  } else if constexpr (has_row_reduction<Plan>::value) {
    apply_pack([&](const auto&... children) { (for_each_top_reduction(children, f), ...); },
               plan.children);
  }
}

}  // namespace detail
}  // namespace tensorx
