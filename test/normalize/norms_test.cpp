// tx::layer_norm, tx::rms_norm and tx::var along the last axis: ONE row-local pass each, checked
// against loops in double on rows of every length and random row counts, ranks 3 and 4, gamma and
// beta of shape (L) and (1, L) and strided, transposed operands, NaN and infinite rows, constant
// rows (variance 0); gammas that do not broadcast are a ShapeError naming the shapes, before any
// work; along axis 0 the statistics are materialised first.
#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include <tensorx/tensorx.h>

#include "normalize/normalize_reference.h"
#include "support/errors.h"

namespace tx = tensorx;
using tx::testing::check_rows;
using tx::testing::one_pass_for;
using tx::testing::random_array;
using tx::testing::rows_of;

namespace {

/// x uniform in [-1, 1) lies within about 1.8 standard deviations of its mean (and of 0, in
/// root mean squares); the gammas are below 1.5 and the betas below 1.
constexpr double kDeviations = 2.0;
constexpr double kGain = 1.5;

/// The rows of `x` with their last axis read as columns of a (length, rows) matrix `tall`:
/// rows_of(tx::transpose(tall)) without tensorx.
tx::testing::Rows transposed_rows(const tx::testing::Rows& tall) {
  tx::testing::Rows out(tall.length, tall.count);
  for (tx::index_t r = 0; r < tall.length; ++r) {
    for (tx::index_t k = 0; k < tall.count; ++k) out.at(r, k) = tall.at(k, r);
  }
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(normalize_norms)

using FloatTypes = boost::mpl::list<float, double, tx::float16, tx::bfloat16>;
using WideFloatTypes = boost::mpl::list<float, double>;

BOOST_AUTO_TEST_CASE_TEMPLATE(layer_norm_of_rows_of_every_length_is_one_pass, T, FloatTypes) {
  auto rng = tx::testing::make_rng(121);
  const T eps = static_cast<T>(1e-5);
  for (const tx::index_t length : tx::testing::kRowLengths) {
    const tx::index_t rows = tx::testing::random_row_count(rng, length);
    BOOST_TEST_CONTEXT("layer_norm of " << rows << " rows of " << length) {
      const auto x = random_array<T>(tx::make_dim(rows, length), rng);
      const auto gamma = random_array<T>(tx::make_dim(length), rng, 0.5, 1.5);
      const auto beta = random_array<T>(tx::make_dim(length), rng);
      tx::Array<T, 2> y;
      const auto before = tx::stats::passes();
      y = tx::layer_norm<1>(x, gamma, beta, eps);
      BOOST_TEST(tx::stats::passes() - before == one_pass_for(y));
      check_rows(y,
                 tx::testing::reference_layer_norm(rows_of(x), rows_of(gamma), rows_of(beta),
                                                   static_cast<double>(eps)),
                 tx::testing::norm_tolerance<T>(length, kDeviations, kGain));
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(rms_norm_and_var_of_rows_of_every_length, T, WideFloatTypes) {
  auto rng = tx::testing::make_rng(122);
  for (const tx::index_t length : tx::testing::kRowLengths) {
    const tx::index_t rows = tx::testing::random_row_count(rng, length);
    BOOST_TEST_CONTEXT(rows << " rows of " << length) {
      const auto x = random_array<T>(tx::make_dim(rows, length), rng);
      const auto gamma = random_array<T>(tx::make_dim(length), rng, 0.5, 1.5);
      const auto values = rows_of(x);
      const auto tolerance = tx::testing::norm_tolerance<T>(length, kDeviations, kGain);
      tx::Array<T, 2> y, kept;
      tx::Array<T, 1> v;
      auto before = tx::stats::passes();
      y = tx::rms_norm<1>(x, gamma, T(1e-6));
      BOOST_TEST(tx::stats::passes() - before == one_pass_for(y));
      check_rows(y, tx::testing::reference_rms_norm(values, rows_of(gamma), 1e-6), tolerance);
      // The variance of values in [-1, 1) is at most 1: its error is absolute.
      before = tx::stats::passes();
      v = tx::var<1>(x);
      BOOST_TEST(tx::stats::passes() - before == one_pass_for(v));
      BOOST_TEST(v.dims() == tx::make_dim(rows));
      check_rows(v, tx::testing::reference_var(values), tolerance);
      before = tx::stats::passes();
      kept = tx::var<1>(x, tx::keepdims);
      BOOST_TEST(tx::stats::passes() - before == one_pass_for(kept));
      BOOST_TEST(kept.dims() == tx::make_dim(rows, 1));
      check_rows(kept, tx::testing::reference_var(values), tolerance);
    }
  }
}

BOOST_AUTO_TEST_CASE(ranks_3_and_4_along_the_last_axis) {
  auto rng = tx::testing::make_rng(123);
  for (int trial = 0; trial < 6; ++trial) {
    auto dims3 = tx::testing::random_dim<3>(rng, 0, 9);
    auto dims4 = tx::testing::random_dim<4>(rng, 1, 6);
    dims3[2] = tx::testing::kRowLengths[trial + 3];
    dims4[3] = tx::testing::kRowLengths[trial];
    BOOST_TEST_CONTEXT("shapes " << dims3 << " and " << dims4) {
      const auto x3 = random_array<float>(dims3, rng);
      const auto x4 = random_array<float>(dims4, rng);
      const auto gamma3 = random_array<float>(tx::make_dim(dims3[2]), rng, 0.5, 1.5);
      const auto beta3 = random_array<float>(tx::make_dim(dims3[2]), rng);
      const auto gamma4 = random_array<float>(tx::make_dim(dims4[3]), rng, 0.5, 1.5);
      tx::Array<float, 3> y;
      tx::Array<float, 4> z;
      auto before = tx::stats::passes();
      y = tx::layer_norm<-1>(x3, gamma3, beta3, 1e-5f);
      BOOST_TEST(tx::stats::passes() - before == one_pass_for(y));
      check_rows(y,
                 tx::testing::reference_layer_norm(rows_of(x3), rows_of(gamma3), rows_of(beta3),
                                                   static_cast<double>(1e-5f)),
                 tx::testing::norm_tolerance<float>(dims3[2], kDeviations, kGain));
      before = tx::stats::passes();
      z = tx::rms_norm<-1>(x4, gamma4, 1e-6f);
      BOOST_TEST(tx::stats::passes() - before == one_pass_for(z));
      check_rows(
          z,
          tx::testing::reference_rms_norm(rows_of(x4), rows_of(gamma4), static_cast<double>(1e-6f)),
          tx::testing::norm_tolerance<float>(dims4[3], kDeviations, kGain));
    }
  }
}

BOOST_AUTO_TEST_CASE(gamma_and_beta_of_shape_1_by_l_strided_and_transposed_operands) {
  auto rng = tx::testing::make_rng(124);
  for (const tx::index_t length : {1, 32, 1000, 4097}) {
    BOOST_TEST_CONTEXT("rows of " << length) {
      const tx::index_t rows = 1 + tx::testing::random_row_count(rng, length);
      const auto tolerance = tx::testing::norm_tolerance<float>(length, kDeviations, kGain);
      const auto x = random_array<float>(tx::make_dim(rows, length), rng);
      // gamma and beta as (1, L): rows of a (3, L + 2) matrix, so strided too.
      const auto parameters = random_array<float>(tx::make_dim(3, length + 2), rng, 0.5, 1.5);
      const auto gamma = tx::slice(parameters.slice(0, 1), 1, 1, 1 + length);
      const auto beta = tx::slice(parameters.slice(2, 3), 1, 0, length);
      tx::testing::Rows shifted_beta = rows_of(beta);
      for (double& b : shifted_beta.values) b -= 1.0;  // betas in [-0.5, 0.5)
      tx::Array<float, 2> y;
      auto before = tx::stats::passes();
      y = tx::layer_norm<1>(x, gamma, beta - 1.0f, 1e-5f);
      BOOST_TEST(tx::stats::passes() - before == 1u);
      check_rows(y,
                 tx::testing::reference_layer_norm(rows_of(x), rows_of(gamma), shifted_beta, 1e-5),
                 tolerance);

      // x as the transposed view of a (length, rows) matrix, and as the transpose node.
      const auto tall = random_array<float>(tx::make_dim(length, rows), rng);
      const auto g = random_array<float>(tx::make_dim(length), rng, 0.5, 1.5);
      const auto b = random_array<float>(tx::make_dim(length), rng);
      const auto expected = tx::testing::reference_layer_norm(
          transposed_rows(rows_of(tall)), rows_of(g), rows_of(b), static_cast<double>(1e-5f));
      before = tx::stats::passes();
      y = tx::layer_norm<1>(tx::transpose(tall).array(), g, b, 1e-5f);
      BOOST_TEST(tx::stats::passes() - before == 1u);
      check_rows(y, expected, tolerance);
      before = tx::stats::passes();
      y = tx::layer_norm<1>(tx::transpose(tall), g, b, 1e-5f);
      BOOST_TEST(tx::stats::passes() - before == 1u);
      check_rows(y, expected, tolerance);
    }
  }
}

BOOST_AUTO_TEST_CASE(nan_infinite_and_constant_rows) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  // A NaN; a +inf; a -inf; constant 3 (variance 0: layer_norm gives beta, rms_norm x/|x| * g).
  const std::vector<double> values = {1, nan, 2, 0, 1, 2, inf, 0, 1, 2, -inf, 0, 3, 3, 3, 3};
  const auto x = tx::testing::array_from<float>(tx::make_dim(4, 4), values);
  const auto gamma = tx::testing::array_from<float>(tx::make_dim(4), {1.0, 0.5, 2.0, 1.5});
  const auto beta = tx::testing::array_from<float>(tx::make_dim(4), {0.0, 1.0, -1.0, 0.25});
  tx::Array<float, 2> y, z;
  tx::Array<float, 1> v;
  y = tx::layer_norm<1>(x, gamma, beta, 1e-5f);
  z = tx::rms_norm<1>(x, gamma, 1e-6f);
  v = tx::var<1>(x);
  const auto tolerance = tx::testing::norm_tolerance<float>(4, kDeviations, kGain);
  check_rows(y,
             tx::testing::reference_layer_norm(rows_of(x), rows_of(gamma), rows_of(beta),
                                               static_cast<double>(1e-5f)),
             tolerance);
  check_rows(
      z, tx::testing::reference_rms_norm(rows_of(x), rows_of(gamma), static_cast<double>(1e-6f)),
      tolerance);
  check_rows(v, tx::testing::reference_var(rows_of(x)), tolerance);
  const auto hy = tx::testing::on_host(y);
  const auto hv = tx::testing::on_host(v);
  for (int k = 0; k < 4; ++k) {
    BOOST_TEST(std::isnan(hy(0, k)), "a row with NaN gives NaN");
    BOOST_TEST(std::isnan(hy(1, k)), "a row with an infinity has no finite mean");
    BOOST_TEST(hy(3, k) == rows_of(beta).at(0, k), "a constant row gives beta exactly");
  }
  BOOST_TEST(hv(3) == 0.0f);
}

BOOST_AUTO_TEST_CASE(parameters_that_do_not_broadcast_are_a_shape_error_before_any_work) {
  auto rng = tx::testing::make_rng(125);
  const auto x = random_array<float>(tx::make_dim(6, 10), rng);
  const auto gamma = random_array<float>(tx::make_dim(10), rng);
  const auto wrong = random_array<float>(tx::make_dim(9), rng);
  auto y = tx::testing::zeros_on_test_place<float>(tx::make_dim(6, 10));
  const auto before = tx::stats::passes();
  BOOST_CHECK_EXCEPTION(y = tx::layer_norm<1>(x, wrong, gamma, 1e-5f), tx::ShapeError,
                        tx::testing::message_has({"(6, 10)", "(9)"}));
  BOOST_CHECK_EXCEPTION(y = tx::layer_norm<1>(x, gamma, wrong, 1e-5f), tx::ShapeError,
                        tx::testing::message_has({"(6, 10)", "(9)"}));
  BOOST_CHECK_EXCEPTION(y = tx::rms_norm<1>(x, wrong, 1e-6f), tx::ShapeError,
                        tx::testing::message_has({"(6, 10)", "(9)"}));
  BOOST_TEST(tx::stats::passes() == before);
  for (const double value : rows_of(y).values) BOOST_TEST(value == 0.0, "y was not written");
}

BOOST_AUTO_TEST_CASE(along_axis_0_the_statistics_are_materialised_and_correct) {
  auto rng = tx::testing::make_rng(126);
  const auto x = random_array<float>(tx::make_dim(500, 9), rng);
  const auto gamma = random_array<float>(tx::make_dim(500, 1), rng, 0.5, 1.5);
  const auto beta = random_array<float>(tx::make_dim(500, 1), rng);
  tx::Array<float, 2> y;
  const auto before = tx::stats::passes();
  y = tx::layer_norm<0>(x, gamma, beta, 1e-5f);
  BOOST_TEST(tx::stats::passes() - before > 1u, "not row-local: the statistics come first");
  const auto columns = tx::testing::reference_layer_norm(
      transposed_rows(rows_of(x)), transposed_rows(rows_of(gamma)), transposed_rows(rows_of(beta)),
      static_cast<double>(1e-5f));
  check_rows(y, transposed_rows(columns),
             tx::testing::norm_tolerance<float>(500, kDeviations, kGain));
}

BOOST_AUTO_TEST_SUITE_END()
