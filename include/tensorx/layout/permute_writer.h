// c = tx::transpose(a) and c = tx::permute(a, axes) with `a` an array: when the permutation moves
// the source's unit-stride axis away from the last axis, the element-wise pass would read the
// source with a large stride at every element. Such copies run as batched 2-D tiled transposes
// instead (engine/plane_transpose.h): cache blocks on the CPU, 32 x 32 shared-memory tiles on the
// GPU, one pass either way. Any other permutation, and a source that overlaps the destination,
// goes through the element-wise engine (which handles the overlap with a temporary).
#pragma once

#include "tensorx/array/array.h"
#include "tensorx/core/translation_unit.h"
#include "tensorx/engine/assign.h"
#include "tensorx/engine/gpu_dispatch.h"
#include "tensorx/layout/cpu_transpose.h"
#include "tensorx/layout/plane_transpose.h"

#if defined(__CUDACC__)
#include "tensorx/layout/cuda_transpose.cuh"
#endif

namespace tensorx {

template <class E, int N>
class PermuteExp;  // layout/permute_exp.h, which includes this writer so that the two always meet
/// dst = permuted array: a tiled transpose where the permutation moves the source's unit-stride
/// axis, else the element-wise pass (see the file comment).
template <class T, int N>
struct DirectWriter<PermuteExp<Array<T, N>, N>> {
  /// True: the writer chooses between the tiled transpose and the element-wise pass.
  static constexpr bool kEnabled = true;

  /// dst = Saver(dst, e) on dst's place.
  template <class Saver, class TU>
  static void write(const PermuteExp<Array<T, N>, N>& e, const Array<T, N>& dst) {
    const Array<T, N> src = e.array();
    const auto plane = detail::plane_transpose(dst, src);
    if (!plane || detail::overlaps(detail::operand_ref(dst), detail::operand_ref(src))) {
      detail::evaluate_elementwise<Saver, TU>(dst, e);
    } else if (is_gpu_place(dst.place())) {
      detail::on_gpu(TU{}, dst.place(),
                     [&](auto tu) { run_gpu_transpose(tu, Saver{}, dst, src, *plane); });
    } else {
      detail::run_cpu_transpose<Saver>(dst, src, *plane);
    }
  }
};

}  // namespace tensorx
