// tx::transpose and tx::permute: strided views on both sides of `=`, and materialised when they
// permute an expression.
#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>

#include "support/errors.h"
#include "support/reference.h"

namespace tx = tensorx;
using tx::testing::check_close;
using tx::testing::on_host;
using tx::testing::random_array;
using tx::testing::reference;

BOOST_AUTO_TEST_SUITE(permute)

BOOST_AUTO_TEST_CASE(transpose_reads_rows_as_columns) {
  auto rng = tx::testing::make_rng(41);
  for (int trial = 0; trial < 5; ++trial) {
    const auto dims = tx::testing::random_dim<2>(rng, 1, 40);
    auto a = random_array<float>(dims, rng);
    tx::Array<float, 2> t = tx::transpose(a);
    BOOST_TEST(t.dims() == tx::make_dim(dims[1], dims[0]));
    const auto ha = on_host(a);
    check_close(t, reference(t.dims(), [&](const auto& i) { return ha(i[1], i[0]); }));
    auto view = tx::transpose(a).array();
    BOOST_TEST(view.data() == a.data());
    BOOST_TEST(view.strides() == tx::make_dim(a.strides()[1], a.strides()[0]));
  }
}

BOOST_AUTO_TEST_CASE(permute_reorders_every_axis) {
  auto rng = tx::testing::make_rng(42);
  auto a = random_array<double>(tx::make_dim(2, 3, 4, 5), rng);
  const auto axes = tx::make_dim(2, 0, 3, 1);
  tx::Array<double, 4> p = tx::permute(a, axes);
  BOOST_TEST(p.dims() == tx::make_dim(4, 2, 5, 3));
  const auto ha = on_host(a);
  check_close(p, reference(p.dims(), [&](const auto& i) { return ha(i[1], i[3], i[0], i[2]); }));
}

BOOST_AUTO_TEST_CASE(a_permuted_array_is_an_lvalue) {
  auto rng = tx::testing::make_rng(43);
  auto a = random_array<float>(tx::make_dim(3, 4, 5), rng);
  auto c = tx::testing::zeros_on_test_place<float>(tx::make_dim(5, 3, 4));
  tx::permute(c, tx::make_dim(1, 2, 0)) = a + 1.0f;
  const auto ha = on_host(a);
  check_close(c, reference(c.dims(), [&](const auto& i) { return ha(i[1], i[2], i[0]) + 1.0; }));
  tx::permute(c, tx::make_dim(1, 2, 0)) += a;
  check_close(c,
              reference(c.dims(), [&](const auto& i) { return 2.0 * ha(i[1], i[2], i[0]) + 1.0; }));
  tx::transpose(a[0]) = 7.0f;
  BOOST_TEST(on_host(a)(0, 3, 2) == 7.0f);
}

BOOST_AUTO_TEST_CASE(permuting_an_expression_materialises_it_first) {
  auto rng = tx::testing::make_rng(44);
  auto a = random_array<float>(tx::make_dim(9, 7), rng);
  auto b = random_array<float>(tx::make_dim(9, 7), rng);
  tx::Array<float, 2> t;
  const auto before = tx::stats::passes();
  t = tx::transpose(a * b) - 1.0f;
  BOOST_TEST(tx::stats::passes() - before == 2u);
  const auto ha = on_host(a), hb = on_host(b);
  check_close(t, reference(t.dims(), [&](const auto& i) {
                return static_cast<double>(ha(i[1], i[0])) * hb(i[1], i[0]) - 1.0;
              }));
}

BOOST_AUTO_TEST_CASE(axes_must_be_a_permutation) {
  tx::Array<float, 3> a(tx::make_dim(2, 3, 4), tx::testing::test_place());
  BOOST_CHECK_EXCEPTION(tx::permute(a, tx::make_dim(0, 0, 1)), tx::ShapeError,
                        tx::testing::message_is("axes (0, 0, 1) are not a permutation of 0 .. 2"));
  BOOST_CHECK_THROW(tx::permute(a, tx::make_dim(0, 1, 3)), tx::ShapeError);
}

BOOST_AUTO_TEST_SUITE_END()
