// blas_vendor(): the names the two backends give themselves.
#include "tensorx/blas/blas_vendor.h"

#include "blas/gemm_call.h"
#include "tensorx/place/device.h"

namespace tensorx {

BlasVendor blas_vendor() {
  BlasVendor vendor;
  vendor.cpu = detail::cpu_blas_name();
  vendor.cublas = cuda::compiled_with_cuda();
  vendor.gpu = detail::gpu_blas_name();
  return vendor;
}

}  // namespace tensorx
