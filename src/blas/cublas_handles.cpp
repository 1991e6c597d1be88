// The process-wide caches of cuBLAS and cuBLASLt handles. A handle belongs to the device that was
// current when it was created, and cuBLAS allows threads to share one as long as its settings do
// not change: keying cuBLAS handles by (device, stream) gives every handle one stream forever, so
// sharing is safe and each stream's calls stay ordered with its workspace.
#include "blas/cublas_handles.h"

#include <map>
#include <mutex>
#include <utility>

#include "tensorx/core/error.h"

namespace tensorx {
namespace detail {
namespace {

// The handle cached under `key`, made by `create` the first time. Entries are never destroyed:
// at process exit the CUDA runtime may already be gone, and destroying a handle then fails or
// crashes; the driver reclaims everything anyway.
template <class Key, class Handle, class Create>
Handle cached_handle(const Key& key, Create create) {
  static std::mutex mutex;
  static auto* handles = new std::map<Key, Handle>();
  const std::lock_guard<std::mutex> lock(mutex);
  auto found = handles->find(key);
  if (found == handles->end()) found = handles->emplace(key, create()).first;
  return found->second;
}

}  // namespace

void cublas_check(cublasStatus_t status, const char* call) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  throw BlasError(message(call, " failed: ", cublasGetStatusName(status), " (",
                          cublasGetStatusString(status), ")"));
}

CublasTypes cublas_types(DataType type) {
  switch (type) {
    case DataType::kFloat32:
      return {CUDA_R_32F, CUBLAS_COMPUTE_32F, CUDA_R_32F};
    case DataType::kFloat64:
      return {CUDA_R_64F, CUBLAS_COMPUTE_64F, CUDA_R_64F};
    case DataType::kFloat16:
      return {CUDA_R_16F, CUBLAS_COMPUTE_32F, CUDA_R_32F};
    case DataType::kBFloat16:
      return {CUDA_R_16BF, CUBLAS_COMPUTE_32F, CUDA_R_32F};
    default:
      throw TypeError(
          message("cuBLAS gemm multiplies float32, float64, float16 or bfloat16, not ", type));
  }
}

cublasHandle_t cublas_handle(int device, StreamHandle stream) {
  const cublasHandle_t handle =
      cached_handle<std::pair<int, StreamHandle>, cublasHandle_t>({device, stream}, [] {
        cublasHandle_t created = nullptr;
        cublas_check(cublasCreate(&created), "cublasCreate");
        return created;
      });
  // Set before every call, as cuBLAS recommends: a destroyed stream's address can come back as a
  // new stream, and this keeps the handle's binding explicit whatever happened in between.
  cublas_check(cublasSetStream(handle, stream), "cublasSetStream");
  return handle;
}

cublasLtHandle_t cublaslt_handle(int device) {
  return cached_handle<int, cublasLtHandle_t>(device, [] {
    cublasLtHandle_t created = nullptr;
    cublas_check(cublasLtCreate(&created), "cublasLtCreate");
    return created;
  });
}

}  // namespace detail
}  // namespace tensorx
