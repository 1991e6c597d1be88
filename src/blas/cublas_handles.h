// cuBLAS handles, one per (device, stream), and the check that turns a cuBLAS status into a
// BlasError. Private to src/, CUDA builds only.
#pragma once

#include <cublas_v2.h>

#include "tensorx/place/stream.h"

namespace tensorx {
namespace detail {

/// The handle for work on `stream` of `device`, bound to that stream. Created on first use and
/// kept for the life of the process; the caller has made `device` current. Thread-safe.
cublasHandle_t cublas_handle(int device, StreamHandle stream);

/// Throws BlasError naming `call` and the status unless status is CUBLAS_STATUS_SUCCESS.
void cublas_check(cublasStatus_t status, const char* call);

}  // namespace detail
}  // namespace tensorx
