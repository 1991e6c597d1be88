// The rows pass's answer to an element-wise part that feeds both a reduction and the output, as
// softmax's exp(x - max) does in
//   p = tx::exp(x - m) / tx::sum<1>(tx::exp(x - m), tx::keepdims)
// Computed twice per element it doubles the pass's arithmetic (an exp is most of a softmax on a
// CPU, and 36 of the 68 instructions per four floats of the GPU kernel's output loop); instead the
// reduction's sweep keeps the values it reduced in a row buffer, and the output reads them back.
// The CPU pass keeps the buffer in memory (cpu_row_engine.h), a GPU team in its share of shared
// memory (cuda_row_engine.cuh).
//
// At compile time: the first operand type of the output's own reductions that also occurs in the
// output (outside reductions) is the stash; every occurrence in the output becomes a
// RowBufferPlan. At run time (once per assignment): the occurrences must all be the same part
// (same_plan), else the pass runs without a stash; the reduction whose operand is that same part
// fills the buffer as it reduces, or, where none is, a CPU sweep of its own fills it before the
// row is written (the values are then still computed once for the output, as without a stash; a
// GPU pass runs without a stash then).
#pragma once

#include <tuple>
#include <type_traits>

#include "tensorx/core/lanes.h"
#include "tensorx/core/simd_storage.h"
#include "tensorx/expr/map_exp.h"
#include "tensorx/reduce/row_fusion.h"

namespace tensorx {
namespace detail {

/// A part of a row's output already computed: element j of the row is data[j].
template <class C>
struct RowBufferPlan {
  const C* data;

  template <class B>
  static constexpr bool vectorizable = std::is_same_v<C, typename B::value_type>;

  // Host and device, like every plan's accessors, though only the CPU pass makes it: nvcc
  // compiles the element-wise plans around it for both.
  template <int N>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE C at(const Dim<N>& index) const {
    return data[index.at(N - 1)];
  }
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE C flat(index_t i) const { return data[i]; }
  /// Elements index[N - 1] .. + V - 1 of the row (a multiple of V, so that they are aligned as
  /// load_lanes needs in a 16-byte aligned buffer).
  template <int V, int N>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE Lanes<C, V> load_at(const Dim<N>& index) const {
    return load_lanes<C, V>(data + index.at(N - 1));
  }
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE C get(index_t j) const { return data[j]; }
  template <class B>
  TENSORX_FORCE_INLINE B batch(index_t j) const {
    return load_batch<B>(data + j);
  }
  template <int N>
  RowBufferPlan row(const Dim<N>&) const {
    return *this;
  }
  template <class Visitor>
  void visit_leaves(Visitor&&) const {}
};

// ---- compile time: which part is stashed ------------------------------------------------------

/// True when plan type Tree is T or holds T outside reductions.
template <class Tree, class T>
struct holds_part : std::is_same<Tree, T> {};
template <class R, class F, std::size_t... I, class... Children, class T>
struct holds_part<MapPlanOver<R, F, std::index_sequence<I...>, Children...>, T>
    : std::disjunction<std::is_same<MapPlanOver<R, F, std::index_sequence<I...>, Children...>, T>,
                       holds_part<Children, T>...> {};

/// The operand types of the reductions at the top of a rows plan (in the output's own space).
template <class Plan>
struct top_operands {
  using type = std::tuple<>;
};
template <class Op, class C, class OperandPlan>
struct top_operands<RowReducePlan<Op, C, OperandPlan, false>> {
  using type = std::tuple<OperandPlan>;
};
template <class R, class F, std::size_t... I, class... Children>
struct top_operands<MapPlanOver<R, F, std::index_sequence<I...>, Children...>> {
  using type = decltype(std::tuple_cat(std::declval<typename top_operands<Children>::type>()...));
};

/// The first of Candidates that the output of Plan holds outside reductions (and is an
/// element-wise part, not a lone leaf), or void.
template <class Plan, class Candidates>
struct first_held;
template <class Plan>
struct first_held<Plan, std::tuple<>> {
  using type = void;
};
template <class Plan, class First, class... Rest>
struct first_held<Plan, std::tuple<First, Rest...>> {
  using type = std::conditional_t<is_map_plan<First>::value && holds_part<Plan, First>::value,
                                  First, typename first_held<Plan, std::tuple<Rest...>>::type>;
};

/// The stashed part of a rows plan, or void where it has none.
template <class Plan>
using stash_part_t = typename first_held<Plan, typename top_operands<Plan>::type>::type;

// ---- run time ------------------------------------------------------------------------------

TENSORX_EXEC_CHECK_DISABLE
template <class Part, class R, class F, std::size_t... I, class... Children, class C>
TENSORX_HOST_DEVICE auto with_buffer_children(
    const MapPlanOver<R, F, std::index_sequence<I...>, Children...>& plan, const C* buffer);

/// `plan` with every occurrence of Part outside reductions read from `buffer` (on the CPU, and
/// per item of a GPU team, whose buffer is in its share of shared memory).
TENSORX_EXEC_CHECK_DISABLE
template <class Part, class Plan, class C>
TENSORX_HOST_DEVICE auto with_buffer(const Plan& plan, const C* buffer) {
  if constexpr (std::is_same_v<Plan, Part>) {
    return RowBufferPlan<C>{buffer};
  } else if constexpr (is_map_plan<Plan>::value && holds_part<Plan, Part>::value) {
    return with_buffer_children<Part>(plan, buffer);
  } else {
    return plan;
  }
}
TENSORX_EXEC_CHECK_DISABLE
template <class Part, class R, class F, std::size_t... I, class... Children, class C>
TENSORX_HOST_DEVICE auto with_buffer_children(
    const MapPlanOver<R, F, std::index_sequence<I...>, Children...>& plan, const C* buffer) {
  return MapPlan<R, F, decltype(with_buffer<Part>(pack_get<I>(plan.children), buffer))...>{
      plan.functor, {{with_buffer<Part>(pack_get<I>(plan.children), buffer)}...}};
}

/// Calls f(part) for every occurrence of Part in `plan` outside reductions.
template <class Part, class Plan, class F>
void for_each_stashed_part(const Plan& plan, F&& f) {
  if constexpr (std::is_same_v<Plan, Part>) {
    f(plan);
  } else if constexpr (is_map_plan<Plan>::value && holds_part<Plan, Part>::value) {
    apply_pack([&](const auto&... children) { (for_each_stashed_part<Part>(children, f), ...); },
               plan.children);
  }
}

/// Where the stashed part comes from in a rows pass: the first occurrence (for the sweep that
/// fills the buffer where no reduction does), the slot of the reduction that fills it (-1 where
/// none does), and whether the stash can be used at all (every occurrence the same part).
template <class Part>
struct StashSource {
  const Part* part = nullptr;
  int filling_slot = -1;
  bool usable = false;
};

/// The stash of a rows plan whose rows are `length` long.
template <class Part, class Plan>
StashSource<Part> find_stash_source(const Plan& plan, index_t length) {
  StashSource<Part> source;
  source.usable = true;
  for_each_stashed_part<Part>(plan, [&](const Part& part) {
    if (source.part == nullptr) {
      source.part = &part;
    } else if (!same_plan(*source.part, part)) {
      source.usable = false;
    }
  });
  for_each_top_reduction(plan, [&](const auto& reduction) {
    using Operand = std::decay_t<decltype(reduction.operand)>;
    if constexpr (std::is_same_v<Operand, Part>) {
      if (source.filling_slot < 0 && reduction.slot >= 0 && reduction.length == length &&
          same_plan(reduction.operand, *source.part)) {
        source.filling_slot = reduction.slot;
      }
    }
  });
  return source;
}

/// A row adaptor that writes every element it is asked for into `buffer` as it passes it on: the
/// reduction's sweep over the stashed part fills the row buffer on the way.
template <class Row, class C>
struct StoringRow {
  Row row;
  C* buffer;

  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE C get(index_t j) const {
    const C value = static_cast<C>(row.get(j));
    buffer[j] = value;
    return value;
  }
  template <class B>
  TENSORX_FORCE_INLINE B batch(index_t j) const {
    const B value = batch_of<B>(row, j);
    store_batch(buffer + j, value);
    return value;
  }
};

}  // namespace detail
}  // namespace tensorx
