// Rows of the value reductions through CUB: one row with cub::DeviceReduce::Reduce, several with
// cub::DeviceSegmentedReduce::Reduce, into accumulators (float for float16 and bfloat16) in
// scratch memory from the stream-ordered allocator; then save_results finalizes them (the mean's
// division) into the destination through the saver. Two passes: CUB's call (itself one or two
// kernels) and the save. CUB reduces without atomics, so a result is bitwise the same from run to
// run on one GPU; its tile sizes come from per-architecture tuning, so GPUs of different
// architectures (or CUB versions) may round differently.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_segmented_reduce.cuh>

#include <type_traits>

#include "reduce/reduce_backends.h"
#include "reduce/save_results.cuh"
#include "tensorx/core/cuda_check.h"
#include "tensorx/core/stats.h"
#include "tensorx/memory/allocation.h"
#include "tensorx/place/stream.h"

namespace tensorx {
namespace detail {
namespace {

/// An element converted to its accumulator type as CUB reads it.
template <class T>
struct ToCompute {
  __device__ compute_t<T> operator()(const T& value) const {
    return static_cast<compute_t<T>>(value);
  }
};

/// Reducer Op's combine as CUB's binary operator.
template <class Op>
struct CombineWith {
  template <class A>
  __device__ A operator()(const A& a, const A& b) const {
    return Op::combine(a, b);
  }
};

/// The start of row `i`.
struct RowStart {
  index_t length;
  __device__ index_t operator()(index_t i) const { return i * length; }
};

/// The CUB algorithm a reducer's rows run with: sums and means share one.
template <class Op>
using cub_combine_t =
    std::conditional_t<Op::kOp == ReduceOp::kMean, CombineWith<op::sum_reducer>, CombineWith<Op>>;

template <class Op, class T, class R>
void reduce_rows_typed(const T* src, R* dst, const ThreeAxes& axes, int device, SaveMode mode) {
  using C = compute_t<T>;
  const StreamHandle stream = current_stream(device);
  const auto input = thrust::make_transform_iterator(src, ToCompute<T>{});
  const cub_combine_t<Op> combine;
  const C init = Op::template identity<C>();
  Allocation accumulators(static_cast<std::size_t>(axes.outer) * sizeof(C), CudaPlace(device));
  C* out = static_cast<C*>(accumulators.data());
  const auto starts = thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0),
                                                      RowStart{axes.reduced});
  // CUB's two-call protocol: the first call only sizes the scratch memory.
  auto run = [&](void* scratch, std::size_t& bytes) {
    if (axes.outer == 1) {
      return cub::DeviceReduce::Reduce(scratch, bytes, input, out, axes.reduced, combine, init,
                                       stream);
    }
    return cub::DeviceSegmentedReduce::Reduce(scratch, bytes, input, out, axes.outer, starts,
                                              starts + 1, combine, init, stream);
  };
  std::size_t bytes = 0;
  TENSORX_CUDA_CHECK(run(nullptr, bytes));
  Allocation scratch(bytes, CudaPlace(device));
  stats::record_pass();
  TENSORX_CUDA_CHECK(run(scratch.data(), bytes));
  saver_switch(mode, [&](auto saver) {
    save_results<decltype(saver)>(dst, FinalizedValues<Op, C>{out, axes.reduced}, axes, device,
                                  stream);
  });
}

}  // namespace

void cub_reduce_rows(ReduceOp op, DataType type, const void* src, void* dst, const ThreeAxes& axes,
                     int device, SaveMode mode) {
  reduction_switch(op, type, [&](auto reducer, auto tag) {
    using Op = decltype(reducer);
    if constexpr (!Op::kIndexed) {
      using T = typename decltype(tag)::type;
      reduce_rows_typed<Op>(static_cast<const T*>(src), static_cast<T*>(dst), axes, device, mode);
    }
  });
}

}  // namespace detail
}  // namespace tensorx
