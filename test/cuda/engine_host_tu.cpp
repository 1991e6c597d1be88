// The plain C++ part of test_cuda_engine_kernels, compiled by g++: assigning into a GPU array from
// a translation unit that is not compiled as CUDA throws, says how to fix it, and writes nothing,
// while copies keep working from here.
#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>

#include "support/cuda_test.h"
#include "support/errors.h"

namespace tx = tensorx;

#if defined(__CUDACC__)
#error \
    "engine_host_tu.cpp tests plain C++ translation units: it must be compiled by g++, not as CUDA"
#endif

BOOST_AUTO_TEST_SUITE(cuda_engine_from_plain_cpp, *tx::testing::needs_cuda())

BOOST_AUTO_TEST_CASE(assigning_into_a_gpu_array_throws_and_writes_nothing) {
  const auto dims = tx::make_dim(6);
  const auto a = tx::to(tx::ones<double>(dims), tx::CudaPlace(0));
  auto c = tx::zeros<double>(dims, tx::CudaPlace(0));
  const auto says_compile_as_cuda =
      tx::testing::message_has({"CudaPlace(0)", "compiled as plain C++", "compile it as CUDA"});
  BOOST_CHECK_EXCEPTION(c = a - 4.0, tx::Error, says_compile_as_cuda);
  BOOST_CHECK_EXCEPTION(c += a, tx::Error, says_compile_as_cuda);
  tx::Array<double, 1> fresh;
  BOOST_CHECK_EXCEPTION(fresh = a * 3.0, tx::Error, says_compile_as_cuda);
  BOOST_TEST(!fresh.allocated(), "no array was allocated for the failed assignment");

  const auto host = tx::to(c, tx::CpuPlace());
  for (tx::index_t i = 0; i < dims[0]; ++i) BOOST_TEST(host(i) == 0.0);
  tx::copy(c, a);
  BOOST_TEST(tx::to(c, tx::CpuPlace())(5) == 1.0, "copies work from plain C++");
}

BOOST_AUTO_TEST_CASE(a_fused_layer_needs_cuda_while_a_bare_product_does_not) {
  // relu(dot + bias) is element-wise after the product: like every expression it needs a CUDA
  // translation unit on the GPU, and it throws before the product is computed.
  const auto a = tx::to(tx::ones<float>(tx::make_dim(4, 3)), tx::CudaPlace(0));
  const auto w = tx::to(tx::ones<float>(tx::make_dim(3, 2)), tx::CudaPlace(0));
  const auto bias = tx::to(tx::ones<float>(tx::make_dim(2)), tx::CudaPlace(0));
  auto c = tx::zeros<float>(tx::make_dim(4, 2), tx::CudaPlace(0));
  BOOST_CHECK_EXCEPTION(c = tx::relu(tx::dot(a, w) + bias), tx::Error,
                        tx::testing::message_has({"compile it as CUDA"}));
  BOOST_TEST(tx::to(c, tx::CpuPlace())(0, 0) == 0.0f, "nothing was written");
  c = tx::dot(a, w);  // the compiled layer's cuBLAS call works from plain C++
  BOOST_TEST(tx::to(c, tx::CpuPlace())(3, 1) == 3.0f);
}

BOOST_AUTO_TEST_SUITE_END()
