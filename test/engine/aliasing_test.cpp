// Aliasing: a destination read element-wise by its own operands runs in place; one read through
// another index mapping (transpose, shifted slice, broadcast of its own row) goes through a
// temporary, so the result is as if every operand were read before anything was written.
// tx::noalias skips the check where the caller knows better than its conservative interval test.
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <vector>

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

// Views of one buffer with different element types: the check compares the bytes each view
// spans, not element offsets, which count different units.
BOOST_AUTO_TEST_CASE(a_view_of_another_element_size_whose_bytes_overlap_goes_through_a_temporary) {
  auto rng = tx::testing::make_rng(27);
  // Eight doubles and the same 64 bytes as sixteen floats. Doubles 0..3 (bytes 0..31), written in
  // reverse, take floats 4..7 (bytes 16..31): no element offsets in common, but writing double 3
  // first would overwrite floats 6 and 7 before they are read.
  const auto base = tx::Array<double, 1>(tx::make_dim(8), tx::testing::test_place());
  const tx::Array<float, 1> floats(base.buffer(), tx::make_dim(16), tx::make_dim(1), 0);
  tx::copy(floats, random_array<float>(tx::make_dim(16), rng));
  const auto old = on_host(floats);
  tx::Array<double, 1> reversed(base.buffer(), tx::make_dim(4), tx::make_dim(-1), 3);
  const auto before = tx::stats::passes();
  reversed = tx::cast<double>(floats.slice(4, 8));
  BOOST_TEST(tx::stats::passes() - before == 2u);
  check_close(reversed, reference(reversed.dims(), [&](const auto& i) { return old(i[0] + 4); }));
}

BOOST_AUTO_TEST_CASE(a_view_of_another_element_type_of_the_same_size_read_in_place_takes_one_pass) {
  tx::Array<std::int32_t, 2> host(tx::make_dim(9, 13));
  for (std::int32_t& x : tx::make_view(host)) x = static_cast<std::int32_t>(&x - host.data()) - 50;
  const auto integers = tx::testing::on_test_place(host);
  tx::Array<float, 2> floats(integers.buffer(), integers.dims(), integers.strides(), 0);
  const auto before = tx::stats::passes();
  floats = tx::cast<float>(integers) * 0.5f;
  BOOST_TEST(tx::stats::passes() - before == 1u);
  check_close(floats, reference(floats.dims(), [&](const auto& i) { return host[i] * 0.5; }));
}

BOOST_AUTO_TEST_CASE(the_ninth_operand_reading_the_destination_transposed_is_seen) {
  // The checks keep the first operands inline and the rest in a vector: the conflict is in the
  // latter.
  auto rng = tx::testing::make_rng(28);
  std::vector<tx::Array<double, 2>> x;
  for (int i = 0; i < 8; ++i) x.push_back(random_array<double>(tx::make_dim(12, 12), rng));
  auto a = random_array<double>(tx::make_dim(12, 12), rng);
  std::vector<tx::Array<double, 2>> old;
  for (const auto& operand : x) old.push_back(on_host(operand));
  const auto old_a = on_host(a);
  a = x[0] + x[1] + x[2] + x[3] + x[4] + x[5] + x[6] + x[7] - tx::transpose(a);
  check_close(a, reference(a.dims(), [&](const auto& i) {
                double sum = 0;
                for (const auto& operand : old) sum += operand[i];
                return sum - old_a(i[1], i[0]);
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
  tx::Array<double, 2> wide(tx::make_dim(3, 5), tx::testing::test_place());
  BOOST_CHECK_THROW(tx::noalias(wide) = a, tx::ShapeError);
  // A transposed view node takes noalias too.
  tx::noalias(tx::transpose(wide)) = a + 1.0;
  check_close(wide, reference(wide.dims(), [&](const auto& i) { return host(i[1], i[0]) + 1.0; }));
}

BOOST_AUTO_TEST_SUITE_END()
