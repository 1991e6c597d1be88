// How a reduction is assigned: as the whole right-hand side of `dst = reduction` (or +=, or
// tx::assign with any OpReq) it writes dst itself through the DirectWriter hook of assign.h. Its
// operand is prepared (nested reductions materialised), then read by ONE pass of the CPU engine
// (cpu_reduce.h) or ONE kernel (cuda_reduce.cuh, in CUDA translation units). A plain C++
// translation unit reduces a plain GPU array through the compiled layer (reduce/compiled_reduce.h).
// An operand that reads dst's memory is reduced into a temporary first.
#pragma once

#include <type_traits>

#include "tensorx/array/array.h"
#include "tensorx/array/global_ops.h"
#include "tensorx/engine/assign.h"
#include "tensorx/engine/gpu_dispatch.h"
#include "tensorx/engine/gpu_stream.h"
#include "tensorx/expr/broadcast_exp.h"
#include "tensorx/expr/scalar_exp.h"
#include "tensorx/layout/permute_exp.h"
#include "tensorx/reduce/compiled_array_reduce.h"
#include "tensorx/reduce/compiled_reduce.h"
#include "tensorx/reduce/cpu_reduce.h"
#include "tensorx/reduce/reduce_exp.h"
#include "tensorx/reduce/reduce_geometry.h"
#include "tensorx/reduce/row_writer.h"

#if defined(__CUDACC__)
#include "tensorx/reduce/cuda_reduce.cuh"
#endif

namespace tensorx {
namespace detail {

/// True when an array `operand` reads shares bytes with dst: a reduction writes results while
/// other results still read the operand, so no overlap is safe.
template <class T, int N, class E>
bool overlaps_destination(const Array<T, N>& dst, const E& operand) {
  OperandList operands;
  collect_operands(operand, operands);
  return overlaps_any(operand_ref(dst), operands);
}

/// Reduces a prepared operand into dst (not overlapping it) in ONE pass on dst's place. Without
/// kCpuEngine the CPU loops are not instantiated, and dst must be on a GPU.
template <class Op, class Saver, class TU, bool kCpuEngine, class T, int N, class E>
void reduce_prepared(const E& prepared, unsigned mask, const Array<T, N>& dst) {
  const auto space = make_reduce_space(prepared.dims(), mask, dst);
  if (space.reduced_count() == 0) {
    // Nothing to reduce: every result is the reducer's identity, finalized (0, 1 or NaN).
    using C = compute_t<typename E::value_type>;
    const auto empty = Op::finalize(Op::template identity<C>(), 0);
    evaluate_elementwise<Saver, TU>(dst,
                                    broadcast_to(ScalarExp<T>(to_storage<T>(empty)), dst.dims()));
    return;
  }
  const auto plan = make_plan(prepared, space.dims);
  if (is_gpu_place(dst.place())) {
    on_gpu(TU{}, dst.place(), [&](auto tu) {
      reduce_gpu(tu, Op{}, Saver{}, dst.data(), dst.place(), space, plan,
                 ordered_stream(dst, prepared));
    });
  } else if constexpr (kCpuEngine) {
    reduce_cpu<Op, Saver>(dst.data(), space, plan);
  }
}

/// The compiled layer's path for a plain array on a GPU, from a plain C++ translation unit. A
/// strided or overlapping operand is copied densely first; axes that are not one block are
/// brought together by a copy that puts the kept axes first (one more pass each).
template <class Op, class Saver, class T, int N, class U, int M>
void reduce_compiled(Array<U, M> source, unsigned mask, const Array<T, N>& dst) {
  const Place place = dst.place();
  if (!source.is_contiguous() || overlaps_destination(dst, source)) source = to(source, place);
  auto space = merged(make_reduce_space(source.dims(), mask, dst));
  ThreeAxes form;
  if (!three_axes_form(space, &form)) {
    if (!dst.is_contiguous()) {
      Array<T, N> dense =
          Saver::reads_destination ? to(dst, place) : Array<T, N>(dst.dims(), place);
      reduce_compiled<Op, Saver>(source, mask, dense);
      copy(dst, dense);
      return;
    }
    if constexpr (M > 1) {
      Dim<M> order;
      int next = 0;
      for (int pass = 0; pass < 2; ++pass) {
        for (int i = 0; i < M; ++i) {
          if (((mask >> i) & 1u) == static_cast<unsigned>(pass)) order.at(next++) = i;
        }
      }
      source = to(permuted_view(source, order), place);
      const int kept = M - count_axes(mask);
      ReduceSpace<M> ordered;
      ordered.dims = source.dims();
      ordered.mask = ((1u << M) - 1u) & ~((1u << kept) - 1u);
      ordered.dst_strides = contiguous_strides(ordered.kept_dims());
      for (int i = kept; i < M; ++i) ordered.dst_strides.at(i) = 0;
      three_axes_form(merged(ordered), &form);
    }
  }
  // The compiled reduction runs on the current stream, which this orders.
  ordered_stream(dst, source);
  reduce_contiguous(Op::kOp, data_type_of<U>(), source.data(), dst.data(), form, place,
                    save_mode_of<Saver>());
}

/// dst = Saver(dst, Op over the axes in `mask` of operand) in this translation unit's engines:
/// the fused CPU loop or the kernel of dst's place, or (kCpuEngine false) the kernel only, for a
/// GPU dst.
template <class Op, class Saver, class TU, bool kCpuEngine, class T, int N, class E>
void write_fused_reduction(const E& operand, unsigned mask, const Array<T, N>& dst) {
  const auto& prepared = prepare(operand, EvalContext<TU>{dst.place()});
  if (overlaps_destination(dst, prepared)) {
    Array<T, N> temporary(dst.dims(), dst.place());
    reduce_prepared<Op, saver::write, TU, kCpuEngine>(prepared, mask, temporary);
    evaluate_elementwise<Saver, TU>(dst, temporary);
  } else {
    reduce_prepared<Op, Saver, TU, kCpuEngine>(prepared, mask, dst);
  }
}

/// dst = Saver(dst, Op over the axes in `mask` of operand) with what this translation unit
/// instantiates: the fused engines, or for a plain array on a GPU from a plain C++ unit the
/// compiled kernels. The compiled layer's own reductions come here.
template <class Op, class Saver, class TU, class T, int N, class E>
void write_reduction_in_unit(const E& operand, unsigned mask, const Array<T, N>& dst) {
  if constexpr (std::is_same_v<TU, HostTranslationUnit> && is_array<E>::value) {
    if (is_gpu_place(dst.place())) {
      reduce_compiled<Op, Saver>(operand, mask, dst);
      return;
    }
  }
  write_fused_reduction<Op, Saver, TU, true>(operand, mask, dst);
}

/// dst = Saver(dst, Op over the axes in `mask` of operand): the DirectWriter of every reduction,
/// after evaluate()'s checks (ReduceExp::dims() included). A plain array goes to the compiled
/// layer where it can (compiled_array_reduce.h), except to a GPU from a CUDA translation unit,
/// whose kernel is instantiated here as before.
template <class Op, class Saver, class TU, class T, int N, class E>
void write_reduction(const E& operand, unsigned mask, const Array<T, N>& dst) {
  if constexpr (runs_in_compiled_layer<Op, Saver, T, E>()) {
    if constexpr (std::is_same_v<TU, CudaTranslationUnit>) {
      if (is_gpu_place(dst.place())) {
        write_fused_reduction<Op, Saver, TU, false>(operand, mask, dst);
        return;
      }
    }
    reduce_in_compiled_layer<Op>(operand, mask, dst);
  } else {
    write_reduction_in_unit<Op, Saver, TU>(operand, mask, dst);
  }
}

}  // namespace detail

/// A reduction writes its destination itself (see the file comment).
template <class Op, class E, bool kKeepDims, int... Axes>
struct DirectWriter<ReduceExp<Op, E, kKeepDims, Axes...>> {
  /// The node written.
  using Node = ReduceExp<Op, E, kKeepDims, Axes...>;
  /// True: a reduction is never evaluated element by element.
  static constexpr bool kEnabled = true;

  /// A reduction of a plain array also runs on a GPU from a plain C++ translation unit.
  static bool runs_without_cuda(const Node&) { return detail::is_array<E>::value; }

  /// dst = Saver(dst, the reduction), one pass over the operand on dst's place; row by row
  /// (row_writer.h) where the operand reads reductions of its own rows.
  template <class Saver, class TU, class T, int N>
  static void write(const Node& node, const Array<T, N>& dst) {
    if constexpr (detail::row_fusion_v<Node> != detail::RowFusion::kNone) {
      detail::write_fused_rows<Saver, TU>(node, dst, [&] {
        detail::write_reduction<Op, Saver, TU>(node.operand(), Node::kAxes, dst);
      });
    } else {
      detail::write_reduction<Op, Saver, TU>(node.operand(), Node::kAxes, dst);
    }
  }
};

}  // namespace tensorx
