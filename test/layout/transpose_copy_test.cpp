// c = tx::transpose(a) and c = tx::permute(a, axes) for an array a: copies that move the source's
// unit-stride axis run as batched tiled transposes (CPU cache blocks, CUDA shared-memory tiles),
// the others element-wise; either way one pass, for every permutation, odd extents, strided
// sources and destinations, every saver, and a source that overlaps the destination.
#include <algorithm>
#include <array>
#include <cstdint>

#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>

#include "layout/layout_cases.h"
#include "support/reference.h"

namespace tx = tensorx;
using tx::index_t;
using tx::testing::check_close;
using tx::testing::on_host;
using tx::testing::passes_of;
using tx::testing::random_array;
using tx::testing::reference;

namespace {

/// The view of `a` with its axes permuted (output axis i is input axis axes[i]).
template <class T, int N>
tx::Array<T, N> permuted(const tx::Array<T, N>& a, const tx::Dim<N>& axes) {
  return tx::permute(a, axes).array();
}

/// c = permute(a, axes) in one pass, checked against reading a through the permutation.
template <class T, int N>
void check_permuted_copy(const tx::Array<T, N>& a, const tx::Dim<N>& axes,
                         tx::Array<T, N> c = tx::Array<T, N>()) {
  BOOST_TEST_CONTEXT("shape " << a.dims() << ", axes " << axes) {
    const auto passes = passes_of([&] { c = tx::permute(a, axes); });
    BOOST_TEST(passes == tx::testing::one_pass_unless_empty(c.dims()));
    const auto ha = on_host(a);
    check_close(c, reference(c.dims(), [&](const auto& i) {
                  tx::Dim<N> source;
                  for (int d = 0; d < N; ++d) source[static_cast<int>(axes[d])] = i[d];
                  return static_cast<double>(ha[source]);
                }));
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(layout_transpose_copy)

BOOST_AUTO_TEST_CASE(the_tiled_path_is_chosen_when_the_unit_stride_axis_moves) {
  // The choice reads only strides and extents, so host arrays stand in for GPU arrays here.
  const tx::Array<float, 2> a(tx::make_dim(6, 4));
  const tx::Array<float, 2> c(tx::make_dim(4, 6));
  const auto plane = tx::detail::plane_transpose(c, tx::transpose(a).array());
  BOOST_TEST_REQUIRE(plane.has_value());
  BOOST_TEST(plane->rows == 4);
  BOOST_TEST(plane->cols == 6);
  BOOST_TEST(plane->src_col_stride == 4);
  BOOST_TEST(plane->dst_row_stride == 6);

  const tx::Array<double, 3> batched(tx::make_dim(5, 6, 4));
  const tx::Array<double, 3> out(tx::make_dim(5, 4, 6));
  const auto batch = tx::detail::plane_transpose(out, permuted(batched, tx::make_dim(0, 2, 1)));
  BOOST_TEST_REQUIRE(batch.has_value());
  BOOST_TEST(batch->batch == tx::make_dim(5));
  BOOST_TEST(batch->src_batch_strides == tx::make_dim(24));
  BOOST_TEST(batch->dst_batch_strides == tx::make_dim(24));

  // The innermost axis stays: the element-wise pass already reads and writes unit-stride.
  const tx::Array<double, 3> kept(tx::make_dim(6, 5, 4));
  BOOST_TEST(!tx::detail::plane_transpose(kept, permuted(batched, tx::make_dim(1, 0, 2))));
  // A destination that is not unit-stride along its last axis, and a last extent of 1.
  BOOST_TEST(!tx::detail::plane_transpose(tx::transpose(a).array(), tx::transpose(c).array()));
  const tx::Array<float, 2> column(tx::make_dim(6, 1)), row(tx::make_dim(1, 6));
  BOOST_TEST(tx::detail::plane_transpose(row, tx::transpose(column).array()).has_value() == false);
  BOOST_TEST(!tx::detail::plane_transpose(column, tx::transpose(row).array()));
}

BOOST_AUTO_TEST_CASE(matrices_of_odd_extents_and_every_element_type) {
  auto rng = tx::testing::make_rng(501);
  const auto axes = tx::make_dim(1, 0);
  for (const auto& [rows, cols] : std::array<std::pair<index_t, index_t>, 7>{
           {{1, 1}, {1, 7}, {7, 1}, {33, 65}, {64, 64}, {100, 3}, {300, 517}}}) {
    check_permuted_copy(random_array<float>(tx::make_dim(rows, cols), rng), axes);
    check_permuted_copy(random_array<double>(tx::make_dim(rows, cols), rng), axes);
    check_permuted_copy(random_array<tx::float16>(tx::make_dim(rows, cols), rng), axes);
    check_permuted_copy(random_array<std::int64_t>(tx::make_dim(rows, cols), rng, -1e9, 1e9), axes);
  }
}

BOOST_AUTO_TEST_CASE(every_permutation_of_a_rank_4_array) {
  auto rng = tx::testing::make_rng(502);
  const auto a = random_array<float>(tx::make_dim(3, 5, 4, 7), rng);
  const auto strided = tx::testing::with_gaps(a);
  std::array<int, 4> order = {0, 1, 2, 3};
  do {
    const auto axes = tx::make_dim(order[0], order[1], order[2], order[3]);
    check_permuted_copy(a, axes);
    check_permuted_copy(strided, axes);
    // A destination with gaps: still unit-stride along its last axis.
    const auto target = tx::testing::with_gaps(
        tx::testing::zeros_on_test_place<float>(tx::permute(a, axes).dims()));
    check_permuted_copy(a, axes, target);
  } while (std::next_permutation(order.begin(), order.end()));
}

BOOST_AUTO_TEST_CASE(batched_transposes_of_the_last_two_axes) {
  auto rng = tx::testing::make_rng(503);
  check_permuted_copy(random_array<double>(tx::make_dim(4, 33, 65), rng), tx::make_dim(0, 2, 1));
  check_permuted_copy(random_array<float>(tx::make_dim(2, 3, 40, 9), rng),
                      tx::make_dim(1, 0, 3, 2));
  check_permuted_copy(random_array<float>(tx::make_dim(0, 3, 4), rng), tx::make_dim(0, 2, 1));
}

BOOST_AUTO_TEST_CASE(accumulating_savers_add_the_transposed_source) {
  auto rng = tx::testing::make_rng(504);
  const auto a = random_array<float>(tx::make_dim(37, 29), rng);
  auto c = random_array<float>(tx::make_dim(29, 37), rng);
  const auto ha = on_host(a), hc = on_host(c);
  BOOST_TEST(passes_of([&] { c += tx::transpose(a); }) == 1u);
  check_close(c, reference(c.dims(), [&](const auto& i) {
                return static_cast<double>(hc[i]) + ha(i[1], i[0]);
              }));
  c -= tx::transpose(a);
  tx::assign(c, tx::transpose(a), tx::OpReq::kAddTo);
  check_close(c,
              reference(c.dims(),
                        [&](const auto& i) { return static_cast<double>(hc[i]) + ha(i[1], i[0]); }),
              1e-5);
}

BOOST_AUTO_TEST_CASE(a_source_that_overlaps_the_destination_goes_through_a_temporary) {
  auto rng = tx::testing::make_rng(505);
  auto a = random_array<double>(tx::make_dim(45, 45), rng);
  const auto old = on_host(a);
  BOOST_TEST(passes_of([&] { a = tx::transpose(a); }) == 2u);
  check_close(a, reference(a.dims(), [&](const auto& i) { return old(i[1], i[0]); }));
  a += tx::transpose(a);
  check_close(
      a, reference(a.dims(), [&](const auto& i) { return old(i[1], i[0]) + old(i[0], i[1]); }));
}

BOOST_AUTO_TEST_SUITE_END()
