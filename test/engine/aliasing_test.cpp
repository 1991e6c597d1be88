// Aliasing: a destination read element-wise by its own operands runs in place; one read through
// another index mapping (transpose, shifted slice, broadcast of its own row) goes through a
// temporary, so the result is as if every operand were read before anything was written.
// tx::noalias skips the check where the caller knows better than its conservative interval test.
#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>

#include "support/reference.h"

namespace tx = tensorx;
using tx::testing::check_close;
using tx::testing::on_host;
using tx::testing::random_array;
using tx::testing::reference;

BOOST_AUTO_TEST_SUITE(aliasing)

BOOST_AUTO_TEST_CASE(element_wise_self_reference_runs_in_place_in_one_pass) {
  auto rng = tx::testing::make_rng(21);
  auto a = random_array<float>(tx::make_dim(40, 30), rng);
  const auto old = on_host(a);
  const auto before = tx::stats::passes();
  a = a * 2.0f + 1.0f;
  BOOST_TEST(tx::stats::passes() - before == 1u);
  check_close(a, reference(a.dims(), [&](const auto& i) { return old[i] * 2.0 + 1.0; }));
}

BOOST_AUTO_TEST_CASE(reading_the_destination_transposed_goes_through_a_temporary) {
  auto rng = tx::testing::make_rng(22);
  for (tx::index_t n : {1, 2, 17, 64}) {
    auto a = random_array<double>(tx::make_dim(n, n), rng);
    const auto old = on_host(a);
    const auto before = tx::stats::passes();
    a = tx::transpose(a) + a;
    BOOST_TEST(tx::stats::passes() - before == (n == 1 ? 1u : 2u));
    check_close(a, reference(a.dims(), [&](const auto& i) { return old(i[1], i[0]) + old[i]; }));
  }
}

BOOST_AUTO_TEST_CASE(overlapping_shifted_slices_read_before_they_write) {
  auto rng = tx::testing::make_rng(23);
  auto a = random_array<float>(tx::make_dim(50, 3), rng);
  const auto old = on_host(a);
  a.slice(1, 50) = a.slice(0, 49) * 1.0f;
  check_close(a, reference(a.dims(), [&](const auto& i) {
                return i[0] == 0 ? old[i] : old(i[0] - 1, i[1]);
              }));
}

BOOST_AUTO_TEST_CASE(broadcasting_a_row_of_the_destination_uses_the_old_row) {
  auto rng = tx::testing::make_rng(24);
  auto m = random_array<float>(tx::make_dim(6, 8), rng);
  const auto old = on_host(m);
  m = m + m[0];
  check_close(m, reference(m.dims(), [&](const auto& i) { return old[i] + old(0, i[1]); }));
}

BOOST_AUTO_TEST_CASE(disjoint_views_of_one_buffer_need_no_temporary) {
  auto rng = tx::testing::make_rng(25);
  auto a = random_array<float>(tx::make_dim(8, 4), rng);
  const auto old = on_host(a);
  const auto before = tx::stats::passes();
  a.slice(0, 4) = a.slice(4, 8) - 1.0f;
  BOOST_TEST(tx::stats::passes() - before == 1u);
  check_close(a, reference(a.dims(), [&](const auto& i) {
                return i[0] < 4 ? old(i[0] + 4, i[1]) - 1.0 : old[i];
              }));
}

BOOST_AUTO_TEST_CASE(compound_assignment_with_a_permuted_self) {
  auto rng = tx::testing::make_rng(26);
  auto a = random_array<double>(tx::make_dim(5, 5), rng);
  const auto old = on_host(a);
  a += tx::transpose(a);
  check_close(a, reference(a.dims(), [&](const auto& i) { return old[i] + old(i[1], i[0]); }));
}

BOOST_AUTO_TEST_CASE(disjoint_column_slices_take_one_pass_with_noalias_and_two_without) {
  auto rng = tx::testing::make_rng(27);
  auto m = random_array<float>(tx::make_dim(64, 8), rng);
  const auto old = on_host(m);
  // Columns 0-3 and 4-7 interleave in the buffer: the interval test sees an overlap.
  auto before = tx::stats::passes();
  tx::slice(m, 1, 0, 4) = tx::slice(m, 1, 4, 8) * 2.0f;
  BOOST_TEST(tx::stats::passes() - before == 2u);
  check_close(m, reference(m.dims(), [&](const auto& i) {
                return i[1] < 4 ? 2.0 * old(i[0], i[1] + 4) : old[i];
              }));
  before = tx::stats::passes();
  tx::noalias(tx::slice(m, 1, 0, 4)) = tx::slice(m, 1, 4, 8) * 3.0f;
  BOOST_TEST(tx::stats::passes() - before == 1u);
  before = tx::stats::passes();
  tx::noalias(tx::slice(m, 1, 4, 8)) -= tx::slice(m, 1, 0, 4);
  BOOST_TEST(tx::stats::passes() - before == 1u);
  check_close(m, reference(m.dims(), [&](const auto& i) {
                const double right = old(i[0], i[1] % 4 + 4);
                return i[1] < 4 ? 3.0 * right : right - 3.0 * right;
              }));
}

BOOST_AUTO_TEST_CASE(noalias_keeps_every_other_check_and_allocates_like_an_assignment) {
  auto rng = tx::testing::make_rng(28);
  const auto a = random_array<double>(tx::make_dim(5, 3), rng);
  const auto host = on_host(a);
  tx::Array<double, 2> c;
  tx::noalias(c) = a * 2.0;  // an unallocated named array is allocated
  BOOST_TEST(c.dims() == a.dims());
  tx::noalias(c) += a;
  check_close(c, reference(a.dims(), [&](const auto& i) { return 3.0 * host[i]; }));
  tx::Array<double, 2> wide(tx::make_dim(3, 5));
  BOOST_CHECK_THROW(tx::noalias(wide) = a, tx::ShapeError);
  // A transposed view node takes noalias too.
  tx::noalias(tx::transpose(wide)) = a + 1.0;
  check_close(wide, reference(wide.dims(), [&](const auto& i) { return host(i[1], i[0]) + 1.0; }));
}

BOOST_AUTO_TEST_SUITE_END()
