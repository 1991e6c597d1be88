// The GPU side of the compiled reductions in a build without CUDA. reduce_contiguous has already
// rejected every CudaPlace (no device is usable), so these are reached only by a caller that
// skipped it.
#include "reduce/reduce_backends.h"

namespace tensorx {
namespace detail {

void gpu_reduce_contiguous(ReduceOp, DataType, const void*, void*, const ThreeAxes&, int device,
                           SaveMode) {
  throw DeviceError(message("cannot reduce on CudaPlace(", device,
                            "): tensorx was built without CUDA (TENSORX_WITH_CUDA=OFF)"));
}

}  // namespace detail
}  // namespace tensorx
