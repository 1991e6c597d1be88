// Array<T, N>: construction, handle semantics, element access, views and their error paths.
#include <boost/test/unit_test.hpp>

#include <tensorx/array/array.h>
#include <tensorx/array/array_view.h>
#include <tensorx/array/global_ops.h>

#include "support/errors.h"
#include "support/random.h"

namespace tx = tensorx;

BOOST_AUTO_TEST_SUITE(array)

BOOST_AUTO_TEST_CASE(a_new_array_is_dense_row_major_on_the_cpu) {
  tx::Array<float, 3> a(tx::make_dim(2, 3, 4));
  BOOST_TEST(a.dims() == tx::make_dim(2, 3, 4));
  BOOST_TEST(a.strides() == tx::make_dim(12, 4, 1));
  BOOST_TEST(a.numel() == 24);
  BOOST_TEST(tx::is_cpu_place(a.place()));
  BOOST_TEST(a.allocated());
  BOOST_TEST(a.is_contiguous());
  BOOST_TEST(reinterpret_cast<std::uintptr_t>(a.data()) % tx::kCpuAlignment == 0u);
  static_assert(std::is_same_v<decltype(a)::value_type, float>);
  static_assert(decltype(a)::rank == 3);
}

BOOST_AUTO_TEST_CASE(a_default_array_is_unallocated_but_a_scalar_holds_one_element) {
  tx::Array<double, 2> empty;
  BOOST_TEST(!empty.allocated());
  BOOST_TEST(empty.numel() == 0);
  BOOST_TEST(empty.data() == nullptr);
  BOOST_TEST(tx::is_cpu_place(empty.place()));

  tx::Array<double, 0> scalar;
  BOOST_TEST(scalar.allocated());
  BOOST_TEST(scalar.numel() == 1);
  scalar[tx::Dim<0>()] = 2.5;
  BOOST_TEST(scalar.item() == 2.5);
  BOOST_TEST(scalar() == 2.5);
}

BOOST_AUTO_TEST_CASE(copies_and_assignments_alias_the_same_buffer) {
  tx::Array<int, 2> a(tx::make_dim(2, 3));
  tx::fill(a, 0);
  tx::Array<int, 2> b = a;
  tx::Array<int, 2> c;
  c = a;
  b(1, 2) = 7;
  BOOST_TEST(a(1, 2) == 7);
  BOOST_TEST(c(1, 2) == 7);
  BOOST_TEST(c.data() == a.data());
}

BOOST_AUTO_TEST_CASE(element_access_matches_row_major_offsets) {
  auto rng = tx::testing::make_rng();
  for (int trial = 0; trial < 20; ++trial) {
    const auto dims = tx::testing::random_dim<3>(rng, 1, 6);
    tx::Array<float, 3> a(dims);
    for (tx::index_t i = 0; i < a.numel(); ++i) a.data()[i] = static_cast<float>(i);
    for (tx::index_t i = 0; i < dims[0]; ++i)
      for (tx::index_t j = 0; j < dims[1]; ++j)
        for (tx::index_t k = 0; k < dims[2]; ++k) {
          const float expected = static_cast<float>((i * dims[1] + j) * dims[2] + k);
          BOOST_TEST(a(i, j, k) == expected);
          BOOST_TEST(a[tx::make_dim(i, j, k)] == expected);
        }
  }
}

BOOST_AUTO_TEST_CASE(out_of_range_elements_throw_index_error_naming_index_and_shape) {
  tx::Array<float, 2> a(tx::make_dim(2, 3));
  BOOST_CHECK_EXCEPTION(a(2, 0), tx::IndexError,
                        tx::testing::message_is("index (2, 0) is out of range for shape (2, 3)"));
  BOOST_CHECK_THROW(a(0, -1), tx::IndexError);
  BOOST_CHECK_THROW(a[5], tx::IndexError);
  BOOST_CHECK_THROW(a.slice(1, 3), tx::IndexError);
  BOOST_CHECK_THROW(a.slice(2, 1), tx::IndexError);
}

BOOST_AUTO_TEST_CASE(negative_extents_throw_shape_error) {
  using Matrix = tx::Array<float, 2>;
  BOOST_CHECK_EXCEPTION(Matrix(tx::make_dim(2, -1)), tx::ShapeError,
                        tx::testing::message_has({"(2, -1)"}));
}

BOOST_AUTO_TEST_CASE(row_views_drop_the_first_dimension_and_share_the_buffer) {
  tx::Array<int, 3> a(tx::make_dim(3, 4, 5));
  for (tx::index_t i = 0; i < a.numel(); ++i) a.data()[i] = static_cast<int>(i);
  tx::Array<int, 2> row = a[2];
  BOOST_TEST(row.dims() == tx::make_dim(4, 5));
  BOOST_TEST(row(1, 3) == a(2, 1, 3));
  tx::Array<int, 1> line = a[1][3];
  BOOST_TEST(line.dims() == tx::make_dim(5));
  BOOST_TEST(line(4) == a(1, 3, 4));
  tx::Array<int, 0> element = a[0][1][2];
  BOOST_TEST(element.item() == a(0, 1, 2));
  line(0) = -1;
  BOOST_TEST(a(1, 3, 0) == -1);
}

BOOST_AUTO_TEST_CASE(slices_take_rows_along_the_first_dimension) {
  tx::Array<double, 2> a(tx::make_dim(6, 3));
  for (tx::index_t i = 0; i < a.numel(); ++i) a.data()[i] = static_cast<double>(i);
  auto middle = a.slice(2, 5);
  BOOST_TEST(middle.dims() == tx::make_dim(3, 3));
  BOOST_TEST(middle.offset() == 6);
  BOOST_TEST(middle(0, 0) == 6.0);
  BOOST_TEST(middle(2, 2) == 14.0);
  auto nothing = a.slice(4, 4);
  BOOST_TEST(nothing.numel() == 0);
  BOOST_TEST(nothing.is_contiguous());
}

BOOST_AUTO_TEST_CASE(item_needs_exactly_one_element) {
  tx::Array<float, 2> one(tx::make_dim(1, 1));
  one(0, 0) = 3.0f;
  BOOST_TEST(one.item() == 3.0f);
  tx::Array<float, 2> two(tx::make_dim(1, 2));
  BOOST_CHECK_EXCEPTION(two.item(), tx::ShapeError, tx::testing::message_has({"(1, 2)"}));
}

BOOST_AUTO_TEST_CASE(contiguity_ignores_the_strides_of_size_one_extents) {
  tx::Array<float, 3> a(tx::make_dim(4, 1, 5));
  BOOST_TEST(a.is_contiguous());
  tx::Array<float, 3> odd(a.buffer(), tx::make_dim(4, 1, 5), tx::make_dim(5, 99, 1), 0);
  BOOST_TEST(odd.is_contiguous());
  tx::Array<float, 2> b(tx::make_dim(4, 6));
  tx::Array<float, 2> column_pair(b.buffer(), tx::make_dim(4, 2), tx::make_dim(6, 1), 0);
  BOOST_TEST(!column_pair.is_contiguous());
  BOOST_TEST(b.slice(1, 3).is_contiguous());
}

BOOST_AUTO_TEST_CASE(empty_and_size_one_dimensions_are_ordinary_arrays) {
  tx::Array<float, 3> empty(tx::make_dim(3, 0, 2));
  BOOST_TEST(empty.allocated());
  BOOST_TEST(empty.numel() == 0);
  BOOST_TEST(empty[1].numel() == 0);
  tx::Array<float, 3> ones(tx::make_dim(1, 1, 1));
  ones(0, 0, 0) = 4.0f;
  BOOST_TEST(ones[0][0][0].item() == 4.0f);
}

BOOST_AUTO_TEST_SUITE_END()
