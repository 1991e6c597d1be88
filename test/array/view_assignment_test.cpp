// Assigning to a view writes elements, assigning to a named Array rebinds it (hardening issue,
// points 2 and 9): m[0] = m[1], a.slice(...) = b, tx::slice(...) = b and tx::transpose(a) = b
// (with every compound operator) write through the view, while `x = b` on a named handle aliases
// b; tx::slice of an array is a view exactly like a.slice.
#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>

#include "support/reference.h"
#include "support/test_place.h"

namespace tx = tensorx;
using tx::testing::check_close;
using tx::testing::on_host;
using tx::testing::random_array;
using tx::testing::reference;

BOOST_AUTO_TEST_SUITE(view_assignment)

BOOST_AUTO_TEST_CASE(a_row_view_assigned_an_array_copies_its_elements) {
  auto rng = tx::testing::make_rng(1521);
  auto m = random_array<float>(tx::make_dim(3, 5), rng);
  const auto before = on_host(m);
  m[0] = m[1];
  check_close(m, reference(m.dims(), [&](const auto& i) {
                return static_cast<double>(before(i[0] == 0 ? 1 : i[0], i[1]));
              }));
  m[2] = tx::Array<float, 1>(m[1]);  // an rvalue source, the same rule
  BOOST_TEST(on_host(m)(2, 4) == before(1, 4));
  m.slice(0, 2) = m.slice(1, 3);  // overlapping rows: read completely before written
  const auto after = on_host(m);
  BOOST_TEST(after(0, 3) == before(1, 3));
  BOOST_TEST(after(1, 3) == before(1, 3));
}

BOOST_AUTO_TEST_CASE(a_named_handle_assigned_an_array_aliases_it) {
  auto rng = tx::testing::make_rng(1522);
  const auto a = random_array<double>(tx::make_dim(4), rng);
  const auto b = random_array<double>(tx::make_dim(4), rng);
  tx::Array<double, 1> x = a;
  BOOST_TEST(x.buffer() == a.buffer());
  x = b;
  BOOST_TEST(x.buffer() == b.buffer());
  BOOST_TEST(on_host(a)(0) != on_host(b)(0), "a kept its own elements");
}

BOOST_AUTO_TEST_CASE(transposed_and_sliced_views_take_every_assignment_operator) {
  auto rng = tx::testing::make_rng(1523);
  const auto b = random_array<float>(tx::make_dim(3, 2), rng);
  const auto hb = on_host(b);
  auto a = tx::testing::on_test_place(tx::ones<float>(tx::make_dim(2, 3)));
  tx::transpose(a) = b;
  check_close(a, reference(a.dims(), [&](const auto& i) { return double(hb(i[1], i[0])); }));
  tx::transpose(a) *= b;
  tx::transpose(a) /= 2.0f;
  tx::transpose(a) += b;
  tx::transpose(a) -= 1.0f;
  check_close(a, reference(a.dims(), [&](const auto& i) {
                const double v = hb(i[1], i[0]);
                return v * v / 2.0 + v - 1.0;
              }));
  auto c = tx::testing::on_test_place(tx::zeros<float>(tx::make_dim(3, 4)));
  c.slice(1, 3) = 2.0f;
  tx::slice(c, 1, 2, 4) = b;
  const auto hc = on_host(c);
  BOOST_TEST(hc(0, 0) == 0.0f);
  BOOST_TEST(hc(1, 0) == 2.0f);
  BOOST_TEST(hc(2, 3) == hb(2, 1));
}

BOOST_AUTO_TEST_CASE(tx_slice_of_an_array_is_a_view_like_a_slice) {
  auto rng = tx::testing::make_rng(1524);
  const auto m = random_array<float>(tx::make_dim(4, 6), rng);
  tx::Array<float, 2> v = tx::slice(m, 1, 2, 5);
  BOOST_TEST(v.buffer() == m.buffer());
  BOOST_TEST(v.dims() == tx::make_dim(4, 3));
  v = 5.0f;  // a number fills the view: m changes
  BOOST_TEST(on_host(m)(3, 4) == 5.0f);
  BOOST_TEST(on_host(m)(3, 5) != 5.0f);
  tx::Array<float, 2> rows = m.slice(1, 3);
  BOOST_TEST(rows.buffer() == m.buffer(), "the same rule as a.slice()");
}

BOOST_AUTO_TEST_SUITE_END()
