// tx::concat<axis>(a, b, ...): one pass that reads each output element from the operand covering
// it, along any axis, over arrays, strided views and expressions, inside larger expressions and
// under slices; aliasing of the destination, and the shape errors.
#include <array>

#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>

#include "layout/layout_cases.h"
#include "support/errors.h"
#include "support/reference.h"

namespace tx = tensorx;
using tx::index_t;
using tx::testing::check_close;
using tx::testing::on_host;
using tx::testing::passes_of;
using tx::testing::random_array;
using tx::testing::reference;

namespace {

/// The reference of concat<Axis>(parts...) from host copies of the parts.
template <int Axis, class T, int N, std::size_t K>
tx::Array<double, N> joined(const std::array<tx::Array<T, N>, K>& parts) {
  tx::Dim<N> dims = parts[0].dims();
  dims[Axis] = 0;
  for (const auto& part : parts) dims[Axis] += part.dims()[Axis];
  return reference(dims, [&](tx::Dim<N> i) {
    std::size_t k = 0;
    while (i[Axis] >= parts[k].dims()[Axis]) i[Axis] -= parts[k++].dims()[Axis];
    return static_cast<double>(parts[k][i]);
  });
}

/// Three operands (an array, a strided array, an expression) joined along Axis of rank N, with
/// random extents along the axis (0 included) and shared extents off it.
template <int N, int Axis, class T>
void check_concat(std::mt19937_64& rng, int trial) {
  const auto base = tx::testing::random_extents<N>(rng, 6);
  auto extent = [&](index_t e) {
    auto dims = base;
    dims[Axis] = e;
    return dims;
  };
  std::uniform_int_distribution<index_t> along(0, 9);
  const auto a = random_array<T>(extent(along(rng)), rng, -8, 8);
  const auto b =
      tx::testing::layout_variant(random_array<T>(extent(along(rng)), rng, -8, 8), trial + 1);
  const auto c = random_array<T>(extent(along(rng)), rng, -8, 8);
  BOOST_TEST_CONTEXT("axis " << Axis << " of " << a.dims() << ", " << b.dims() << ", "
                             << c.dims()) {
    tx::Array<T, N> out;
    const auto passes = passes_of([&] { out = tx::concat<Axis>(a, b, c + c); });
    BOOST_TEST(passes == tx::testing::one_pass_unless_empty(out.dims()));
    const tx::Array<T, N> doubled = c + c;
    check_close(out, joined<Axis>(
                         std::array<tx::Array<T, N>, 3>{on_host(a), on_host(b), on_host(doubled)}));
  }
}

template <int N, class T, int... Axes>
void check_every_axis(std::mt19937_64& rng, std::integer_sequence<int, Axes...>) {
  for (int trial = 0; trial < 4; ++trial) (check_concat<N, Axes, T>(rng, trial), ...);
}

template <int N, class T>
void check_every_axis(std::mt19937_64& rng) {
  check_every_axis<N, T>(rng, std::make_integer_sequence<int, N>{});
}

}  // namespace

BOOST_AUTO_TEST_SUITE(layout_concat)

BOOST_AUTO_TEST_CASE(every_axis_of_ranks_1_to_4_in_one_pass) {
  auto rng = tx::testing::make_rng(201);
  check_every_axis<1, float>(rng);
  check_every_axis<2, double>(rng);
  check_every_axis<3, float>(rng);
  check_every_axis<4, float>(rng);
}

BOOST_AUTO_TEST_CASE(every_element_type_joins_exactly) {
  auto rng = tx::testing::make_rng(202);
  check_every_axis<2, std::int32_t>(rng);
  check_every_axis<2, std::int64_t>(rng);
  check_every_axis<2, tx::float16>(rng);
}

BOOST_AUTO_TEST_CASE(rows_that_cross_from_one_operand_to_the_next) {
  // Along the last axis, and along the first of dense operands (read as one flat row), the
  // boundaries fall inside SIMD batches and 16-byte blocks.
  auto rng = tx::testing::make_rng(203);
  for (const index_t left : {1, 3, 5, 8, 13}) {
    const auto a = random_array<float>(tx::make_dim(3, left), rng);
    const auto b = random_array<float>(tx::make_dim(3, 21 - left), rng);
    const tx::Array<float, 2> across = tx::concat<1>(a, b);
    check_close(across, joined<1>(std::array<tx::Array<float, 2>, 2>{on_host(a), on_host(b)}));
    const auto top = random_array<float>(tx::make_dim(left, 7), rng);
    const auto bottom = random_array<float>(tx::make_dim(9, 7), rng);
    const tx::Array<float, 2> stacked = tx::concat<0>(top, bottom + 1.0f);
    const tx::Array<float, 2> shifted = bottom + 1.0f;
    check_close(stacked,
                joined<0>(std::array<tx::Array<float, 2>, 2>{on_host(top), on_host(shifted)}));
  }
}

BOOST_AUTO_TEST_CASE(views_whose_strides_match_a_dense_destination_still_read_by_rows) {
  // Both operands have the destination's strides, but their rows are joined: read as one flat
  // row they would not be.
  auto rng = tx::testing::make_rng(208);
  const auto big = random_array<float>(tx::make_dim(5, 11), rng);
  const auto hbig = on_host(big);
  tx::Array<float, 2> rotated = tx::concat<1>(tx::slice(big, 1, 4, 11), tx::slice(big, 1, 0, 4));
  check_close(rotated, reference(rotated.dims(),
                                 [&](const auto& i) { return hbig(i[0], (i[1] + 4) % 11); }));
}

BOOST_AUTO_TEST_CASE(a_concat_broadcasts_inside_a_larger_expression) {
  auto rng = tx::testing::make_rng(204);
  const auto m = random_array<float>(tx::make_dim(5, 4), rng);
  const auto top = random_array<float>(tx::make_dim(2, 1), rng);
  const auto bottom = random_array<float>(tx::make_dim(3, 1), rng);
  const auto hm = on_host(m), htop = on_host(top), hbottom = on_host(bottom);
  tx::Array<float, 2> c = m + tx::concat<0>(top, bottom);
  check_close(c, reference(c.dims(), [&](const auto& i) {
                return hm[i] + (i[0] < 2 ? htop(i[0], 0) : hbottom(i[0] - 2, 0));
              }));
  // A concat of extent 1 along its axis, stretched along that axis.
  const auto row = random_array<float>(tx::make_dim(1, 4), rng);
  const auto none = tx::testing::zeros_on_test_place<float>(tx::make_dim(0, 4));
  const auto hrow = on_host(row);
  c = m * tx::concat<0>(none, row, none);
  check_close(c, reference(c.dims(), [&](const auto& i) { return hm[i] * hrow(0, i[1]); }));
  // A rank-1 concat right-aligned in a rank-2 expression.
  const auto left = random_array<float>(tx::make_dim(1), rng);
  const auto right = random_array<float>(tx::make_dim(3), rng);
  const auto hleft = on_host(left), hright = on_host(right);
  c = m - tx::concat<0>(left, right);
  check_close(c, reference(c.dims(), [&](const auto& i) {
                return hm[i] - (i[1] == 0 ? hleft(0) : hright(i[1] - 1));
              }));
}

BOOST_AUTO_TEST_CASE(slices_of_a_concat_cut_its_operands) {
  auto rng = tx::testing::make_rng(205);
  const auto a = random_array<double>(tx::make_dim(4, 3), rng);
  const auto b = random_array<double>(tx::make_dim(4, 5), rng);
  const auto ha = on_host(a), hb = on_host(b);
  const auto whole = joined<1>(std::array<tx::Array<double, 2>, 2>{ha, hb});
  for (const auto& range : {std::pair<index_t, index_t>{1, 6}, {0, 3}, {3, 8}, {4, 4}}) {
    const index_t begin = range.first, end = range.second;
    tx::Array<double, 2> c;
    const auto passes = passes_of([&] { c = tx::slice(tx::concat<1>(a, b), 1, begin, end); });
    BOOST_TEST(passes == tx::testing::one_pass_unless_empty(c.dims()));
    check_close(c, reference(c.dims(), [&](const auto& i) { return whole(i[0], i[1] + begin); }));
  }
  tx::Array<double, 2> rows = tx::slice(tx::concat<1>(a, b * 2.0), 0, 1, 3);
  check_close(rows, reference(rows.dims(), [&](const auto& i) {
                return i[1] < 3 ? ha(i[0] + 1, i[1]) : 2.0 * hb(i[0] + 1, i[1] - 3);
              }));
}

BOOST_AUTO_TEST_CASE(operands_that_read_the_destination_elsewhere_go_through_a_temporary) {
  auto rng = tx::testing::make_rng(206);
  auto a = random_array<float>(tx::make_dim(6, 3), rng);
  const auto old = on_host(a);
  // Swap the halves: the second operand reads rows the first writes.
  a = tx::concat<0>(tx::slice(a, 0, 3, 6), tx::slice(a, 0, 0, 3));
  check_close(a, reference(a.dims(), [&](const auto& i) { return old((i[0] + 3) % 6, i[1]); }));
  // Shift down: the later operand is read shifted by the first's extent, at the same addresses.
  const auto top = random_array<float>(tx::make_dim(2, 3), rng);
  const auto htop = on_host(top);
  const auto before_shift = on_host(a);
  a = tx::concat<0>(top, tx::slice(a, 0, 0, 4));
  check_close(a, reference(a.dims(), [&](const auto& i) {
                return i[0] < 2 ? htop[i] : before_shift(i[0] - 2, i[1]);
              }));
}

BOOST_AUTO_TEST_CASE(one_operand_and_empty_operands) {
  auto rng = tx::testing::make_rng(207);
  const auto a = random_array<float>(tx::make_dim(3, 4), rng);
  const auto empty = tx::testing::zeros_on_test_place<float>(tx::make_dim(3, 0));
  tx::Array<float, 2> c = tx::concat<1>(a);
  check_close(c, reference(c.dims(), [&, ha = on_host(a)](const auto& i) { return ha[i]; }));
  c = tx::concat<1>(empty, a, empty);
  check_close(c, reference(c.dims(), [&, ha = on_host(a)](const auto& i) { return ha[i]; }));
  tx::Array<float, 2> nothing;
  BOOST_TEST(passes_of([&] { nothing = tx::concat<1>(empty, empty); }) == 0u);
  BOOST_TEST(nothing.dims() == tx::make_dim(3, 0));
}

BOOST_AUTO_TEST_CASE(extents_that_differ_off_the_axis_are_a_shape_error_naming_the_shapes) {
  const tx::Array<float, 2> a(tx::make_dim(2, 3), tx::testing::test_place()),
      b(tx::make_dim(3, 4), tx::testing::test_place());
  BOOST_CHECK_EXCEPTION(
      tx::concat<1>(a, b).dims(), tx::ShapeError,
      tx::testing::message_is("cannot concatenate shapes (2, 3) and (3, 4) along axis 1: their "
                              "extents differ off that axis"));
  tx::Array<float, 2> c;
  BOOST_CHECK_EXCEPTION(c = tx::concat<0>(a, a, b.slice(0, 2)), tx::ShapeError,
                        tx::testing::message_has({"(2, 3) and (2, 3) and (2, 4)", "axis 0"}));
  BOOST_TEST(!c.allocated());
}

BOOST_AUTO_TEST_SUITE_END()
