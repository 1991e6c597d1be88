// detail::reduce_contiguous: the checks every caller of the compiled reductions gets, then the
// backend of the place.
#include <type_traits>

#include "reduce/reduce_backends.h"
#include "tensorx/place/device.h"

namespace tensorx {
namespace detail {

void reduce_contiguous(ReduceOp op, DataType type, const void* src, void* dst,
                       const ThreeAxes& axes, const Place& place, SaveMode mode) {
  reducer_switch(op, [&](auto reducer) {
    using Op = decltype(reducer);
    type_switch(type, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if (Op::kOp == ReduceOp::kMean && std::is_integral_v<T>) {
        throw TypeError(message("tx::mean needs floating-point elements, not ", type));
      }
    });
    check_reducible<Op>(make_dim(axes.outer, axes.reduced, axes.inner), 2u);
  });
  if (axes.outer == 0 || axes.inner == 0) return;
  if (const CudaPlace* gpu = boost::get<CudaPlace>(&place)) {
    cuda::check_device(gpu->device);
    gpu_reduce_contiguous(op, type, src, dst, axes, gpu->device, mode);
  } else {
    cpu_reduce_contiguous(op, type, src, dst, axes, mode);
  }
}

}  // namespace detail
}  // namespace tensorx
