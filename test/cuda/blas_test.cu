// The gemm cases only a GPU has, in test_cuda_blas next to the test/blas cases rebuilt for GPU 0:
// operands split between the CPU and the GPU, products on streams other than the default one and
// from several threads at once (one cuBLAS handle per thread), the fused layer over more shapes
// than its plan cache keeps, and float16 and batched products large enough for cuBLAS's
// tensor-core kernels, all against the double-precision reference.
#include <boost/test/unit_test.hpp>

#include <thread>
#include <vector>

#include "blas/gemm_case.h"
#include "support/errors.h"
#include "tensorx/tensorx.h"

namespace tx = tensorx;
using tx::Trans;
using tx::testing::BatchLayout;
using tx::testing::Layout;

BOOST_AUTO_TEST_SUITE(gemm_on_gpu)

BOOST_AUTO_TEST_CASE(operands_split_between_cpu_and_gpu_throw_place_error) {
  const auto on_cpu = tx::ones<float>(tx::make_dim(2, 3));
  const auto on_gpu = tx::ones<float>(tx::make_dim(3, 4), tx::CudaPlace(0));
  const auto c = tx::zeros<float>(tx::make_dim(2, 4), tx::CudaPlace(0));
  BOOST_CHECK_EXCEPTION(
      tx::gemm(Trans::kNo, Trans::kNo, 1.0f, on_cpu, on_gpu, 0.0f, c), tx::PlaceError,
      tx::testing::message_has({"A is on CpuPlace", "B on CudaPlace(0)", "C on CudaPlace(0)"}));
  const auto host = tx::to(c, tx::CpuPlace());
  for (float element : tx::make_view(host)) BOOST_TEST(element == 0.0f);
}

BOOST_AUTO_TEST_CASE(a_product_runs_on_the_current_stream) {
  auto rng = tx::testing::make_rng();
  const tx::Stream stream(tx::CudaPlace(0));
  const tx::StreamGuard guard(stream);
  tx::testing::check_gemm<float>({Trans::kNo, Trans::kYes, 1.0, 0.5, 33, 17, 65, Layout::kSubmatrix,
                                  Layout::kDense, Layout::kTransposedView},
                                 rng);
}

BOOST_AUTO_TEST_CASE(threads_on_their_own_streams_multiply_at_once) {
  // Each thread gets its own stream and its own cuBLAS handle; the results must not mix.
  constexpr int kThreads = 4;
  std::vector<tx::Array<float, 2>> results(kThreads);
  std::vector<std::thread> threads;
  const auto a = tx::ones<float>(tx::make_dim(64, 96), tx::CudaPlace(0));
  // The fills run on the legacy default stream; each thread's stream waits for them.
  const auto b = tx::ones<float>(tx::make_dim(96, 80), tx::CudaPlace(0));
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const tx::Stream stream(tx::CudaPlace(0));
      const tx::StreamGuard guard(stream);
      tx::Array<float, 2> c(tx::make_dim(64, 80), tx::CudaPlace(0));
      for (int repeat = 0; repeat < 10; ++repeat) {
        tx::gemm(Trans::kNo, Trans::kNo, static_cast<float>(t + 1), a, b, 0.0f, c);
      }
      results[static_cast<std::size_t>(t)] = tx::to(c, tx::CpuPlace());
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) {
    for (float element : tx::make_view(results[static_cast<std::size_t>(t)])) {
      BOOST_TEST(element == 96.0f * static_cast<float>(t + 1));
    }
  }
}

BOOST_AUTO_TEST_CASE(the_fused_layer_over_more_shapes_than_its_plans_keep) {
  // 70 shapes evict the first plans of the calling thread's cache; the first shape, planned
  // again, still gives the right values.
  for (int round = 0; round < 2; ++round) {
    for (tx::index_t n = 1; n <= (round == 0 ? 70 : 2); ++n) {
      const auto x = tx::ones<float>(tx::make_dim(8, 16), tx::CudaPlace(0));
      const auto w = tx::ones<float>(tx::make_dim(16, n), tx::CudaPlace(0));
      const auto bias = tx::ones<float>(tx::make_dim(n), tx::CudaPlace(0));
      tx::Array<float, 2> c(tx::make_dim(8, n), tx::CudaPlace(0));
      c = tx::relu(tx::dot(x, w) + bias);
      const auto host = tx::to(c, tx::CpuPlace());
      for (float element : tx::make_view(host)) BOOST_TEST(element == 17.0f, "n = " << n);
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(large_products_match_the_reference, T, tx::testing::GemmTypes) {
  auto rng = tx::testing::make_rng();
  for (Trans trans_a : {Trans::kNo, Trans::kYes}) {
    for (Trans trans_b : {Trans::kNo, Trans::kYes}) {
      tx::testing::check_gemm<T>({trans_a, trans_b, 1.0, 0.0, 256, 192, 320, Layout::kDense,
                                  Layout::kDense, Layout::kDense},
                                 rng);
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(the_tensor_comprehensions_batch_matches_the_reference, T,
                              tx::testing::GemmTypes) {
  // Batched transposed matmul (B, N, M, K) = (500, 26, 72, 26) of the Tensor Comprehensions paper.
  auto rng = tx::testing::make_rng();
  tx::testing::BatchCase x;
  x.matrices = {Trans::kNo, Trans::kYes, 1.0, 0.0, 26, 72, 26};
  x.count = x.count_a = x.count_b = 500;
  tx::testing::check_batch_gemm<T>(x, rng);
  x.count_b = 1;
  x.batch = BatchLayout::kEveryOther;
  tx::testing::check_batch_gemm<T>(x, rng);
}

BOOST_AUTO_TEST_SUITE_END()
