// How an assignment with fused reductions is written (row_fusion.h): the DirectWriter of every
// element-wise expression that reads a reduction over the last axis, and the path that a
// reduction's own writer (reduce_writer.h) takes when its operand reads such reductions. After
// evaluate()'s checks: prepare what does not fuse, check aliasing (an operand that reads dst
// through another index mapping goes through a temporary, as for any assignment; reading dst's
// own rows does not, since each row is read whole before it is written), plan, then ONE pass on
// dst's place, ordered on the stream of any assignment.
#pragma once

#include <type_traits>

#include "tensorx/array/array.h"
#include "tensorx/engine/assign.h"
#include "tensorx/engine/gpu_dispatch.h"
#include "tensorx/engine/operand_list.h"
#include "tensorx/expr/eval_context.h"
#include "tensorx/expr/map_exp.h"
#include "tensorx/expr/saver.h"
#include "tensorx/reduce/cpu_row_engine.h"
#include "tensorx/reduce/row_fusion.h"

#if defined(__CUDACC__)
#include "tensorx/reduce/cuda_row_engine.cuh"
#endif

namespace tensorx {
namespace detail {

/// One row-local pass of kind kKind writing `plan` into dst on dst's place.
template <RowFusion kKind, class Saver, class TU, class T, int N, class Plan>
void run_fused(const Array<T, N>& dst, const Plan& plan, StreamHandle stream) {
  if (is_on_gpu(dst)) {
    on_gpu(TU{}, dst.buffer()->place(), [&](auto tu) {
      run_fused_gpu(tu, std::bool_constant<kKind == RowFusion::kRows>{}, Saver{}, dst, plan,
                    stream);
    });
  } else if constexpr (kKind == RowFusion::kRows) {
    run_rows_cpu<Saver, TU>(dst, plan);
  } else {
    run_per_row_cpu<Saver, TU>(dst, plan);
  }
}

/// dst (allocated, of e's shape, not empty) = Saver(dst, e) for an expression whose reductions
/// fuse (row_fusion_v<E> is not kNone). `materialising()` writes it the way it was written before
/// row-local fusion; a GPU pass whose few long rows would leave the device idle, and that cannot
/// spread them over clusters (fused_pass_suits_device), takes it.
template <class Saver, class TU, class T, int N, class E, class Materialising>
void write_fused_rows(const E& e, const Array<T, N>& dst, Materialising&& materialising) {
  constexpr RowFusion kKind = row_fusion_v<E>;
  constexpr RowRole kRole = top_role(kKind);
  const Place place = dst.place();
  const auto prepared = prepare_fused<kRole>(e, EvalContext<TU>{place});
  OperandList operands;
  collect_operands(prepared, operands);
  const PassRoute route = route_pass(operand_ref(dst), operands, true);
  auto plan = make_fused_plan<kRole>(prepared, dst.dims());
  number_row_reductions(plan);
#if defined(__CUDACC__)
  if constexpr (std::is_same_v<TU, CudaTranslationUnit>) {
    if (is_on_gpu(dst)) {
      index_t rows = dst.numel(), row_length = 0;
      if constexpr (kKind == RowFusion::kRows) {
        row_length = dst.dims().at(N - 1);
        rows /= row_length;
      }
      const index_t length = longest_row(plan, row_length);
      const RowGpuMode mode = forced_row_gpu_mode;
      if (mode == RowGpuMode::kMaterialising ||
          (mode == RowGpuMode::kAuto &&
           !fused_pass_suits_device<N>(plan, rows, length, row_length, device_of(place)))) {
        materialising();
        return;
      }
    }
  }
#else
  static_cast<void>(materialising);
#endif
  if (route.through_temporary) {
    const Array<T, N> temporary(dst.dims(), place);
    run_fused<kKind, saver::write, TU>(temporary, plan, route.stream);
    write_from_temporary<Saver, TU>(dst, temporary, route.stream);
  } else {
    run_fused<kKind, Saver, TU>(dst, plan, route.stream);
  }
}

/// dst (one element) = Saver(dst, the mean of e's elements), e a rank-1 expression of the per-row
/// form (each element computed from the rows its reductions reduce): ONE pass on dst's place that
/// also combines the rows' values (run_mean_of_rows_cpu, run_fused_mean_gpu), ordered on the
/// stream of any assignment. A GPU pass whose few long rows would leave the device idle, and that
/// cannot spread them over clusters, takes `materialising()` instead (as write_fused_rows). Every
/// row is read before dst is written, so dst needs no aliasing check.
template <class Saver, class TU, class T, int N, class E, class Materialising>
void write_mean_of_rows(const E& e, const Array<T, N>& dst, Materialising&& materialising) {
  static_assert(E::rank == 1 && row_fusion_v<E> == RowFusion::kPerRow,
                "write_mean_of_rows takes one value per row, each from reductions of its row");
  const Place place = dst.place();
  const Dim<1> rows = e.dims();
  const auto prepared = prepare_fused<RowRole::kFinal>(e, EvalContext<TU>{place});
  OperandList operands;
  collect_operands(prepared, operands);
  const PassRoute route = route_pass(operand_ref(dst), operands, false);
  auto plan = make_fused_plan<RowRole::kFinal>(prepared, rows);
  number_row_reductions(plan);
  if (is_on_gpu(dst)) {
#if defined(__CUDACC__)
    if constexpr (std::is_same_v<TU, CudaTranslationUnit>) {
      const RowGpuMode mode = forced_row_gpu_mode;
      if (mode == RowGpuMode::kMaterialising ||
          (mode == RowGpuMode::kAuto &&
           !fused_pass_suits_device<1>(plan, rows.at(0), longest_row(plan, 0), 0,
                                       device_of(place)))) {
        materialising();
        return;
      }
    }
#else
    static_cast<void>(materialising);
#endif
    on_gpu(TU{}, dst.buffer()->place(),
           [&](auto tu) { run_fused_mean_gpu(tu, Saver{}, dst, rows.at(0), plan, route.stream); });
  } else {
    run_mean_of_rows_cpu<Saver, TU>(dst, rows.at(0), plan);
  }
}

}  // namespace detail

/// An element-wise expression that reads reductions over the last axis is written row by row, in
/// one pass (see the file comment).
template <class R, class F, class... Args>
struct DirectWriter<
    MapExp<R, F, Args...>,
    std::enable_if_t<detail::row_fusion_v<MapExp<R, F, Args...>> != detail::RowFusion::kNone>> {
  /// True: one row-local pass.
  static constexpr bool kEnabled = true;

  /// dst = Saver(dst, e), one pass on dst's place.
  template <class Saver, class TU, class T, int N>
  static void write(const MapExp<R, F, Args...>& e, const Array<T, N>& dst) {
    // Only a CUDA unit's GPU pass may take the materialising route; elsewhere it is not even
    // instantiated (it would compile every reduction's own pass: a fifth of a host unit's time).
    if constexpr (std::is_same_v<TU, detail::CudaTranslationUnit>) {
      detail::write_fused_rows<Saver, TU>(e, dst,
                                          [&] { detail::evaluate_elementwise<Saver, TU>(dst, e); });
    } else {
      detail::write_fused_rows<Saver, TU>(e, dst, [] {});
    }
  }
};

}  // namespace tensorx
