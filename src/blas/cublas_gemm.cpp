// The GPU backend of gemm: cublasGemmEx, or cublasGemmStridedBatchedEx for batches, on the
// stream gemm.cpp ordered, through the calling thread's handle for the device. One table-driven
// path serves every element type: float and double compute in their own precision, float16 and
// bfloat16 on tensor cores with float accumulation. The 64-bit entry points take any extent the
// GPU's memory can hold.
#include <library_types.h>

#include "blas/cublas_handles.h"
#include "blas/gemm_call.h"
#include "tensorx/core/error.h"
#include "tensorx/place/device.h"

namespace tensorx {
namespace detail {

void gpu_gemm(const GemmCall& call) {
  const int device = device_of(call.place);
  const cuda::DeviceGuard guard(device);
  const cublasHandle_t handle = cublas_handle(device, call.stream);
  const CublasTypes types = cublas_types(call.type);
  const ScaleValue alpha_value(call.alpha, types.scale);
  const ScaleValue beta_value(call.beta, types.scale);
  const void* alpha = alpha_value.get();
  const void* beta = beta_value.get();
  const cublasOperation_t op_a = cublas_operation(call.transpose_a);
  const cublasOperation_t op_b = cublas_operation(call.transpose_b);
  if (call.batch == 1) {
    cublas_check(
        cublasGemmEx_64(handle, op_a, op_b, call.m, call.n, call.k, alpha, call.a.data, types.data,
                        call.a.ld, call.b.data, types.data, call.b.ld, beta, call.c.data,
                        types.data, call.c.ld, types.compute, CUBLAS_GEMM_DEFAULT),
        "cublasGemmEx");
    return;
  }
  cublas_check(
      cublasGemmStridedBatchedEx_64(
          handle, op_a, op_b, call.m, call.n, call.k, alpha, call.a.data, types.data, call.a.ld,
          call.a.stride, call.b.data, types.data, call.b.ld, call.b.stride, beta, call.c.data,
          types.data, call.c.ld, call.c.stride, call.batch, types.compute, CUBLAS_GEMM_DEFAULT),
      "cublasGemmStridedBatchedEx");
}

std::string gpu_blas_name() {
  int major = 0;
  int minor = 0;
  int patch = 0;
  cublas_check(cublasGetProperty(MAJOR_VERSION, &major), "cublasGetProperty");
  cublas_check(cublasGetProperty(MINOR_VERSION, &minor), "cublasGetProperty");
  cublas_check(cublasGetProperty(PATCH_LEVEL, &patch), "cublasGetProperty");
  return message("cuBLAS ", major, ".", minor, ".", patch);
}

}  // namespace detail
}  // namespace tensorx
