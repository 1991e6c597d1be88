// What reductions compute at the edges: NaN through max, min, argmax and sums; empty reductions
// (0, 1, NaN, or ShapeError where no identity exists); axes of extent 1; float16 and bfloat16
// accumulated in float; integers in their own type; and a float sum of 2^24 elements within a few
// epsilons.
#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

#include <tensorx/tensorx.h>

#include "reduce/reduce_reference.h"
#include "support/errors.h"

namespace tx = tensorx;
using tx::testing::check_reduction_of;
using tx::testing::random_array;
using tx::testing::Reduction;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

/// `values` (a host array in double) as an array of T on the test place.
template <class T, int N>
tx::Array<T, N> from_double(const tx::Array<double, N>& values) {
  tx::Array<T, N> host(values.dims());
  tx::testing::for_each_index(values.dims(),
                              [&](const auto& i) { host[i] = static_cast<T>(values[i]); });
  return tx::testing::on_test_place(host);
}

/// Sum, max, min, argmax and argmin of an array of T over each axis and every axis.
template <class T>
void check_element_type(std::mt19937_64& rng, double low, double high) {
  const auto a = random_array<T>(tx::make_dim(13, 1, 29), rng, low, high);
  const auto values = tx::testing::to_double(a);
  check_reduction_of(tx::sum<0>(a), values, 1u, Reduction::kSum);
  check_reduction_of(tx::sum<1>(a), values, 2u, Reduction::kSum);
  check_reduction_of(tx::sum<2>(a, tx::keepdims), values, 4u, Reduction::kSum);
  check_reduction_of(tx::sum(a), values, 7u, Reduction::kSum);
  check_reduction_of(tx::max<2>(a), values, 4u, Reduction::kMax);
  check_reduction_of(tx::min<0>(a), values, 1u, Reduction::kMin);
  check_reduction_of(tx::argmax<2>(a), values, 4u, Reduction::kArgMax);
  check_reduction_of(tx::argmin<0>(a), values, 1u, Reduction::kArgMin);
  check_reduction_of(tx::argmax<1>(a), values, 2u, Reduction::kArgMax);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(reduce_values)

BOOST_AUTO_TEST_CASE(nan_propagates_through_max_min_and_sums_and_wins_argmax) {
  // Row 0 has a NaN in the middle, row 1 two NaNs, row 2 none; column 3 holds NaN twice.
  tx::Array<double, 2> values(tx::make_dim(3, 6));
  const double rows[3][6] = {{1, 5, kNaN, 7, 2, 7}, {kNaN, 3, 4, kNaN, 1, 0}, {2, 9, 9, 1, 4, 4}};
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 6; ++c) values(r, c) = rows[r][c];
  }
  const auto a = from_double<float>(values);
  check_reduction_of(tx::max<1>(a), values, 2u, Reduction::kMax);
  check_reduction_of(tx::min<1>(a), values, 2u, Reduction::kMin);
  check_reduction_of(tx::max<0>(a), values, 1u, Reduction::kMax);
  check_reduction_of(tx::sum<1>(a), values, 2u, Reduction::kSum);
  check_reduction_of(tx::argmax<1>(a), values, 2u, Reduction::kArgMax);
  check_reduction_of(tx::argmin<1>(a), values, 2u, Reduction::kArgMin);
  check_reduction_of(tx::argmax<0>(a), values, 1u, Reduction::kArgMax);
  const auto positions = tx::testing::on_host(tx::Array<std::int64_t, 1>(tx::argmax<1>(a)));
  BOOST_TEST(positions(0) == 2);  // the first NaN
  BOOST_TEST(positions(1) == 0);
  BOOST_TEST(positions(2) == 1);  // the first of two equal maxima
  auto largest = tx::testing::scalar_on_test_place<float>();
  largest = tx::max(a);
  BOOST_TEST(std::isnan(largest.item()));
}

BOOST_AUTO_TEST_CASE(nan_in_long_rows_and_columns_reaches_every_path) {
  auto rng = tx::testing::make_rng(51);
  auto host = tx::testing::on_host(random_array<float>(tx::make_dim(2000, 300), rng));
  host(1234, 17) = std::numeric_limits<float>::quiet_NaN();
  const auto a = tx::testing::on_test_place(host);
  const auto values = tx::testing::to_double(a);
  check_reduction_of(tx::max<0>(a), values, 1u, Reduction::kMax);
  check_reduction_of(tx::min<1>(a), values, 2u, Reduction::kMin);
  check_reduction_of(tx::argmax<0>(a), values, 1u, Reduction::kArgMax);
  check_reduction_of(tx::max(a), values, 3u, Reduction::kMax);
}

BOOST_AUTO_TEST_CASE(empty_reductions_give_the_identity_or_throw) {
  const auto empty = tx::testing::zeros_on_test_place<float>(tx::make_dim(4, 0));
  tx::Array<float, 1> sums, products, means;
  sums = tx::sum<1>(empty);
  products = tx::prod<1>(empty);
  means = tx::mean<1>(empty);
  const auto s = tx::testing::on_host(sums), p = tx::testing::on_host(products);
  const auto m = tx::testing::on_host(means);
  BOOST_TEST(sums.dims() == tx::make_dim(4));
  for (int i = 0; i < 4; ++i) {
    BOOST_TEST(s(i) == 0.0f);
    BOOST_TEST(p(i) == 1.0f);
    BOOST_TEST(std::isnan(m(i)), "the mean of nothing is NaN");
  }
  auto total = tx::testing::scalar_on_test_place<float>();
  total = tx::sum(empty);
  BOOST_TEST(total.item() == 0.0f);

  tx::Array<float, 1> largest;
  const auto before = tx::stats::passes();
  BOOST_CHECK_EXCEPTION(largest = tx::max<1>(empty), tx::ShapeError,
                        tx::testing::message_is("tx::max over axes (1) of an expression of shape "
                                                "(4, 0) has no elements to choose from"));
  BOOST_TEST(!largest.allocated(), "nothing was written for the failed reduction");
  tx::Array<std::int64_t, 1> positions;
  BOOST_CHECK_EXCEPTION(positions = tx::argmin<1>(empty), tx::ShapeError,
                        tx::testing::message_has({"tx::argmin", "(4, 0)"}));
  BOOST_CHECK_EXCEPTION(total = tx::min(empty), tx::ShapeError,
                        tx::testing::message_has({"tx::min", "(0, 1)"}));
  BOOST_TEST(tx::stats::passes() == before);

  // Reducing the non-empty axis of an empty array gives an empty result, without error.
  tx::Array<float, 1> none;
  none = tx::max<0>(empty);
  BOOST_TEST(none.dims() == tx::make_dim(0));
}

BOOST_AUTO_TEST_CASE(axes_of_extent_one) {
  auto rng = tx::testing::make_rng(52);
  const auto a = random_array<float>(tx::make_dim(1, 7, 1), rng);
  const auto values = tx::testing::to_double(a);
  check_reduction_of(tx::sum<0>(a), values, 1u, Reduction::kSum);
  check_reduction_of(tx::mean<2>(a), values, 4u, Reduction::kMean);
  check_reduction_of(tx::argmax<0>(a), values, 1u, Reduction::kArgMax);
  check_reduction_of(tx::argmax<1>(a), values, 2u, Reduction::kArgMax);
  check_reduction_of(tx::prod<0, 2>(a, tx::keepdims), values, 5u, Reduction::kProd);
  check_reduction_of(tx::max(a), values, 7u, Reduction::kMax);
  const auto one = random_array<double>(tx::make_dim(1), rng);
  check_reduction_of(tx::sum(one), tx::testing::to_double(one), 1u, Reduction::kSum);
}

BOOST_AUTO_TEST_CASE(every_element_type) {
  auto rng = tx::testing::make_rng(53);
  check_element_type<float>(rng, -1.0, 1.0);
  check_element_type<double>(rng, -1.0, 1.0);
  check_element_type<tx::float16>(rng, -4.0, 4.0);
  check_element_type<tx::bfloat16>(rng, -4.0, 4.0);
  check_element_type<std::int32_t>(rng, -1000.0, 1000.0);
  check_element_type<std::int64_t>(rng, -1e12, 1e12);
  // Few distinct values: ties everywhere, the first position must win.
  check_element_type<std::int32_t>(rng, 0.0, 3.0);
  check_element_type<tx::float16>(rng, 0.0, 3.0);
  check_element_type<tx::bfloat16>(rng, 0.0, 3.0);
}

using TwoByteFloats = boost::mpl::list<tx::float16, tx::bfloat16>;

BOOST_AUTO_TEST_CASE_TEMPLATE(two_byte_floats_accumulate_in_float, T, TwoByteFloats) {
  // 4096 ones: float16 counts exactly only to 2048, bfloat16 to 256, float far beyond.
  const auto ones = tx::testing::ones_on_test_place<T>(tx::make_dim(2, 4096));
  tx::Array<T, 1> sums;
  sums = tx::sum<1>(ones);
  const auto host = tx::testing::on_host(sums);
  BOOST_TEST(static_cast<float>(host(0)) == 4096.0f);
  BOOST_TEST(static_cast<float>(host(1)) == 4096.0f);
  tx::Array<T, 1> columns;
  columns = tx::mean<0>(tx::transpose(ones));
  BOOST_TEST(static_cast<float>(tx::testing::on_host(columns)(0)) == 1.0f);
}

BOOST_AUTO_TEST_CASE(integer_sums_and_products_are_exact) {
  tx::Array<std::int64_t, 1> host(tx::make_dim(40));
  for (int i = 0; i < 40; ++i) host(i) = (i % 3 == 0 ? -1 : 1) * (std::int64_t{1} << 40) + i;
  const auto a = tx::testing::on_test_place(host);
  auto total = tx::testing::scalar_on_test_place<std::int64_t>();
  total = tx::sum(a);
  std::int64_t expected = 0;
  for (int i = 0; i < 40; ++i) expected += host(i);
  BOOST_TEST(total.item() == expected);

  auto twos = tx::zeros<std::int32_t>(tx::make_dim(40));
  tx::fill(twos, 2);
  auto product = tx::testing::scalar_on_test_place<std::int32_t>();
  product = tx::prod(tx::testing::on_test_place(twos).slice(0, 30));
  BOOST_TEST(product.item() == (1 << 30));
}

BOOST_AUTO_TEST_CASE(a_float_sum_of_2_to_the_24_elements_is_accurate) {
  // Uniform in [0, 1): every partial sum positive, so the relative error is meaningful. A
  // sequential float sum is off by hundreds of epsilons here (and stalls at 2^24 for ones).
  auto rng = tx::testing::make_rng(54);
  const tx::index_t count = tx::index_t{1} << 24;
  tx::Array<float, 1> host(tx::make_dim(count));
  std::uniform_real_distribution<float> value(0.0f, 1.0f);
  double exact = 0.0;
  for (tx::index_t i = 0; i < count; ++i) {
    host(i) = value(rng);
    exact += host(i);
  }
  const auto a = tx::testing::on_test_place(host);
  auto total = tx::testing::scalar_on_test_place<float>();
  total = tx::sum(a);
  const double relative = std::abs(static_cast<double>(total.item()) - exact) / exact;
  BOOST_TEST_MESSAGE("relative error of a 2^24 float sum: " << relative / 0x1p-23
                                                            << " FLT_EPSILON");
  BOOST_TEST(relative <= 2 * 0x1p-23, "relative error " << relative << " exceeds 2 FLT_EPSILON");
  auto average = tx::testing::scalar_on_test_place<float>();
  average = tx::mean(a);
  BOOST_TEST(std::abs(average.item() * static_cast<double>(count) - exact) / exact <= 3 * 0x1p-23);
  // The same elements as 4096 rows of 4096: row sums, and column sums of the transposed view.
  const auto square = tx::reshape(a, tx::make_dim(4096, 4096));
  tx::Array<float, 1> rows, columns;
  rows = tx::sum<1>(square);
  columns = tx::sum<0>(tx::transpose(square));
  const auto rows_host = tx::testing::on_host(rows), columns_host = tx::testing::on_host(columns);
  tx::index_t bad = 0;
  for (tx::index_t r = 0; r < 4096; ++r) {
    double row = 0.0;
    for (tx::index_t c = 0; c < 4096; ++c) row += host(r * 4096 + c);
    bad += std::abs(rows_host(r) - row) > 2 * 0x1p-23 * row;
    bad += std::abs(columns_host(r) - row) > 2 * 0x1p-23 * row;
  }
  BOOST_TEST(bad == 0, bad << " row or column sums are off by more than 2 FLT_EPSILON");
}

BOOST_AUTO_TEST_SUITE_END()
