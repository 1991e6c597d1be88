// The GPU side of gemm in a build without CUDA. check_gemm has already rejected every CudaPlace
// (no device is usable), so gpu_gemm is reached only by a caller that skipped it.
#include "blas/gemm_call.h"
#include "tensorx/core/error.h"

namespace tensorx {
namespace detail {

void gpu_gemm(const GemmCall& call) {
  throw DeviceError(message("cannot run gemm on ", call.place,
                            ": tensorx was built without CUDA (TENSORX_WITH_CUDA=OFF)"));
}

bool gpu_fused_gemm(const GemmCall&, const void*, GemmActivation) {
  return false;
}

std::string gpu_blas_name() {
  return "";
}

}  // namespace detail
}  // namespace tensorx
