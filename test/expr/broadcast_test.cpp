// NumPy broadcasting, implicit in element-wise operations and explicit through tx::broadcast_to.
#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>

#include "support/errors.h"
#include "support/reference.h"

namespace tx = tensorx;
using tx::testing::check_close;
using tx::testing::on_host;
using tx::testing::random_array;
using tx::testing::read_broadcast;
using tx::testing::reference;

BOOST_AUTO_TEST_SUITE(broadcast)

BOOST_AUTO_TEST_CASE(rows_columns_and_missing_dimensions_stretch) {
  auto rng = tx::testing::make_rng(31);
  for (int trial = 0; trial < 6; ++trial) {
    const auto dims = tx::testing::random_dim<3>(rng, 1, 7);
    auto x = random_array<float>(dims, rng);
    auto row = random_array<float>(tx::make_dim(dims[2]), rng);
    auto column = random_array<float>(tx::make_dim(dims[1], 1), rng);
    auto plane = random_array<float>(tx::make_dim(dims[0], 1, dims[2]), rng);
    tx::Array<float, 3> m = x * row + column - plane;
    const auto hx = on_host(x);
    const auto hr = on_host(row);
    const auto hc = on_host(column);
    const auto hp = on_host(plane);
    check_close(m, reference(dims, [&](const auto& i) {
                  return read_broadcast(hx, i) * read_broadcast(hr, i) + read_broadcast(hc, i) -
                         read_broadcast(hp, i);
                }));
  }
}

BOOST_AUTO_TEST_CASE(a_row_and_a_column_broadcast_to_their_outer_product_shape) {
  auto rng = tx::testing::make_rng(32);
  auto column = random_array<double>(tx::make_dim(300, 1), rng);
  auto row = random_array<double>(tx::make_dim(1, 500), rng);
  tx::Array<double, 2> outer = column * row;
  BOOST_TEST(outer.dims() == tx::make_dim(300, 500));
  const auto hc = on_host(column), hr = on_host(row);
  check_close(outer,
              reference(outer.dims(), [&](const auto& i) { return hc(i[0], 0) * hr(0, i[1]); }));
}

BOOST_AUTO_TEST_CASE(broadcast_to_stretches_explicitly) {
  auto rng = tx::testing::make_rng(33);
  auto bias = random_array<float>(tx::make_dim(3), rng);
  tx::Array<float, 2> m = tx::broadcast_to(bias, tx::make_dim(4, 3));
  const auto hb = on_host(bias);
  check_close(m, reference(tx::make_dim(4, 3), [&](const auto& i) { return hb(i[1]); }));
  // A number reads no array: the destination says where the pass runs.
  tx::Array<float, 2> filled(tx::make_dim(2, 2), tx::testing::test_place());
  filled = tx::broadcast_to(2.5f, tx::make_dim(2, 2));
  check_close(filled, reference(tx::make_dim(2, 2), [](const auto&) { return 2.5; }));
  using Matrix = tx::Array<float, 2>;
  BOOST_CHECK_EXCEPTION(Matrix(tx::broadcast_to(bias, tx::make_dim(4, 2))), tx::ShapeError,
                        tx::testing::message_is("cannot broadcast shape (3) to shape (4, 2)"));
}

BOOST_AUTO_TEST_CASE(incompatible_extents_name_every_shape) {
  auto rng = tx::testing::make_rng(34);
  auto a = random_array<float>(tx::make_dim(2, 3), rng);
  auto b = random_array<float>(tx::make_dim(4), rng);
  auto c = random_array<float>(tx::make_dim(3), rng);
  tx::Array<float, 2> out;
  BOOST_CHECK_EXCEPTION(out = a + c * b, tx::ShapeError, tx::testing::message_has({"(3)", "(4)"}));
  BOOST_TEST(!out.allocated());
}

BOOST_AUTO_TEST_CASE(zero_extents_broadcast_against_one) {
  auto rng = tx::testing::make_rng(35);
  auto empty = random_array<float>(tx::make_dim(0, 1), rng);
  auto row = random_array<float>(tx::make_dim(1, 4), rng);
  tx::Array<float, 2> out = empty + row;
  BOOST_TEST(out.dims() == tx::make_dim(0, 4));
}

BOOST_AUTO_TEST_SUITE_END()
