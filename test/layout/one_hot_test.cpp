// tx::one_hot<T>(indices, depth): one pass writing 1 where the class matches the index, for
// indices of rank 0 to 3 and index expressions, rows of zeros for indices outside [0, depth),
// slices along either kind of axis, broadcasting, and the negative-depth error.
#include <cstdint>

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

/// Random indices in [-2, depth + 2): some of them name no class.
template <class I, int K>
tx::Array<I, K> random_labels(const tx::Dim<K>& dims, index_t depth, std::mt19937_64& rng) {
  tx::Array<I, K> host(dims);
  std::uniform_int_distribution<index_t> label(-2, depth + 1);
  for (I& index : tx::make_view(host)) index = static_cast<I>(label(rng));
  return tx::testing::on_test_place(host);
}

/// The reference one-hot of host indices, classes first .. first + depth - 1.
template <class I, int K>
tx::Array<double, K + 1> encoded(const tx::Array<I, K>& indices, index_t depth, index_t first = 0) {
  const auto dims = tx::detail::join(indices.dims(), tx::make_dim(depth));
  return reference(dims, [&](const auto& i) {
    return static_cast<index_t>(indices[tx::detail::leading<K>(i)]) == first + i[K] ? 1.0 : 0.0;
  });
}

template <class T, int K, class I>
void check_one_hot(std::mt19937_64& rng) {
  for (int trial = 0; trial < 4; ++trial) {
    const index_t depth = std::uniform_int_distribution<index_t>(0, 11)(rng);
    const auto labels = tx::testing::layout_variant(
        random_labels<I>(tx::testing::random_extents<K>(rng, 6), depth, rng), trial);
    BOOST_TEST_CONTEXT("indices " << labels.dims() << ", depth " << depth) {
      tx::Array<T, K + 1> c;
      const auto passes = passes_of([&] { c = tx::one_hot<T>(labels, depth); });
      BOOST_TEST(passes == tx::testing::one_pass_unless_empty(c.dims()));
      check_close(c, encoded(on_host(labels), depth));
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(layout_one_hot)

BOOST_AUTO_TEST_CASE(indices_of_rank_0_to_3_in_one_pass) {
  auto rng = tx::testing::make_rng(401);
  check_one_hot<float, 0, std::int32_t>(rng);
  check_one_hot<float, 1, std::int64_t>(rng);
  check_one_hot<double, 2, std::int32_t>(rng);
  check_one_hot<float, 3, std::int64_t>(rng);
}

BOOST_AUTO_TEST_CASE(any_element_type_and_index_expressions) {
  auto rng = tx::testing::make_rng(402);
  check_one_hot<tx::float16, 1, std::int32_t>(rng);
  check_one_hot<std::int32_t, 2, std::int64_t>(rng);
  const auto labels = random_labels<std::int64_t>(tx::make_dim(5, 3), 6, rng);
  tx::Array<float, 3> c;
  BOOST_TEST(passes_of([&] { c = tx::one_hot(labels * 2 - 1, 9); }) == 1u);
  const tx::Array<std::int64_t, 2> shifted = labels * 2 - 1;
  check_close(c, encoded(on_host(shifted), 9));
}

BOOST_AUTO_TEST_CASE(depths_of_0_and_1_and_long_rows) {
  auto rng = tx::testing::make_rng(403);
  const auto labels = random_labels<std::int32_t>(tx::make_dim(6), 1, rng);
  tx::Array<float, 2> c;
  BOOST_TEST(passes_of([&] { c = tx::one_hot(labels, 0); }) == 0u);
  BOOST_TEST(c.dims() == tx::make_dim(6, 0));
  const tx::Array<float, 2> single = tx::one_hot(labels, 1);
  check_close(single, encoded(on_host(labels), 1));
  const auto many = random_labels<std::int32_t>(tx::make_dim(3), 1000, rng);
  const tx::Array<float, 2> wide = tx::one_hot(many, 1000);
  check_close(wide, encoded(on_host(many), 1000));
}

BOOST_AUTO_TEST_CASE(slices_cut_the_indices_or_narrow_the_classes) {
  auto rng = tx::testing::make_rng(404);
  const auto labels = random_labels<std::int64_t>(tx::make_dim(7, 2), 8, rng);
  const auto hl = on_host(labels);
  tx::Array<float, 3> c = tx::slice(tx::one_hot(labels, 8), 2, 3, 7);
  check_close(c, encoded(hl, 4, 3));
  const tx::Array<float, 3> d = tx::slice(tx::slice(tx::one_hot(labels, 8), 2, 2, 3), 0, 1, 5);
  check_close(d, encoded(on_host(tx::slice(labels, 0, 1, 5)), 1, 2));
}

BOOST_AUTO_TEST_CASE(a_one_hot_broadcasts_inside_a_larger_expression) {
  auto rng = tx::testing::make_rng(405);
  const auto logits = random_array<float>(tx::make_dim(2, 4, 5), rng);
  const auto labels = random_labels<std::int32_t>(tx::make_dim(4), 5, rng);
  const auto hx = on_host(logits);
  const auto hl = on_host(labels);
  tx::Array<float, 3> c = logits * tx::one_hot(labels, 5);
  check_close(c, reference(c.dims(), [&](const auto& i) {
                return hl(i[1]) == i[2] ? static_cast<double>(hx[i]) : 0.0;
              }));
  // Depth 1, stretched along the class axis: every column reads class 0.
  const auto single = random_labels<std::int32_t>(tx::make_dim(4), 1, rng);
  const auto hs = on_host(single);
  c = logits + tx::one_hot(single, 1);
  check_close(c, reference(c.dims(), [&](const auto& i) {
                return static_cast<double>(hx[i]) + (hs(i[1]) == 0 ? 1.0 : 0.0);
              }));
}

BOOST_AUTO_TEST_CASE(a_negative_depth_is_a_shape_error) {
  const tx::Array<std::int32_t, 1> labels(tx::make_dim(3), tx::testing::test_place());
  BOOST_CHECK_EXCEPTION(tx::one_hot(labels, -2), tx::ShapeError,
                        tx::testing::message_is("tx::one_hot: negative depth -2"));
}

BOOST_AUTO_TEST_SUITE_END()
