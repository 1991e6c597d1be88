// What the cuBLAS and cuBLASLt backends share: the calling thread's handles for a device, the
// check that turns a status into a BlasError, and the cuBLAS names of tensorx's element types.
// Private to src/, CUDA builds only.
#pragma once

#include <cublasLt.h>
#include <cublas_v2.h>

#include "tensorx/core/data_type.h"
#include "tensorx/place/stream.h"

namespace tensorx {
namespace detail {

/// The calling thread's cuBLAS handle for `device`, pointed at `stream`. A handle serves one
/// thread, whatever streams it uses, so their number is bounded by the threads that use the
/// device at once, never by the streams; a thread's handles serve later threads once it ends.
/// The caller has made `device` current.
cublasHandle_t cublas_handle(int device, StreamHandle stream);

/// The calling thread's cuBLASLt handle for `device` (cuBLASLt takes the stream with every call),
/// kept like cublas_handle's. The caller has made `device` current.
cublasLtHandle_t cublaslt_handle(int device);

/// Throws BlasError naming `call` and the status unless status is CUBLAS_STATUS_SUCCESS.
void cublas_check(cublasStatus_t status, const char* call);

/// How cuBLAS stores and computes an element type: float and double in their own precision,
/// float16 and bfloat16 with float accumulation (tensor cores).
struct CublasTypes {
  cudaDataType_t data;
  cublasComputeType_t compute;
  cudaDataType_t scale;  ///< the type of alpha and beta
};

/// The types for `type`; TypeError unless it is float32, float64, float16 or bfloat16.
CublasTypes cublas_types(DataType type);

/// alpha or beta as cuBLAS reads it: a host value of the scale type.
class ScaleValue {
 public:
  ScaleValue(double value, cudaDataType_t scale)
      : wide_(value), narrow_(static_cast<float>(value)), is_wide_(scale == CUDA_R_64F) {}
  ScaleValue(const ScaleValue&) = delete;
  ScaleValue& operator=(const ScaleValue&) = delete;
  const void* get() const { return is_wide_ ? static_cast<const void*>(&wide_) : &narrow_; }

 private:
  double wide_;
  float narrow_;
  bool is_wide_;
};

inline cublasOperation_t cublas_operation(bool transpose) {
  return transpose ? CUBLAS_OP_T : CUBLAS_OP_N;
}

}  // namespace detail
}  // namespace tensorx
