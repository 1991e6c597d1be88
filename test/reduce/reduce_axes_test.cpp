// Reductions over every axis set of ranks 1 to 4 on random shapes, with and without keepdims, and
// every reducer along rows, columns and middle axes of arrays, expressions, strided views and
// broadcast operands, on shapes small and large enough for the threaded, chunked and split paths;
// all against plain loops in double.
#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>

#include "reduce/reduce_reference.h"

namespace tx = tensorx;
using tx::testing::check_reduction_of;
using tx::testing::random_array;
using tx::testing::Reduction;

namespace {

/// tx::sum<Axes...> of a random rank-N array, the axes dropped and kept.
template <int N, int... Axes>
void check_sum_over(std::mt19937_64& rng) {
  constexpr unsigned mask = tx::detail::axis_mask<N, Axes...>();
  const auto a = random_array<float>(tx::testing::random_dim<N>(rng, 1, 7), rng);
  const auto values = tx::testing::to_double(a);
  check_reduction_of(tx::sum<Axes...>(a), values, mask, Reduction::kSum);
  check_reduction_of(tx::sum<Axes...>(a, tx::keepdims), values, mask, Reduction::kSum);
}

/// Every reducer along axis Axis of `a` (whose values are `values`), and the value reducers over
/// every axis.
template <int Axis, class E, int N>
void check_every_reducer(const E& a, const tx::Array<double, N>& values) {
  constexpr unsigned mask = 1u << Axis;
  check_reduction_of(tx::sum<Axis>(a), values, mask, Reduction::kSum);
  check_reduction_of(tx::mean<Axis>(a), values, mask, Reduction::kMean);
  check_reduction_of(tx::max<Axis>(a, tx::keepdims), values, mask, Reduction::kMax);
  check_reduction_of(tx::min<Axis>(a), values, mask, Reduction::kMin);
  check_reduction_of(tx::prod<Axis>(a), values, mask, Reduction::kProd);
  check_reduction_of(tx::argmax<Axis>(a), values, mask, Reduction::kArgMax);
  check_reduction_of(tx::argmin<Axis>(a, tx::keepdims), values, mask, Reduction::kArgMin);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(reduce_axes)

BOOST_AUTO_TEST_CASE(every_axis_set_of_ranks_1_to_4_with_and_without_keepdims) {
  auto rng = tx::testing::make_rng(41);
  for (int trial = 0; trial < 3; ++trial) {
    check_sum_over<1, 0>(rng);
    check_sum_over<1, -1>(rng);
    check_sum_over<1>(rng);
    check_sum_over<2, 0>(rng);
    check_sum_over<2, 1>(rng);
    check_sum_over<2, 0, 1>(rng);
    check_sum_over<2>(rng);
    check_sum_over<3, 0>(rng);
    check_sum_over<3, 1>(rng);
    check_sum_over<3, 2>(rng);
    check_sum_over<3, 0, 1>(rng);
    check_sum_over<3, 0, 2>(rng);
    check_sum_over<3, 2, 1>(rng);
    check_sum_over<3>(rng);
    check_sum_over<4, 0>(rng);
    check_sum_over<4, 1>(rng);
    check_sum_over<4, 2>(rng);
    check_sum_over<4, -1>(rng);
    check_sum_over<4, 0, 2>(rng);
    check_sum_over<4, 1, 3>(rng);
    check_sum_over<4, 2, 3>(rng);
    check_sum_over<4, 0, 1, 3>(rng);
    check_sum_over<4>(rng);
  }
}

BOOST_AUTO_TEST_CASE(every_reducer_along_rows_columns_and_middle_axes) {
  auto rng = tx::testing::make_rng(42);
  for (int trial = 0; trial < 3; ++trial) {
    // Values near 1 keep products of a few dozen elements in range.
    const auto a = random_array<float>(tx::testing::random_dim<3>(rng, 1, 9), rng, 0.5, 1.5);
    const auto values = tx::testing::to_double(a);
    check_every_reducer<0>(a, values);
    check_every_reducer<1>(a, values);
    check_every_reducer<2>(a, values);
    check_reduction_of(tx::mean(a), values, 7u, Reduction::kMean);
    check_reduction_of(tx::max(a), values, 7u, Reduction::kMax);
    check_reduction_of(tx::min<0, 2>(a, tx::keepdims), values, 5u, Reduction::kMin);
    check_reduction_of(tx::prod<1, 2>(a), values, 6u, Reduction::kProd);
  }
}

BOOST_AUTO_TEST_CASE(expression_operands_are_reduced_in_one_pass) {
  auto rng = tx::testing::make_rng(43);
  const auto dims = tx::make_dim(37, 53);
  const auto a = random_array<float>(dims, rng), b = random_array<float>(dims, rng);
  const auto ha = tx::testing::to_double(a), hb = tx::testing::to_double(b);
  const auto product = tx::testing::reference(dims, [&](const auto& i) {
    // The operand as tensorx computes it: the float product, then widened.
    return static_cast<double>(static_cast<float>(ha[i]) * static_cast<float>(hb[i]));
  });
  auto s = tx::testing::scalar_on_test_place<float>();
  const auto before = tx::stats::passes();
  s = tx::sum(a * b);
  BOOST_TEST(tx::stats::passes() - before == 1u);
  tx::Array<double, 2> scale;
  tx::testing::check_reduction(
      s, tx::testing::reference_reduce(product, 3u, Reduction::kSum, scale), scale, 3u);
  check_reduction_of(tx::max<0>(a * b), product, 1u, Reduction::kMax);
  check_reduction_of(tx::argmin<1>(a * b), product, 2u, Reduction::kArgMin);
}

BOOST_AUTO_TEST_CASE(strided_and_broadcast_operands) {
  auto rng = tx::testing::make_rng(44);
  const auto m = random_array<double>(tx::make_dim(9, 14), rng);
  const auto hm = tx::testing::to_double(m);
  // A transposed view: (14, 9) with strides (1, 14).
  const auto transposed =
      tx::testing::reference(tx::make_dim(14, 9), [&](const auto& i) { return hm(i[1], i[0]); });
  check_reduction_of(tx::sum<0>(tx::transpose(m)), transposed, 1u, Reduction::kSum);
  check_reduction_of(tx::max<1>(tx::transpose(m)), transposed, 2u, Reduction::kMax);
  check_reduction_of(tx::argmax<0>(tx::transpose(m)), transposed, 1u, Reduction::kArgMax);
  check_reduction_of(tx::sum(tx::transpose(m)), transposed, 3u, Reduction::kSum);

  // Rows 2 .. 7 of m: a view with an offset.
  const auto rows = tx::testing::reference(tx::make_dim(5, 14),
                                           [&](const auto& i) { return hm(i[0] + 2, i[1]); });
  check_reduction_of(tx::mean<1>(m.slice(2, 7)), rows, 2u, Reduction::kMean);
  check_reduction_of(tx::min<0>(m.slice(2, 7)), rows, 1u, Reduction::kMin);

  // A row broadcast over the rows of m, and a column broadcast by NumPy's rules.
  const auto bias = random_array<double>(tx::make_dim(14), rng);
  const auto column = random_array<double>(tx::make_dim(9, 1), rng);
  const auto hb = tx::testing::to_double(bias);
  const auto hc = tx::testing::to_double(column);
  const auto shifted = tx::testing::reference(
      tx::make_dim(9, 14), [&](const auto& i) { return hm(i[0], i[1]) + hb(i[1]) - hc(i[0], 0); });
  check_reduction_of(tx::sum<0>(m + bias - column), shifted, 1u, Reduction::kSum);
  check_reduction_of(tx::max<1>(m + bias - column), shifted, 2u, Reduction::kMax);
  const auto stretched =
      tx::testing::reference(tx::make_dim(9, 14), [&](const auto& i) { return hb(i[1]); });
  check_reduction_of(tx::sum<0>(tx::broadcast_to(bias, tx::make_dim(9, 14))), stretched, 1u,
                     Reduction::kSum);
  check_reduction_of(tx::sum<1>(tx::broadcast_to(bias, tx::make_dim(9, 14))), stretched, 2u,
                     Reduction::kSum);
}

BOOST_AUTO_TEST_CASE(large_shapes_take_the_threaded_chunked_and_split_paths) {
  auto rng = tx::testing::make_rng(45);
  // Few long rows, many short ones, few long columns, many short ones, and one long vector.
  for (const auto dims : {tx::make_dim(3, 70001), tx::make_dim(70001, 3), tx::make_dim(523, 611),
                          tx::make_dim(4099, 40), tx::make_dim(40, 4099)}) {
    const auto a = random_array<float>(dims, rng);
    const auto values = tx::testing::to_double(a);
    check_reduction_of(tx::sum<1>(a), values, 2u, Reduction::kSum);
    check_reduction_of(tx::sum<0>(a), values, 1u, Reduction::kSum);
    check_reduction_of(tx::max<0>(a), values, 1u, Reduction::kMax);
    check_reduction_of(tx::argmax<1>(a), values, 2u, Reduction::kArgMax);
    check_reduction_of(tx::argmin<0>(a), values, 1u, Reduction::kArgMin);
    check_reduction_of(tx::mean(a), values, 3u, Reduction::kMean);
  }
  const auto v = random_array<double>(tx::make_dim(300007), rng);
  const auto values = tx::testing::to_double(v);
  check_reduction_of(tx::sum(v), values, 1u, Reduction::kSum);
  check_reduction_of(tx::argmax<0>(v), values, 1u, Reduction::kArgMax);
  check_reduction_of(tx::min(v), values, 1u, Reduction::kMin);
}

BOOST_AUTO_TEST_SUITE_END()
