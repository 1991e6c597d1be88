// tx::concat<axis>(a, b, ...): expressions of one rank and element type joined end to end along
// one axis. An element-wise node: each output element reads the operand whose range along the
// axis covers its index, at that index minus the operand's start, so a concat is ONE pass with no
// temporaries, and its operands may be any expressions (they are evaluated in place, not copied).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <limits>
#include <sstream>
#include <tuple>
#include <type_traits>
#include <utility>

#include "tensorx/core/error.h"
#include "tensorx/expr/eval_context.h"
#include "tensorx/expr/exp.h"
#include "tensorx/expr/indirect_read.h"
#include "tensorx/expr/plan_pack.h"
#include "tensorx/layout/concat_plan.h"
#include "tensorx/layout/slice_exp.h"

namespace tensorx {

/// The concat node; see tx::concat.
template <int Axis, class... Es>
class ConcatExp : public Exp<ConcatExp<Axis, Es...>> {
  static_assert(sizeof...(Es) > 0, "tx::concat needs at least one operand.");
  using First = std::tuple_element_t<0, std::tuple<Es...>>;

 public:
  /// The operands' element type.
  using value_type = typename First::value_type;
  /// The operands' rank.
  static constexpr int rank = First::rank;
  /// The number of operands.
  static constexpr std::size_t count = sizeof...(Es);
  static_assert(((Es::rank == rank) && ...), "tx::concat joins operands of one rank.");
  static_assert((std::is_same_v<typename Es::value_type, value_type> && ...),
                "tx::concat joins operands of one element type; convert them with "
                "tx::cast<T>(...).");
  static_assert(0 <= Axis && Axis < rank, "The concat axis must be an axis of the operands.");

  /// `operands` joined along Axis (their extents are checked by dims()).
  explicit ConcatExp(Es... operands) : operands_(detail::make_operand_pack(operands...)) {}

  /// The joined operands.
  const detail::PlanPack<Es...>& operands() const { return operands_; }

  /// Where each operand starts along the axis; the last entry is the joined extent. Throws
  /// ShapeError naming every shape when the operands' extents differ off the axis.
  std::array<index_t, count + 1> starts() const {
    const auto shapes = detail::apply_pack(
        [](const auto&... e) { return std::array<Dim<rank>, count>{e.dims()...}; }, operands_);
    std::array<index_t, count + 1> starts{};
    bool fits = true;
    for (std::size_t k = 0; k < count; ++k) {
      for (int i = 0; i < rank; ++i) {
        if (i != Axis && shapes[k].at(i) != shapes[0].at(i)) fits = false;
      }
      starts[k + 1] = starts[k] + shapes[k].at(Axis);
    }
    if (!fits) {
      std::ostringstream listed;
      for (std::size_t k = 0; k < count; ++k) listed << (k ? " and " : "") << shapes[k];
      throw ShapeError(detail::message("cannot concatenate shapes ", listed.str(), " along axis ",
                                       Axis, ": their extents differ off that axis"));
    }
    return starts;
  }

  /// The joined extent; throws ShapeError as starts() does.
  Dim<rank> dims() const {
    Dim<rank> dims = detail::pack_get<0>(operands_).dims();
    dims.at(Axis) = starts()[count];
    return dims;
  }

 private:
  detail::PlanPack<Es...> operands_;
};

/// `operands` (arrays or expressions of one rank and element type, at least one) joined along
/// Axis: the result's extent along Axis is the sum of theirs. Throws ShapeError naming the shapes
/// when their other extents differ, when assigned. A lazy node, evaluated in the one pass of the
/// assignment on the destination's place.
template <int Axis, class... Es, class = std::enable_if_t<(is_expression_v<Es> && ...)>>
ConcatExp<Axis, Es...> concat(const Es&... operands) {
  return ConcatExp<Axis, Es...>(operands...);
}

///@{
/// The node protocol (expr/exp.h) for ConcatExp: every operand prepared in place; the plan reads
/// each output element from the operand whose range along Axis covers it; all but the first
/// operand count as read indirectly.
template <int N, int Axis, class... Es>
auto make_plan(const ConcatExp<Axis, Es...>& e, const Dim<N>& out_dims) {
  using Node = ConcatExp<Axis, Es...>;
  constexpr int kSpaceAxis = Axis + N - Node::rank;
  const auto starts = e.starts();
  auto plan = detail::apply_pack(
      [&](const auto&... operand) {
        return detail::ConcatPlan<N, kSpaceAxis, compute_t<typename Node::value_type>,
                                  decltype(make_plan(operand, out_dims))...>{
            detail::make_plan_pack(make_plan(operand, out_dims)...)};
      },
      e.operands());
  plan.choice_strides = contiguous_strides(out_dims);
  std::size_t last_nonempty = 0;
  for (std::size_t k = 0; k < Node::count; ++k) {
    plan.begins[k] = starts[k];
    plan.ends[k] = starts[k + 1];
    if (starts[k + 1] > starts[k]) last_nonempty = k;
  }
  for (int i = kSpaceAxis + 1; i < N; ++i) plan.inner *= out_dims.at(i);
  for (int i = 0; i < kSpaceAxis; ++i) plan.choice_strides.at(i) = 0;
  for (std::size_t k = 0; k < Node::count; ++k) plan.flat_ends[k] = plan.ends[k] * plan.inner;
  plan.ends[last_nonempty] = plan.flat_ends[last_nonempty] = std::numeric_limits<index_t>::max();
  return plan;
}

template <int Axis, class... Es, class Context>
auto prepare(const ConcatExp<Axis, Es...>& e, const Context& context) {
  return detail::apply_pack(
      [&](const auto&... operand) {
        return ConcatExp<Axis, std::decay_t<decltype(prepare(operand, context))>...>(
            prepare(operand, context)...);
      },
      e.operands());
}

// The first operand is read at the destination's index; the others at an index shifted along the
// axis, which the alias check cannot compare, so they are reported as read indirectly.
template <int Axis, class... Es, class F>
void for_each_array(const ConcatExp<Axis, Es...>& e, F&& f) {
  detail::apply_pack(
      [&](const auto& first, const auto&... rest) {
        for_each_array(first, f);
        (detail::for_each_array_read_indirectly(rest, f), ...);
      },
      e.operands());
}
///@}

namespace detail {

/// Operand k of a concat, which spans [start, stop) along the concat axis, cut by a slice of the
/// concat: along that axis to its overlap with [begin, end), along any other axis the same slice.
template <class E, class TU>
auto push_slice_into_part(const E& operand, index_t start, index_t stop, bool along_concat_axis,
                          int axis, index_t begin, index_t end, const EvalContext<TU>& context) {
  if (along_concat_axis) {
    const auto clamp = [&](index_t x) {
      return std::min(std::max(x - start, index_t{0}), stop - start);
    };
    return push_slice(operand, axis, clamp(begin), clamp(end), context);
  }
  return push_slice(operand, axis, begin, end, context);
}

template <int Axis, class... Es, class TU, std::size_t... I>
auto push_slice_into_parts(const ConcatExp<Axis, Es...>& e, int axis, index_t begin, index_t end,
                           const EvalContext<TU>& context, std::index_sequence<I...>) {
  const auto starts = e.starts();
  return ConcatExp<Axis, decltype(push_slice_into_part(pack_get<I>(e.operands()), 0, 0, false, axis,
                                                       begin, end, context))...>(
      push_slice_into_part(pack_get<I>(e.operands()), starts[I], starts[I + 1], axis == Axis, axis,
                           begin, end, context)...);
}

}  // namespace detail

/// A concat: along its axis each operand keeps its overlap with the slice, along any other axis
/// every operand is sliced alike.
template <int Axis, class... Es, class TU>
auto push_slice(const ConcatExp<Axis, Es...>& e, int axis, index_t begin, index_t end,
                const detail::EvalContext<TU>& context) {
  return detail::push_slice_into_parts(e, axis, begin, end, context,
                                       std::index_sequence_for<Es...>{});
}

}  // namespace tensorx
