// The GPU side of the compiled reductions: the header's kernels (reduce/cuda_reduce.cuh) on the
// dense three-axis operand, instantiated here once for every reducer and element type. They are
// the kernels a CUDA translation unit runs for the same dense operand, with the same geometry,
// so a reduction gives the same bits whether it is called from plain C++ or from CUDA. Savers
// that read the destination get the finalized results in the type the kernels hand to a saver
// (float for float16 sums), from a dense temporary, and apply themselves in one more pass: the
// very values, so the very bits, of the kernel that applies the saver itself.
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
  using F = finalized_t<Op, C>;
  const Place place = CudaPlace(device);
  const StreamHandle stream = current_stream(device);
  if (axes.reduced == 0) {
    const auto empty = Op::finalize(Op::template identity<C>(), 0);
    saver_switch(mode, [&](auto saver) {
      save_results<decltype(saver)>(dst, ConstantValue<F>{empty}, axes, device, stream);
    });
    return;
  }
  const LeafPlan<T, 1> plan{src, make_dim(1)};
  const bool aligned = is_16_byte_aligned(src);
  stats::record_pass();
  if (mode == SaveMode::kWrite) {
    reduce_three_axes<Op, saver::write, C>(dst, plan, axes, aligned, place, stream);
    return;
  }
  Allocation results(static_cast<std::size_t>(axes.outer * axes.inner) * sizeof(F), place);
  ThreeAxes dense = axes;
  dense.dst_outer = axes.inner;
  dense.dst_inner = 1;
  const auto finalized = static_cast<F*>(results.data());
  reduce_three_axes<Op, saver::write, C>(finalized, plan, dense, aligned, place, stream);
  saver_switch(mode, [&](auto saver) {
    save_results<decltype(saver)>(dst, StoredValues<F>{finalized}, axes, device, stream);
  });
}

}  // namespace

void gpu_reduce_contiguous(ReduceOp op, DataType type, const void* src, void* dst,
                           const ThreeAxes& axes, int device, SaveMode mode) {
  cuda::DeviceGuard guard(device);
  reduction_switch(op, type, [&](auto reducer, auto tag) {
    using Op = decltype(reducer);
    using T = typename decltype(tag)::type;
    using R = typename Op::template result_type<T>;
    reduce_typed<Op>(static_cast<const T*>(src), static_cast<R*>(dst), axes, device, mode);
  });
}

}  // namespace detail
}  // namespace tensorx
