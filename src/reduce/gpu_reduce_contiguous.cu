// The GPU side of the compiled reductions: rows of sums, means, maxima, minima and products go to
// CUB (cub_reduce.cu); columns and argmax/argmin run the header's kernels (engine/cuda_reduce.cuh)
// on the dense three-axis operand, instantiated here once for every reducer and element type.
// Savers other than write reduce into a dense temporary first, then save_results applies them.
#include <type_traits>

#include "reduce/reduce_backends.h"
#include "reduce/save_results.cuh"
#include "tensorx/core/stats.h"
#include "tensorx/expr/array_leaf.h"
#include "tensorx/memory/allocation.h"
#include "tensorx/place/device.h"
#include "tensorx/place/stream.h"
#include "tensorx/reduce/cuda_reduce.cuh"

namespace tensorx {
namespace detail {
namespace {

template <class Op, class T, class R>
void reduce_typed(const T* src, R* dst, const ThreeAxes& axes, int device, SaveMode mode) {
  using C = compute_t<T>;
  const Place place = CudaPlace(device);
  const StreamHandle stream = current_stream(device);
  if (mode != SaveMode::kWrite) {
    Allocation results(static_cast<std::size_t>(axes.outer * axes.inner) * sizeof(R), place);
    ThreeAxes dense = axes;
    dense.dst_outer = axes.inner;
    dense.dst_inner = 1;
    reduce_typed<Op>(src, static_cast<R*>(results.data()), dense, device, SaveMode::kWrite);
    saver_switch(mode, [&](auto saver) {
      save_results<decltype(saver)>(dst, StoredValues<R>{static_cast<const R*>(results.data())},
                                    axes, device, stream);
    });
    return;
  }
  if (axes.reduced == 0) {
    const auto empty = Op::finalize(Op::template identity<C>(), 0);
    save_results<saver::write>(dst, ConstantValue<decltype(empty)>{empty}, axes, device, stream);
    return;
  }
  stats::record_pass();
  reduce_three_axes<Op, saver::write, C>(dst, LeafPlan<T, 1>{src, make_dim(1)}, axes,
                                         is_16_byte_aligned(src), place, stream);
}

}  // namespace

void gpu_reduce_contiguous(ReduceOp op, DataType type, const void* src, void* dst,
                           const ThreeAxes& axes, int device, SaveMode mode) {
  cuda::DeviceGuard guard(device);
  if (axes.inner == 1 && axes.reduced > 0 && op != ReduceOp::kArgMax && op != ReduceOp::kArgMin) {
    cub_reduce_rows(op, type, src, dst, axes, device, mode);
    return;
  }
  reduction_switch(op, type, [&](auto reducer, auto tag) {
    using Op = decltype(reducer);
    using T = typename decltype(tag)::type;
    using R = typename Op::template result_type<T>;
    reduce_typed<Op>(static_cast<const T*>(src), static_cast<R*>(dst), axes, device, mode);
  });
}

}  // namespace detail
}  // namespace tensorx
