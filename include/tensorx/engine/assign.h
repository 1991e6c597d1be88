// The assignment: every `dst = expr`, `dst += expr` and tx::assign goes through evaluate(), which
// checks everything before any work (shapes, places, where it can run), prepares the expression
// (materialises what cannot fuse), detects a destination that an operand reads through another
// index mapping (going through a temporary then), and finally runs ONE pass over the destination.
#pragma once

#include <type_traits>

#include "tensorx/array/array.h"
#include "tensorx/core/translation_unit.h"
#include "tensorx/engine/cpu_engine.h"
#include "tensorx/engine/gpu_dispatch.h"
#include "tensorx/engine/gpu_stream.h"
#include "tensorx/engine/operand_list.h"
#include "tensorx/expr/array_leaf.h"
#include "tensorx/expr/broadcast_exp.h"
#include "tensorx/expr/eval_context.h"
#include "tensorx/expr/exp.h"
#include "tensorx/expr/map_exp.h"
#include "tensorx/expr/saver.h"
#include "tensorx/place/device.h"

#if defined(__CUDACC__)
#include "tensorx/engine/cuda_engine.cuh"
#endif

namespace tensorx {

/// How a result is written (MXNet's write requests).
enum class OpReq {
  kNullOp,        ///< write nothing
  kWriteTo,       ///< overwrite the destination
  kWriteInplace,  ///< overwrite a destination that is also an input (the same as kWriteTo here)
  kAddTo          ///< add to the destination
};

namespace detail {

/// One pass writing dst; GPU work goes on `stream` (of dst's device).
template <class Saver, class TU, class T, int N, class Plan>
void run(const Array<T, N>& dst, const Plan& plan, StreamHandle stream) {
  if (is_on_gpu(dst)) {
    on_gpu(TU{}, dst.buffer()->place(), [&](auto tu) { run_gpu(tu, Saver{}, dst, plan, stream); });
  } else {
    run_cpu<Saver, TU>(dst, plan);
  }
}

/// dst = Saver(dst, temporary), the last pass of an assignment that went through a temporary.
/// Compiled once per Saver and destination type, not per expression.
template <class Saver, class TU, class T, int N>
void write_from_temporary(const Array<T, N>& dst, const Array<T, N>& temporary,
                          StreamHandle stream) {
  run<Saver, TU>(dst, make_plan(temporary, dst.dims()), stream);
}

/// A compound saver as the functor of an element-wise node: Saver(current, value). `dst op= e`
/// runs as `dst = SaverFunctor(dst, e)`, so that it compiles ONE pass whichever route it takes (a
/// pass writing the saver into dst and another writing e into the temporary compiled each
/// assignment twice: 5% of a unit of 20 assignments with four compound ones). Batches only where
/// the saver vectorizes C (not an integer division).
template <class Saver, class C, bool kBatches = Saver::template vectorizes<C>>
struct SaverFunctor {
  /// Saver's new element from the current one and the computed value, in the current one's type.
  template <class V, class W>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE V operator()(const V& current, const W& value) const {
    return Saver::apply(current, static_cast<V>(value));
  }
};
template <class Saver, class C>
struct SaverFunctor<Saver, C, false> : SaverFunctor<Saver, C, true> {
  /// Scalars only: the engines never try batches.
  using scalar_only = void;
};

/// The plan of dst = Saver(dst, plan): dst read where it is written.
template <class Saver, class T, int N, class Plan>
auto saved_into(const Array<T, N>& dst, const Plan& plan) {
  using Functor = SaverFunctor<Saver, compute_t<T>>;
  auto current = make_plan(dst, dst.dims());
  return MapPlan<T, Functor, decltype(current), Plan>{Functor{}, {{current}, {plan}}};
}

/// The element-wise half of an assignment, after the checks: prepare the expression, go through a
/// temporary if an operand reads dst through another index mapping (unless the caller vouched
/// that none does), then ONE pass over dst. `may_alias` is false where the caller knows that no
/// array of e is in dst's allocation: prepare() only adds new temporaries, so none of the
/// prepared expression's is either, and the check is skipped.
template <class Saver, class TU, Aliasing kAliasing = Aliasing::kCheck, class T, int N, class E>
void evaluate_elementwise(const Array<T, N>& dst, const E& e, bool may_alias = true) {
  const Place place = dst.place();
  const auto& prepared = prepare(e, EvalContext<TU>{place});
  // The arrays the pass reads, for the alias check and the stream order (materialised parts of
  // e are now arrays of their own).
  const bool check_aliasing = kAliasing == Aliasing::kCheck && may_alias;
  OperandList operands;
  if (check_aliasing || is_on_gpu(dst)) collect_operands(prepared, operands);
  // Both passes of the temporary route run on this stream, where the temporary is allocated;
  // where GPU work cannot run, run() throws.
  const PassRoute route = route_pass(operand_ref(dst), operands, check_aliasing);
  const bool through_temporary = route.through_temporary;
  const StreamHandle stream = route.stream;
  // The temporary route writes the result into a new array, then that array into dst: the
  // expression's pass is compiled once, whichever array it writes. A compound assignment's result
  // reads dst (the old values, which only the final copy overwrites).
  Array<T, N> temporary;
  if (through_temporary) temporary = Array<T, N>(dst.dims(), place);
  const Array<T, N>& target = through_temporary ? temporary : dst;
  if constexpr (std::is_same_v<Saver, saver::write>) {
    run<saver::write, TU>(target, make_plan(prepared, dst.dims()), stream);
  } else {
    run<saver::write, TU>(target, saved_into<Saver>(dst, make_plan(prepared, dst.dims())), stream);
  }
  if (through_temporary) write_from_temporary<saver::write, TU>(dst, temporary, stream);
}

}  // namespace detail

/// Nodes that write their result themselves instead of being evaluated element by element (a
/// reduction, a BLAS product, a tiled transpose) specialise DirectWriter with kEnabled = true and
///   template <class Saver, class TU, class T, int N>
///   static void write(const E& e, const Array<T, N>& dst);
/// which evaluate() calls after its checks, with dst allocated, of e's shape and not empty. A node
/// that the compiled layer can write into GPU memory from a plain C++ translation unit (a
/// reduction or product of plain arrays) also declares
///   static bool runs_without_cuda(const E& e);
template <class E, class = void>
struct DirectWriter {
  /// False: E is evaluated element by element, unless a specialisation says otherwise.
  static constexpr bool kEnabled = false;
};

namespace detail {

template <class E, class = void>
struct declares_runs_without_cuda : std::false_type {};
template <class E>
struct declares_runs_without_cuda<
    E, std::void_t<decltype(DirectWriter<E>::runs_without_cuda(std::declval<const E&>()))>>
    : std::true_type {};

/// The rank and element type of an expression, or -1 and void for anything else, so that the
/// checks of evaluate() can each report their own sentence and nothing after it.
template <class E, class = void>
struct expression_traits {
  static constexpr int rank = -1;
  using value_type = void;
};
template <class E>
struct expression_traits<E, std::enable_if_t<is_expression_v<E>>> {
  static constexpr int rank = E::rank;
  using value_type = typename E::value_type;
};

/// dst (allocated, of e's shape) = Saver(dst, e), after evaluate()'s checks; `may_alias` as for
/// evaluate_elementwise.
template <class Saver, class TU, Aliasing kAliasing = Aliasing::kCheck, class T, int N, class E>
void write_checked(const Array<T, N>& dst, const E& e, bool may_alias) {
  if (dst.numel() == 0) return;
  if constexpr (DirectWriter<E>::kEnabled) {
    DirectWriter<E>::template write<Saver, TU>(e, dst);
  } else {
    evaluate_elementwise<Saver, TU, kAliasing>(dst, e, may_alias);
  }
}

/// dst = Saver(dst, e): the one implementation of every assignment. Every check comes before any
/// work, and an unallocated dst receives a new array of e's shape only once it has been written,
/// so that a failed assignment (a check, an out-of-range gather index, an exception from a
/// functor) leaves dst as it was.
template <class Saver, class TU, Aliasing kAliasing, class T, int N, class E>
void evaluate(Array<T, N>& dst, const E& e) {
  using Traits = expression_traits<E>;
  constexpr bool kExpression = is_expression_v<E>;
  constexpr bool kRank = !kExpression || Traits::rank == N;
  constexpr bool kType = !kExpression || !kRank || std::is_same_v<typename Traits::value_type, T>;
  static_assert(kExpression, "Only arrays and tensorx expressions can be assigned.");
  static_assert(kRank,
                "The expression's rank differs from the destination's rank; broadcast it "
                "explicitly with tx::broadcast_to or reshape the destination.");
  static_assert(kType,
                "The expression's element type differs from the destination's; convert it with "
                "tx::cast<T>(...).");
  if constexpr (kExpression && kRank && kType) {
    const Dim<N> dims = e.dims();
    OperandList operands;
    collect_operands(e, operands);
    // A node whose DirectWriter writes GPU memory through the compiled layer needs no CUDA here.
    bool runs_without_cuda = false;
    if constexpr (declares_runs_without_cuda<E>::value) {
      runs_without_cuda = DirectWriter<E>::runs_without_cuda(e);
    }
    index_t extent[kMaxRank] = {};
    if constexpr (N > 0) {
      for (int i = 0; i < N; ++i) extent[i] = dims.at(i);
    }
    const bool allocated = dst.allocated();
    const Place place =
        check_assignment(operand_ref(dst), extent, Saver::reads_destination, operands,
                         std::is_same_v<TU, HostTranslationUnit> && !runs_without_cuda);
    if (allocated) {
      write_checked<Saver, TU, kAliasing>(dst, e, reads_allocation(operands, dst.buffer().get()));
    } else {
      // A new array: nothing can read it yet.
      Array<T, N> result(dims, place);
      write_checked<Saver, TU, kAliasing>(result, e, false);
      dst = std::move(result);
    }
  }
}

/// dst = Saver(dst, value) for every element: the number broadcast over dst's extent.
template <class Saver, class TU, class T, int N>
void evaluate_scalar(Array<T, N>& dst, T value) {
  evaluate<Saver, TU>(dst, broadcast_to(ScalarExp<T>(value), dst.dims()));
}

}  // namespace detail

///@{
/// Writes `e` to `dst` as `req` says: kNullOp writes nothing, kWriteTo and kWriteInplace
/// overwrite, kAddTo adds. `dst` may be an Array (allocated by a write if it is not yet) or a
/// view. Follows the assignment rules of Array: ShapeError, PlaceError, DeviceError, ... before
/// writing anything; Error for a value that is not an OpReq.
template <class T, int N, class E, class TU = detail::ThisTranslationUnit>
void assign(Array<T, N>& dst, const E& e, OpReq req) {
  switch (req) {
    case OpReq::kNullOp:
      return;
    case OpReq::kWriteTo:
    case OpReq::kWriteInplace:
      detail::evaluate<saver::write, TU>(dst, e);
      return;
    case OpReq::kAddTo:
      detail::evaluate<saver::add, TU>(dst, e);
      return;
  }
  throw Error(detail::message("unknown OpReq value ", static_cast<int>(req)));
}
template <class T, int N, class E, class TU = detail::ThisTranslationUnit>
void assign(Array<T, N>&& dst, const E& e, OpReq req) {
  assign<T, N, E, TU>(dst, e, req);
}
///@}

}  // namespace tensorx
