// The Majel global operations on typed arrays: zeros, ones, fill, reshape, copy, to.
#include <boost/test/unit_test.hpp>

#include <sstream>
#include <vector>

#include <tensorx/array/array.h>
#include <tensorx/array/array_view.h>
#include <tensorx/array/global_ops.h>
#include <tensorx/place/device.h>

#include "support/errors.h"
#include "support/random.h"

namespace tx = tensorx;

namespace {

template <class T, int N>
std::vector<T> elements(const tx::Array<T, N>& a) {
  auto view = tx::make_view(a);
  return std::vector<T>(view.begin(), view.end());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(global_ops)

BOOST_AUTO_TEST_CASE(an_array_prints_its_element_type_extent_and_place) {
  std::ostringstream printed;
  printed << tx::Array<double, 2>(tx::make_dim(2, 3)) << "; "
          << tx::Array<tx::bfloat16, 0>(tx::Dim<0>()) << "; " << tx::Array<std::int32_t, 1>();
  BOOST_TEST(printed.str() ==
             "Array<float64, (2, 3)> on CpuPlace; Array<bfloat16, ()> on CpuPlace; "
             "Array<int32, (0)> on CpuPlace");
}

BOOST_AUTO_TEST_CASE(zeros_and_ones_fill_every_element) {
  auto z = tx::zeros<float>(tx::make_dim(3, 5));
  auto o = tx::ones<std::int64_t>(tx::make_dim(2, 2, 2));
  BOOST_TEST(elements(z) == std::vector<float>(15, 0.0f), boost::test_tools::per_element());
  BOOST_TEST(elements(o) == std::vector<std::int64_t>(8, 1), boost::test_tools::per_element());
  auto e = tx::zeros<double>(tx::make_dim(0, 4));
  BOOST_TEST(e.numel() == 0);
}

BOOST_AUTO_TEST_CASE(fill_writes_only_the_elements_of_a_strided_view) {
  tx::Array<int, 2> a = tx::zeros<int>(tx::make_dim(4, 6));
  tx::Array<int, 2> every_other_column(a.buffer(), tx::make_dim(4, 3), tx::make_dim(6, 2), 1);
  tx::fill(every_other_column, 9);
  for (tx::index_t i = 0; i < 4; ++i)
    for (tx::index_t j = 0; j < 6; ++j) BOOST_TEST(a(i, j) == (j % 2 == 1 ? 9 : 0));
}

BOOST_AUTO_TEST_CASE(reshape_shares_the_buffer_of_a_contiguous_array) {
  auto rng = tx::testing::make_rng();
  tx::Array<float, 3> a(tx::make_dim(2, 3, 4));
  tx::testing::fill_random(a, rng);
  auto flat = tx::reshape(a, tx::make_dim(24));
  auto matrix = tx::reshape(a[1], tx::make_dim(4, 3));
  BOOST_TEST(flat.data() == a.data());
  BOOST_TEST(elements(flat) == elements(a), boost::test_tools::per_element());
  BOOST_TEST(matrix(3, 2) == a(1, 2, 3));
  BOOST_TEST(tx::reshape(tx::Array<float, 2>(tx::make_dim(0, 3)), tx::make_dim(0)).numel() == 0);
}

BOOST_AUTO_TEST_CASE(reshape_rejects_other_counts_and_non_contiguous_arrays) {
  tx::Array<float, 2> a(tx::make_dim(4, 6));
  BOOST_CHECK_EXCEPTION(tx::reshape(a, tx::make_dim(5, 5)), tx::ShapeError,
                        tx::testing::message_has({"(4, 6)", "(5, 5)"}));
  tx::Array<float, 2> columns(a.buffer(), tx::make_dim(4, 3), tx::make_dim(6, 1), 0);
  BOOST_CHECK_EXCEPTION(tx::reshape(columns, tx::make_dim(12)), tx::ShapeError,
                        tx::testing::message_has({"non-contiguous"}));
}

BOOST_AUTO_TEST_CASE(copy_moves_elements_between_views_of_any_strides) {
  auto rng = tx::testing::make_rng();
  for (int trial = 0; trial < 20; ++trial) {
    const auto dims = tx::testing::random_dim<2>(rng, 0, 9);
    tx::Array<double, 2> src(dims);
    tx::testing::fill_random(src, rng);
    tx::Array<double, 2> wide(tx::make_dim(dims[1], dims[0] + 2));
    tx::fill(wide, -7.0);
    // The destination is the transpose of the left part of a wider matrix.
    tx::Array<double, 2> dst(wide.buffer(), dims, tx::make_dim(1, dims[0] + 2), 0);
    tx::copy(dst, src);
    for (tx::index_t i = 0; i < dims[0]; ++i)
      for (tx::index_t j = 0; j < dims[1]; ++j) BOOST_TEST(wide(j, i) == src(i, j));
    for (tx::index_t j = 0; j < dims[1]; ++j) BOOST_TEST(wide(j, dims[0]) == -7.0);
  }
}

BOOST_AUTO_TEST_CASE(copy_reads_an_overlapping_source_before_writing) {
  tx::Array<int, 1> a(tx::make_dim(10));
  for (int i = 0; i < 10; ++i) a(i) = i;
  tx::copy(a.slice(1, 10), a.slice(0, 9));
  for (int i = 1; i < 10; ++i) BOOST_TEST(a(i) == i - 1);
}

BOOST_AUTO_TEST_CASE(copy_of_mismatched_shapes_throws_naming_both) {
  tx::Array<float, 2> a(tx::make_dim(2, 3)), b(tx::make_dim(3, 2));
  BOOST_CHECK_EXCEPTION(tx::copy(a, b), tx::ShapeError,
                        tx::testing::message_is(
                            "cannot copy an array of shape (3, 2) into an array of shape (2, 3)"));
}

BOOST_AUTO_TEST_CASE(to_makes_a_dense_copy_on_the_place) {
  auto rng = tx::testing::make_rng();
  tx::Array<float, 2> a(tx::make_dim(5, 4));
  tx::testing::fill_random(a, rng);
  tx::Array<float, 2> column_major(a.buffer(), tx::make_dim(4, 5), tx::make_dim(1, 4), 0);
  auto dense = tx::to(column_major, tx::CpuPlace());
  BOOST_TEST(dense.is_contiguous());
  BOOST_TEST(dense.data() != a.data());
  BOOST_TEST(elements(dense) == elements(column_major), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(gpu_places_need_a_device) {
  if (tx::cuda::device_count() > 0) return;  // test/cuda covers GPU arrays where one exists
  BOOST_CHECK_THROW(tx::zeros<float>(tx::make_dim(2), tx::CudaPlace(0)), tx::DeviceError);
}

BOOST_AUTO_TEST_SUITE_END()
