// tx::gemm against a double-precision triple loop: every transpose combination with every layout
// of A, B and C, degenerate and random extents, alpha and beta (beta = 0 ignoring NaN in C),
// outputs that alias an input, and sizes large enough for the BLAS's blocked kernels.
// test/cuda compiles this file again into test_cuda_blas, with every operand on GPU 0.
#include <boost/test/unit_test.hpp>

#include <random>

#include "blas/gemm_case.h"
#include "support/test_place.h"
#include "tensorx/blas/gemm.h"

namespace tx = tensorx;
using tx::Trans;
using tx::testing::Layout;

BOOST_AUTO_TEST_SUITE(gemm)

BOOST_AUTO_TEST_CASE_TEMPLATE(every_transpose_and_layout_matches_the_reference, T,
                              tx::testing::GemmTypes) {
  auto rng = tx::testing::make_rng();
  for (Trans trans_a : {Trans::kNo, Trans::kYes}) {
    for (Trans trans_b : {Trans::kNo, Trans::kYes}) {
      for (Layout a : tx::testing::kInputLayouts) {
        for (Layout b : tx::testing::kInputLayouts) {
          for (Layout c : tx::testing::kOutputLayouts) {
            tx::testing::check_gemm<T>({trans_a, trans_b, 1.5, 0.5, 5, 4, 3, a, b, c}, rng);
          }
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(extents_of_zero_and_one_are_fine, T, tx::testing::GemmTypes) {
  // K = 0 leaves C = beta * C (0 with beta = 0, whatever C held); M or N = 0 writes nothing.
  auto rng = tx::testing::make_rng();
  for (tx::index_t m : {0, 1, 3}) {
    for (tx::index_t n : {0, 1, 3}) {
      for (tx::index_t k : {0, 1, 3}) {
        for (double beta : {0.0, 1.0, -0.5}) {
          for (Trans trans : {Trans::kNo, Trans::kYes}) {
            for (Layout c : tx::testing::kOutputLayouts) {
              tx::testing::check_gemm<T>({trans, trans, 2.0, beta, m, n, k, Layout::kSubmatrix,
                                          Layout::kTransposedView, c},
                                         rng);
            }
          }
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(alpha_and_beta_scale_the_product_and_c, T, tx::testing::GemmTypes) {
  auto rng = tx::testing::make_rng();
  for (double alpha : {0.0, 1.0, -2.5}) {
    for (double beta : {0.0, 1.0, 0.25, -3.0}) {
      tx::testing::check_gemm<T>({Trans::kNo, Trans::kYes, alpha, beta, 6, 7, 5}, rng);
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(beta_zero_ignores_nan_in_c, T, tx::testing::GemmTypes) {
  // check_gemm fills C with NaN whenever beta is 0; here for every layout of C and with K = 0.
  auto rng = tx::testing::make_rng();
  for (tx::index_t k : {0, 4}) {
    for (Layout c : tx::testing::kOutputLayouts) {
      tx::testing::check_gemm<T>(
          {Trans::kNo, Trans::kNo, 1.0, 0.0, 3, 5, k, Layout::kDense, Layout::kDense, c}, rng);
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(random_extents_layouts_and_scalars, T, tx::testing::GemmTypes) {
  auto rng = tx::testing::make_rng(7);
  const auto pick = [&](const auto& options) { return options[rng() % options.size()]; };
  const std::vector<Trans> transposes = {Trans::kNo, Trans::kYes};
  const std::vector<double> scalars = {0.0, 1.0, -1.0, 0.5, 2.0};
  std::uniform_int_distribution<tx::index_t> extent(0, 9);
  for (int trial = 0; trial < 200; ++trial) {
    tx::testing::GemmCase x;
    x.trans_a = pick(transposes);
    x.trans_b = pick(transposes);
    x.alpha = pick(scalars);
    x.beta = pick(scalars);
    x.m = extent(rng);
    x.n = extent(rng);
    x.k = extent(rng);
    x.a = pick(tx::testing::kInputLayouts);
    x.b = pick(tx::testing::kInputLayouts);
    x.c = pick(tx::testing::kOutputLayouts);
    tx::testing::check_gemm<T>(x, rng);
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(sizes_beyond_one_blas_block_match, T, tx::testing::GemmTypes) {
  auto rng = tx::testing::make_rng();
  for (Trans trans_a : {Trans::kNo, Trans::kYes}) {
    for (Trans trans_b : {Trans::kNo, Trans::kYes}) {
      tx::testing::check_gemm<T>({trans_a, trans_b, 1.0, 0.5, 67, 45, 129, Layout::kDense,
                                  Layout::kSubmatrix, Layout::kTransposedView},
                                 rng);
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(an_output_that_is_also_an_input_reads_the_old_values, T,
                              tx::testing::GemmTypes) {
  // A BLAS must not write what it reads (OpenBLAS, for one, zeroes C for beta = 0 before it reads
  // A), so C = A * B with C aliasing A, or B's transpose, goes through a temporary.
  auto rng = tx::testing::make_rng();
  for (double beta : {0.0, 1.0}) {
    for (bool c_is_a : {true, false}) {
      const auto a = tx::testing::random_array<T>(tx::make_dim(6, 6), rng);
      const auto b = tx::testing::random_array<T>(tx::make_dim(6, 6), rng);
      const auto host_a = tx::testing::on_host(a);
      const auto host_b = tx::testing::on_host(b);
      const Trans trans_b = c_is_a ? Trans::kNo : Trans::kYes;
      const auto c = c_is_a ? a : tx::Array<T, 2>(b.buffer(), b.dims(), tx::make_dim(1, 6), 0);
      const auto host_c =
          c_is_a ? host_a : tx::Array<T, 2>(host_b.buffer(), b.dims(), tx::make_dim(1, 6), 0);
      const auto expected = tx::testing::reference_gemm(Trans::kNo, trans_b, 1.0, host_a, host_b,
                                                        beta, tx::to(host_c, tx::CpuPlace()));
      tx::gemm(Trans::kNo, trans_b, 1, a, b, static_cast<tx::gemm_scalar_t<T>>(beta), c);
      const auto result = tx::testing::on_host(c);
      std::size_t at = 0;
      for (T got : tx::make_view(result)) {
        BOOST_TEST(std::abs(static_cast<double>(got) - expected.values[at]) <=
                   tx::testing::allowed_error<T>(expected.magnitude[at], expected.values[at], 6));
        ++at;
      }
    }
  }
}

using TwoByteFloats = boost::mpl::list<tx::float16, tx::bfloat16>;

BOOST_AUTO_TEST_CASE_TEMPLATE(two_byte_floats_accumulate_in_float, T, TwoByteFloats) {
  // A sum of 4097 ones: a float16 running sum sticks at 2048 (2048 + 1 rounds back to 2048), a
  // bfloat16 one at 256, a float sum reaches 4097, which rounds once to 4096 in both types.
  const tx::index_t k = 4097;
  const auto a = tx::testing::on_test_place(tx::ones<T>(tx::make_dim(1, k)));
  const auto b = tx::testing::on_test_place(tx::ones<T>(tx::make_dim(k, 1)));
  const auto c = tx::testing::on_test_place(tx::zeros<T>(tx::make_dim(1, 1)));
  tx::gemm(Trans::kNo, Trans::kNo, 1.0f, a, b, 0.0f, c);
  BOOST_TEST(static_cast<float>(c.item()) == 4096.0f);
}

BOOST_AUTO_TEST_SUITE_END()
