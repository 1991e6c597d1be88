// tx::batch_gemm against a double-precision loop over the batch: broadcast batches of one in A, B
// or both, batch layouts (dense, every other matrix, reversed), matrix layouts within the batch,
// and empty batches and matrices. test_cuda_blas (test/cuda) runs every case on GPU 0 too.
#include <boost/test/unit_test.hpp>

#include <random>

#include "blas/gemm_case.h"
#include "tensorx/blas/gemm.h"

namespace tx = tensorx;
using tx::Trans;
using tx::testing::BatchLayout;
using tx::testing::Layout;

BOOST_AUTO_TEST_SUITE(batch_gemm)

BOOST_AUTO_TEST_CASE_TEMPLATE(a_batch_of_one_in_a_or_b_serves_every_matrix, T,
                              tx::testing::GemmTypes) {
  auto rng = tx::testing::make_rng();
  const tx::index_t count = 4;
  for (tx::index_t count_a : {tx::index_t{1}, count}) {
    for (tx::index_t count_b : {tx::index_t{1}, count}) {
      for (Trans trans_a : {Trans::kNo, Trans::kYes}) {
        for (Trans trans_b : {Trans::kNo, Trans::kYes}) {
          tx::testing::BatchCase x;
          x.matrices = {trans_a, trans_b, 1.0, 0.5, 3, 5, 4};
          x.count = count;
          x.count_a = count_a;
          x.count_b = count_b;
          tx::testing::check_batch_gemm<T>(x, rng);
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(every_batch_and_matrix_layout_matches_the_reference, T,
                              tx::testing::GemmTypes) {
  auto rng = tx::testing::make_rng();
  for (BatchLayout batch : tx::testing::kBatchLayouts) {
    for (Layout a : tx::testing::kInputLayouts) {
      for (Layout c : tx::testing::kOutputLayouts) {
        tx::testing::BatchCase x;
        x.matrices = {Trans::kYes, Trans::kNo, -1.0, 2.0, 4, 3, 5, a, Layout::kSubmatrix, c};
        x.count = x.count_a = x.count_b = 3;
        x.batch = batch;
        tx::testing::check_batch_gemm<T>(x, rng);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(empty_batches_and_matrices_are_fine, T, tx::testing::GemmTypes) {
  auto rng = tx::testing::make_rng();
  for (tx::index_t count : {0, 1, 3}) {
    for (tx::index_t m : {0, 2}) {
      for (tx::index_t k : {0, 3}) {
        for (double beta : {0.0, 1.5}) {
          tx::testing::BatchCase x;
          x.matrices = {Trans::kNo, Trans::kNo, 1.0, beta, m, 2, k};
          x.count = x.count_a = count;
          x.count_b = 1;
          tx::testing::check_batch_gemm<T>(x, rng);
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(random_batches, T, tx::testing::GemmTypes) {
  auto rng = tx::testing::make_rng(11);
  const auto pick = [&](const auto& options) { return options[rng() % options.size()]; };
  const std::vector<Trans> transposes = {Trans::kNo, Trans::kYes};
  const std::vector<double> scalars = {0.0, 1.0, -0.5};
  std::uniform_int_distribution<tx::index_t> extent(0, 6);
  for (int trial = 0; trial < 100; ++trial) {
    tx::testing::BatchCase x;
    x.matrices = {pick(transposes),
                  pick(transposes),
                  pick(scalars),
                  pick(scalars),
                  extent(rng),
                  extent(rng),
                  extent(rng),
                  pick(tx::testing::kInputLayouts),
                  pick(tx::testing::kInputLayouts),
                  pick(tx::testing::kOutputLayouts)};
    x.count = extent(rng);
    x.count_a = rng() % 2 == 0 ? 1 : x.count;
    x.count_b = rng() % 2 == 0 ? 1 : x.count;
    x.batch = pick(tx::testing::kBatchLayouts);
    tx::testing::check_batch_gemm<T>(x, rng);
  }
}

BOOST_AUTO_TEST_SUITE_END()
