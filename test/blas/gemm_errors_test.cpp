// Every way gemm and batch_gemm refuse their operands: ShapeError naming the formula and all three
// shapes, PlaceError naming the places, TypeError for element types and DArray ranks, DeviceError
// for an unusable GPU; and in each case C is left exactly as it was.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdint>
#include <string>

#include "blas/gemm_case.h"
#include "support/errors.h"
#include "tensorx/array/darray.h"
#include "tensorx/blas/compiled_gemm.h"
#include "tensorx/blas/gemm.h"
#include "tensorx/place/device.h"

namespace tx = tensorx;
using tx::Trans;
using tx::testing::message_has;

namespace {

using tx::testing::ones_on_test_place;

// A C (on the test place unless told) whose every element is 7, to prove a refused call wrote
// nothing.
template <class T, int N>
tx::Array<T, N> sentinel(const tx::Dim<N>& dims,
                         const tx::Place& place = tx::testing::test_place()) {
  tx::Array<T, N> c(dims, place);
  tx::fill(c, 7);
  return c;
}

template <class T, int N>
bool untouched(const tx::Array<T, N>& c) {
  for (T element : tx::make_view(tx::testing::on_host(c))) {
    if (static_cast<double>(element) != 7.0) return false;
  }
  return true;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(gemm_errors)

BOOST_AUTO_TEST_CASE(inner_extents_that_differ_name_all_three_shapes) {
  const auto a = ones_on_test_place<float>(tx::make_dim(2, 3));
  const auto b = ones_on_test_place<float>(tx::make_dim(4, 5));
  const auto c = sentinel<float>(tx::make_dim(2, 5));
  BOOST_CHECK_EXCEPTION(
      tx::gemm(Trans::kNo, Trans::kNo, 1.0f, a, b, 0.0f, c), tx::ShapeError,
      message_has({"C = alpha * A * B + beta * C", "A of shape (2, 3)", "B of shape (4, 5)",
                   "C of shape (2, 5)", "A has 3 columns but B has 4 rows"}));
  BOOST_TEST(untouched(c));
}

BOOST_AUTO_TEST_CASE(the_messages_say_which_operand_is_transposed) {
  const auto a = ones_on_test_place<double>(tx::make_dim(3, 2));
  const auto b = ones_on_test_place<double>(tx::make_dim(5, 4));
  const auto c = sentinel<double>(tx::make_dim(2, 5));
  BOOST_CHECK_EXCEPTION(tx::gemm(Trans::kYes, Trans::kYes, 1.0, a, b, 0.0, c), tx::ShapeError,
                        message_has({"C = alpha * A^T * B^T + beta * C", "A of shape (3, 2)",
                                     "B of shape (5, 4)", "A^T has 3 columns but B^T has 4 rows"}));
  BOOST_TEST(untouched(c));
}

BOOST_AUTO_TEST_CASE(a_product_that_does_not_fit_c_names_both_shapes) {
  const auto a = ones_on_test_place<float>(tx::make_dim(2, 3));
  const auto b = ones_on_test_place<float>(tx::make_dim(3, 4));
  for (const auto& dims : {tx::make_dim(2, 5), tx::make_dim(3, 4), tx::make_dim(4, 2)}) {
    const auto c = sentinel<float>(dims);
    BOOST_CHECK_EXCEPTION(
        tx::gemm(Trans::kNo, Trans::kNo, 1.0f, a, b, 0.0f, c), tx::ShapeError,
        message_has({"A of shape (2, 3)", "B of shape (3, 4)", "the product has shape (2, 4)"}));
    BOOST_TEST(untouched(c));
  }
}

BOOST_AUTO_TEST_CASE(batch_extents_must_be_one_or_that_of_c) {
  const auto a = ones_on_test_place<float>(tx::make_dim(2, 2, 3));
  const auto b = ones_on_test_place<float>(tx::make_dim(1, 3, 4));
  const auto c = sentinel<float>(tx::make_dim(3, 2, 4));
  BOOST_CHECK_EXCEPTION(
      tx::batch_gemm(Trans::kNo, Trans::kNo, 1.0f, a, b, 0.0f, c), tx::ShapeError,
      message_has({"C[i] = alpha * A[i] * B[i] + beta * C[i]", "A of shape (2, 2, 3)",
                   "B of shape (1, 3, 4)", "C of shape (3, 2, 4)",
                   "the batch extent of A (2) is neither 1 nor that of C (3)"}));
  BOOST_TEST(untouched(c));

  // A batch of one in C cannot hold the products of a batch of two.
  const auto single = sentinel<float>(tx::make_dim(1, 2, 4));
  BOOST_CHECK_EXCEPTION(tx::batch_gemm(Trans::kNo, Trans::kNo, 1.0f, a, b, 0.0f, single),
                        tx::ShapeError,
                        message_has({"the batch extent of A (2) is neither 1 nor that of C (1)"}));
  BOOST_TEST(untouched(single));
}

BOOST_AUTO_TEST_CASE(batched_matrix_shapes_are_checked_like_single_ones) {
  const auto a = ones_on_test_place<float>(tx::make_dim(2, 2, 3));
  const auto b = ones_on_test_place<float>(tx::make_dim(2, 4, 4));
  const auto c = sentinel<float>(tx::make_dim(2, 2, 4));
  BOOST_CHECK_EXCEPTION(tx::batch_gemm(Trans::kNo, Trans::kNo, 1.0f, a, b, 0.0f, c), tx::ShapeError,
                        message_has({"A[i] has 3 columns but B[i] has 4 rows",
                                     "A of shape (2, 2, 3)", "B of shape (2, 4, 4)"}));
  BOOST_TEST(untouched(c));
}

BOOST_AUTO_TEST_CASE(operands_on_different_places_throw_place_error) {
  // Built through the type-erased entry point, so that no GPU is needed to name one.
  const auto a = tx::ones<float>(tx::make_dim(2, 3));
  const auto b = tx::ones<float>(tx::make_dim(3, 4));
  const auto c = sentinel<float>(tx::make_dim(2, 4), tx::CpuPlace());
  tx::detail::MatrixRef on_gpu = tx::detail::matrix_ref(b);
  on_gpu.place = tx::CudaPlace(0);
  BOOST_CHECK_EXCEPTION(tx::detail::gemm(Trans::kNo, Trans::kNo, 1, tx::detail::matrix_ref(a),
                                         on_gpu, 0, tx::detail::matrix_ref(c)),
                        tx::PlaceError,
                        message_has({"gemm needs A, B and C on one place", "A is on CpuPlace",
                                     "B on CudaPlace(0)", "C on CpuPlace"}));
  BOOST_TEST(untouched(c));
}

BOOST_AUTO_TEST_CASE(an_unusable_gpu_throws_device_error) {
  if (tx::cuda::device_count() > 0) return;  // the premise needs a machine without a GPU
  tx::detail::MatrixRef m;
  m.place = tx::CudaPlace(0);
  m.rows = m.cols = 1;
  BOOST_CHECK_THROW(tx::detail::gemm(Trans::kNo, Trans::kNo, 1, m, m, 0, m), tx::DeviceError);
}

BOOST_AUTO_TEST_CASE(element_types_must_agree_and_be_floating_point) {
  const auto a = ones_on_test_place<float>(tx::make_dim(2, 2));
  const auto b = ones_on_test_place<double>(tx::make_dim(2, 2));
  const auto c = sentinel<float>(tx::make_dim(2, 2));
  BOOST_CHECK_EXCEPTION(
      tx::gemm(Trans::kNo, Trans::kNo, 1, tx::DArray(a), tx::DArray(b), 0, tx::DArray(c)),
      tx::TypeError,
      message_has({"one element type", "A is float32", "B is float64", "C is float32"}));
  BOOST_TEST(untouched(c));

  const auto i = ones_on_test_place<std::int32_t>(tx::make_dim(2, 2));
  BOOST_CHECK_EXCEPTION(
      tx::gemm(Trans::kNo, Trans::kNo, 1, tx::DArray(i), tx::DArray(i), 0, tx::DArray(i)),
      tx::TypeError, message_has({"float32, float64, float16 or bfloat16", "not int32"}));
}

BOOST_AUTO_TEST_CASE(darrays_of_the_wrong_rank_throw_type_error) {
  const tx::DArray matrix = ones_on_test_place<float>(tx::make_dim(2, 2));
  const tx::DArray batch = ones_on_test_place<float>(tx::make_dim(1, 2, 2));
  BOOST_CHECK_EXCEPTION(tx::gemm(Trans::kNo, Trans::kNo, 1, matrix, batch, 0, matrix),
                        tx::TypeError,
                        message_has({"gemm needs rank-2 arrays", "B is an Array<float32, 3>"}));
  BOOST_CHECK_EXCEPTION(
      tx::batch_gemm(Trans::kNo, Trans::kNo, 1, batch, batch, 0, matrix), tx::TypeError,
      message_has({"batch_gemm needs rank-3 arrays", "C is an Array<float32, 2>"}));
}

BOOST_AUTO_TEST_CASE(negative_extents_throw_shape_error) {
  tx::detail::MatrixRef m;
  m.rows = -1;
  m.cols = 2;
  BOOST_CHECK_EXCEPTION(tx::detail::gemm(Trans::kNo, Trans::kNo, 1, m, m, 0, m), tx::ShapeError,
                        message_has({"shape (-1, 2)", "extents must not be negative"}));
}

BOOST_AUTO_TEST_SUITE_END()
