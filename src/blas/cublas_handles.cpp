// The process-wide cache of cuBLAS handles. A handle belongs to the device that was current when
// it was created, and cuBLAS allows threads to share one as long as its settings do not change:
// keying by (device, stream) gives every handle one stream forever, so sharing is safe and each
// stream's calls stay ordered with its workspace.
#include "blas/cublas_handles.h"

#include <map>
#include <mutex>
#include <utility>

#include "tensorx/core/error.h"

namespace tensorx {
namespace detail {

void cublas_check(cublasStatus_t status, const char* call) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  throw BlasError(message(call, " failed: ", cublasGetStatusName(status), " (",
                          cublasGetStatusString(status), ")"));
}

cublasHandle_t cublas_handle(int device, StreamHandle stream) {
  static std::mutex mutex;
  // Never destroyed: at process exit the CUDA runtime may already be gone, and destroying a
  // handle then fails or crashes; the driver reclaims everything anyway.
  static auto* handles = new std::map<std::pair<int, StreamHandle>, cublasHandle_t>();
  const std::lock_guard<std::mutex> lock(mutex);
  auto found = handles->find({device, stream});
  if (found == handles->end()) {
    cublasHandle_t handle = nullptr;
    cublas_check(cublasCreate(&handle), "cublasCreate");
    found = handles->emplace(std::pair(device, stream), handle).first;
  }
  // Set before every call, as cuBLAS recommends: a destroyed stream's address can come back as a
  // new stream, and this keeps the handle's binding explicit whatever happened in between.
  cublas_check(cublasSetStream(found->second, stream), "cublasSetStream");
  return found->second;
}

}  // namespace detail
}  // namespace tensorx
