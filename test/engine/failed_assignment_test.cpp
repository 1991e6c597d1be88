// A failed assignment leaves its destination as it was (hardening issue, point 5): an
// unallocated destination stays unallocated, an allocated one keeps its elements, whether the
// failure is a shape or place check, an out-of-range gather index found while preparing, or a
// gather inside a reduction.
#include <boost/test/unit_test.hpp>

#include <cstdint>

#include <tensorx/tensorx.h>

#include "reduce/reduce_reference.h"
#include "support/test_place.h"

namespace tx = tensorx;

namespace {

tx::Array<std::int64_t, 1> ids_with(std::int64_t bad) {
  tx::Array<std::int64_t, 1> ids(tx::make_dim(4));
  ids(0) = 0, ids(1) = 2, ids(2) = bad, ids(3) = 1;
  return tx::testing::on_test_place(ids);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(failed_assignment)

BOOST_AUTO_TEST_CASE(an_out_of_range_gather_leaves_the_destination_unallocated) {
  auto rng = tx::testing::make_rng(1551);
  const auto table = tx::testing::random_array<float>(tx::make_dim(5, 3), rng);
  tx::Array<float, 2> u;
  BOOST_CHECK_THROW(u = tx::take(table, ids_with(9)), tx::IndexError);
  BOOST_TEST(!u.allocated());
  tx::Array<float, 0> s = tx::testing::scalar_on_test_place<float>();
  s = 42.0f;
  BOOST_CHECK_THROW(s = tx::sum(tx::take(table, ids_with(-1))), tx::IndexError);
  BOOST_TEST(s.item() == 42.0f);
  tx::Array<float, 1> rows;
  BOOST_CHECK_THROW(rows = tx::sum<1>(tx::take(table, ids_with(5))), tx::IndexError);
  BOOST_TEST(!rows.allocated());
  u = tx::take(table, ids_with(4));
  BOOST_TEST(u.dims() == tx::make_dim(4, 3));
}

BOOST_AUTO_TEST_CASE(an_allocated_destination_keeps_its_elements) {
  auto rng = tx::testing::make_rng(1552);
  const auto table = tx::testing::random_array<double>(tx::make_dim(5, 3), rng);
  tx::Array<double, 2> c(tx::make_dim(4, 3), tx::testing::test_place());
  c = 7.0;
  BOOST_CHECK_THROW(c = tx::take(table, ids_with(5)) * 2.0, tx::IndexError);
  BOOST_CHECK_THROW(c += tx::take(table, ids_with(-3)), tx::IndexError);
  const tx::Array<double, 2> wrong(tx::make_dim(3, 4), tx::testing::test_place());
  BOOST_CHECK_THROW(c = wrong * 2.0, tx::ShapeError);
  const auto host = tx::testing::on_host(c);
  for (tx::index_t i = 0; i < 4; ++i) {
    for (tx::index_t j = 0; j < 3; ++j) BOOST_TEST(host(i, j) == 7.0);
  }
}

BOOST_AUTO_TEST_SUITE_END()
