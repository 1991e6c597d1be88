// blas_vendor(): the CPU BLAS names itself, and cuBLAS is reported exactly when CUDA is built in.
#include <boost/test/unit_test.hpp>

#include <sstream>

#include "tensorx/blas/blas_vendor.h"
#include "tensorx/place/device.h"

namespace tx = tensorx;

BOOST_AUTO_TEST_SUITE(blas_vendor)

BOOST_AUTO_TEST_CASE(names_the_cpu_blas_and_whether_cublas_is_built_in) {
  const tx::BlasVendor vendor = tx::blas_vendor();
  BOOST_TEST_MESSAGE("tensorx multiplies matrices with " << vendor);
  BOOST_TEST(!vendor.cpu.empty());
  BOOST_TEST(vendor.cublas == tx::cuda::compiled_with_cuda());
  BOOST_TEST(vendor.gpu.empty() == !vendor.cublas);
  if (vendor.cublas) BOOST_TEST(vendor.gpu.rfind("cuBLAS ", 0) == 0u);

  std::ostringstream printed;
  printed << vendor;
  BOOST_TEST(printed.str().find(vendor.cpu) == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
