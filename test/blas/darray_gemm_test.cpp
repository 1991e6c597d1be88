// gemm and batch_gemm on DArrays: the element type is chosen at run time and the result is the
// one the typed call computes. test_cuda_blas (test/cuda) runs these on GPU 0 too.
#include <boost/test/unit_test.hpp>

#include "blas/gemm_case.h"
#include "tensorx/array/darray.h"
#include "tensorx/blas/gemm.h"

namespace tx = tensorx;
using tx::Trans;

BOOST_AUTO_TEST_SUITE(darray_gemm)

BOOST_AUTO_TEST_CASE_TEMPLATE(a_darray_product_matches_the_reference, T, tx::testing::GemmTypes) {
  auto rng = tx::testing::make_rng();
  const auto a = tx::testing::matrix_operand<T>(4, 3, tx::testing::Layout::kTransposedView, rng);
  const auto b = tx::testing::matrix_operand<T>(5, 4, tx::testing::Layout::kSubmatrix, rng);
  const auto c = tx::testing::matrix_operand<T>(3, 5, tx::testing::Layout::kDense, rng);
  const auto expected = tx::testing::reference_gemm(Trans::kYes, Trans::kYes, 0.5, a.host_view(),
                                                    b.host_view(), -1.0, c.host_view());
  const tx::DArray da = a.view();
  BOOST_TEST(tx::dtype(da) == tx::data_type_of<T>());
  tx::gemm(Trans::kYes, Trans::kYes, 0.5, da, tx::DArray(b.view()), -1.0, tx::DArray(c.view()));
  tx::testing::check_result(c, expected);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(a_darray_batch_broadcasts_like_the_typed_one, T,
                              tx::testing::GemmTypes) {
  auto rng = tx::testing::make_rng();
  const auto a = tx::testing::batch_operand<T>(3, 2, 4, tx::testing::BatchLayout::kEveryOther,
                                               tx::testing::Layout::kDense, rng);
  const auto b = tx::testing::batch_operand<T>(1, 4, 5, tx::testing::BatchLayout::kDense,
                                               tx::testing::Layout::kSubmatrix, rng);
  const auto c = tx::testing::batch_operand<T>(3, 2, 5, tx::testing::BatchLayout::kReversed,
                                               tx::testing::Layout::kDense, rng, true);
  const auto expected = tx::testing::reference_batch_gemm(
      Trans::kNo, Trans::kNo, 1.0, a.host_view(), b.host_view(), 0.0, c.host_view());
  tx::batch_gemm(Trans::kNo, Trans::kNo, 1.0, tx::DArray(a.view()), tx::DArray(b.view()), 0.0,
                 tx::DArray(c.view()));
  tx::testing::check_result(c, expected);
}

BOOST_AUTO_TEST_SUITE_END()
