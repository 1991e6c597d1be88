// The cuBLAS and cuBLASLt handles of each (device, thread). cuBLAS lets threads share a handle
// only while its settings do not change, and cublasSetStream changes one, so each thread has its
// own, re-pointed at the stream of every call (cuBLAS's default workspace pool, which
// cublasSetStream returns the handle to, guards itself against the handle's calls on different
// streams). Handles are never made per stream: a program that makes a stream per request keeps
// one handle per thread. When a thread ends its handles go to a free list of their device for
// the next thread, so their number is bounded by the most threads that used the device at once.
#include "blas/cublas_handles.h"

#include <cstddef>
#include <mutex>
#include <vector>

#include "tensorx/core/error.h"
#include "tensorx/place/device.h"

namespace tensorx {
namespace detail {
namespace {

// Handles of one kind that ended threads gave back, by device. Never destroyed, and handles are
// never destroyed either: at process exit the CUDA runtime may already be gone, and destroying a
// handle then fails or crashes; the driver reclaims everything anyway.
template <class Handle>
class FreeHandles {
 public:
  bool take(int device, Handle* handle) {
    const std::lock_guard<std::mutex> lock(mutex_);
    std::vector<Handle>& free = by_device_[static_cast<std::size_t>(device)];
    if (free.empty()) return false;
    *handle = free.back();
    free.pop_back();
    return true;
  }
  void give_back(int device, Handle handle) {
    const std::lock_guard<std::mutex> lock(mutex_);
    by_device_[static_cast<std::size_t>(device)].push_back(handle);
  }

 private:
  std::mutex mutex_;
  std::vector<std::vector<Handle>> by_device_ =
      std::vector<std::vector<Handle>>(static_cast<std::size_t>(cuda::device_count()));
};

// The calling thread's handle of `device`, taken from the free list or made by `create`.
template <class Handle, Handle (*kCreate)()>
Handle thread_handle(int device) {
  static auto* free = new FreeHandles<Handle>();
  struct ThreadHandles {
    std::vector<Handle> by_device =
        std::vector<Handle>(static_cast<std::size_t>(cuda::device_count()), nullptr);
    ~ThreadHandles() {
      for (std::size_t d = 0; d < by_device.size(); ++d) {
        if (by_device[d] != nullptr) free->give_back(static_cast<int>(d), by_device[d]);
      }
    }
  };
  thread_local ThreadHandles mine;
  Handle& handle = mine.by_device[static_cast<std::size_t>(device)];
  if (handle == nullptr && !free->take(device, &handle)) handle = kCreate();
  return handle;
}

cublasHandle_t create_cublas() {
  cublasHandle_t created = nullptr;
  cublas_check(cublasCreate(&created), "cublasCreate");
  // float16 and bfloat16 products accumulate in float, reductions between the pieces of a split
  // product included: by default cuBLAS may add those in the output type, which on an H100 put
  // C = A B + C in bfloat16 four of its units in the last place off where A B and C cancel.
  cublas_check(cublasSetMathMode(created, static_cast<cublasMath_t>(
                                              CUBLAS_DEFAULT_MATH |
                                              CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION)),
               "cublasSetMathMode");
  return created;
}

cublasLtHandle_t create_cublaslt() {
  cublasLtHandle_t created = nullptr;
  cublas_check(cublasLtCreate(&created), "cublasLtCreate");
  return created;
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
  const cublasHandle_t handle = thread_handle<cublasHandle_t, create_cublas>(device);
  cublas_check(cublasSetStream(handle, stream), "cublasSetStream");
  return handle;
}

cublasLtHandle_t cublaslt_handle(int device) {
  return thread_handle<cublasLtHandle_t, create_cublaslt>(device);
}

}  // namespace detail
}  // namespace tensorx
