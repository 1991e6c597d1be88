// tx::dot on matrices and vectors: every transpose combination, strided views, non-square and
// degenerate extents, float16, each checked against a double triple loop, one BLAS pass each.
#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>

#include "blas/dot_reference.h"

namespace tx = tensorx;
using tx::index_t;
using tx::testing::check_close;
using tx::testing::matmul_reference;
using tx::testing::on_host;
using tx::testing::product_tolerance;
using tx::testing::random_array;

namespace {

// c = dot(op(a), op(b)) for one transpose combination, operands stored as op requires.
template <class T>
void check_product(index_t m, index_t k, index_t n, bool transpose_a, bool transpose_b,
                   std::mt19937_64& rng) {
  const auto a = random_array<T>(transpose_a ? tx::make_dim(k, m) : tx::make_dim(m, k), rng);
  const auto b = random_array<T>(transpose_b ? tx::make_dim(n, k) : tx::make_dim(k, n), rng);
  const auto expected = matmul_reference(on_host(a), transpose_a, on_host(b), transpose_b);
  tx::Array<T, 2> c;
  const auto before = tx::stats::passes();
  if (transpose_a && transpose_b) {
    c = tx::dot(tx::transpose(a), tx::transpose(b));
  } else if (transpose_a) {
    c = tx::dot(tx::transpose(a), b);
  } else if (transpose_b) {
    c = tx::dot(a, tx::transpose(b));
  } else {
    c = tx::dot(a, b);
  }
  BOOST_TEST(tx::stats::passes() - before == (m * n == 0 ? 0u : 1u));
  BOOST_TEST(c.place() == tx::testing::test_place());
  check_close(c, expected, product_tolerance<T>(k));
}

template <class T>
void check_every_transpose(std::mt19937_64& rng) {
  for (int trial = 0; trial < 3; ++trial) {
    const auto extents = tx::testing::random_dim<3>(rng, 1, 17);
    for (bool transpose_a : {false, true}) {
      for (bool transpose_b : {false, true}) {
        check_product<T>(extents[0], extents[1], extents[2], transpose_a, transpose_b, rng);
      }
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(dot)

BOOST_AUTO_TEST_CASE(matrix_products_in_every_transpose_combination) {
  auto rng = tx::testing::make_rng(501);
  check_every_transpose<float>(rng);
  check_every_transpose<double>(rng);
}

BOOST_AUTO_TEST_CASE(two_byte_floats_accumulate_in_float) {
  auto rng = tx::testing::make_rng(502);
  for (bool transpose_a : {false, true}) {
    for (bool transpose_b : {false, true}) {
      check_product<tx::float16>(13, 33, 7, transpose_a, transpose_b, rng);
      check_product<tx::bfloat16>(13, 33, 7, transpose_a, transpose_b, rng);
    }
  }
}

BOOST_AUTO_TEST_CASE(degenerate_and_non_square_extents) {
  auto rng = tx::testing::make_rng(503);
  for (index_t m : {0, 1, 5}) {
    for (index_t k : {0, 1, 4}) {
      for (index_t n : {0, 1, 3}) check_product<double>(m, k, n, false, k % 2 == 1, rng);
    }
  }
}

BOOST_AUTO_TEST_CASE(strided_views_as_operands_and_destination) {
  auto rng = tx::testing::make_rng(504);
  const auto a = tx::testing::random_strided_matrix<float>(6, 5, rng);
  const auto b = tx::testing::random_strided_matrix<float>(5, 4, rng);
  auto c = tx::testing::random_strided_matrix<float>(6, 4, rng);
  // Row slices: column stride 1, row stride past the slice's width.
  const auto p = random_array<float>(tx::make_dim(9, 6), rng).slice(2, 7);
  const auto q = random_array<float>(tx::make_dim(7, 5), rng).slice(1, 5);
  c = tx::dot(a, b);
  check_close(c, matmul_reference(on_host(a), false, on_host(b), false),
              product_tolerance<float>(5));
  c = tx::dot(tx::transpose(p), tx::transpose(q));
  check_close(c, matmul_reference(on_host(p), true, on_host(q), true), product_tolerance<float>(5));
}

BOOST_AUTO_TEST_CASE(matrix_vector_vector_matrix_and_inner_product) {
  auto rng = tx::testing::make_rng(505);
  const auto m = random_array<double>(tx::make_dim(7, 4), rng);
  const auto x = random_array<double>(tx::make_dim(4), rng);
  const auto y = random_array<double>(tx::make_dim(7), rng);
  const auto hm = on_host(m);
  const auto hx = tx::reshape(on_host(x), tx::make_dim(4, 1));
  const auto hy = tx::reshape(on_host(y), tx::make_dim(7, 1));

  tx::Array<double, 1> mv = tx::dot(m, x);
  check_close(tx::reshape(on_host(mv), tx::make_dim(7, 1)), matmul_reference(hm, false, hx, false));
  tx::Array<double, 1> vm = tx::dot(y, m);
  check_close(tx::reshape(on_host(vm), tx::make_dim(1, 4)), matmul_reference(hy, true, hm, false));
  tx::Array<double, 1> tv = tx::dot(tx::transpose(m), y);
  check_close(tx::reshape(on_host(tv), tx::make_dim(4, 1)), matmul_reference(hm, true, hy, false));

  auto inner = tx::testing::scalar_on_test_place<double>();  // a default rank-0 array is on the CPU
  const auto before = tx::stats::passes();
  inner = tx::dot(x, x);
  BOOST_TEST(tx::stats::passes() - before == 1u);
  check_close(tx::reshape(on_host(inner), tx::make_dim(1, 1)),
              matmul_reference(hx, true, hx, false));
}

BOOST_AUTO_TEST_CASE(outer_product_of_a_column_and_a_row) {
  auto rng = tx::testing::make_rng(506);
  const auto u = random_array<float>(tx::make_dim(6), rng);
  const auto v = random_array<float>(tx::make_dim(3), rng);
  const auto column = tx::reshape(u, tx::make_dim(6, 1));
  const auto row = tx::reshape(v, tx::make_dim(1, 3));
  tx::Array<float, 2> outer = tx::dot(column, row);
  check_close(outer, matmul_reference(on_host(column), false, on_host(row), false));
}

BOOST_AUTO_TEST_CASE(a_destination_that_is_an_operand) {
  auto rng = tx::testing::make_rng(507);
  auto a = random_array<double>(tx::make_dim(5, 5), rng);
  const auto b = random_array<double>(tx::make_dim(5, 5), rng);
  const auto expected = matmul_reference(on_host(a), true, on_host(b), false);
  a = tx::dot(tx::transpose(a), b);
  check_close(a, expected);
}

BOOST_AUTO_TEST_SUITE_END()
