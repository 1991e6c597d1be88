// blas_vendor(): which BLAS libraries the compiled layer was built with, for logs, bug reports and
// benchmark records.
#pragma once

#include <ostream>
#include <string>

namespace tensorx {

/// The BLAS behind tx::gemm on each kind of place.
struct BlasVendor {
  /// The CPU BLAS, e.g. "OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY Haswell MAX_THREADS=64", or
  /// "CBLAS" for a CBLAS that does not name itself.
  std::string cpu;
  /// True when GPU products go through cuBLAS (tensorx built with CUDA).
  bool cublas = false;
  /// The cuBLAS library version, e.g. "cuBLAS 13.1.0"; empty when cublas is false.
  std::string gpu;
};

/// What this build of tensorx multiplies matrices with.
BlasVendor blas_vendor();

/// Prints "<cpu>" or "<cpu>; <gpu>".
inline std::ostream& operator<<(std::ostream& out, const BlasVendor& vendor) {
  out << vendor.cpu;
  if (vendor.cublas) out << "; " << vendor.gpu;
  return out;
}

}  // namespace tensorx
