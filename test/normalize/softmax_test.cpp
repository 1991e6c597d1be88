// tx::softmax, tx::log_softmax and tx::logsumexp along the last axis: ONE row-local pass each,
// checked against loops in double on rows of every length the engines treat differently (0 to
// 8192) and random row counts (0 included), ranks 3 and 4, strided, transposed and broadcast
// operands, strided destinations, PyTorch's special values, and a vector's softmax beside its one
// logsumexp and variance (rank-0 results). How the results are assigned: softmax_assign_test.cpp.
#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include <tensorx/tensorx.h>

#include "normalize/normalize_reference.h"

namespace tx = tensorx;
using tx::testing::check_rows;
using tx::testing::one_pass_for;
using tx::testing::random_array;
using tx::testing::rows_of;

namespace {

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

/// Rows of `length` (at least 3) with PyTorch's special cases, one per row: finite; a NaN; all
/// -inf; one +inf; all +inf; all 1e30; 1e30 and -1e30 among finite values; one -inf among finite
/// values; NaN, +inf and -inf together.
std::vector<double> special_rows(tx::index_t length, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> finite(-4.0, 4.0);
  std::vector<std::vector<double>> rows(9, std::vector<double>(static_cast<std::size_t>(length)));
  for (auto& row : rows) {
    for (double& v : row) v = finite(rng);
  }
  const std::size_t last = static_cast<std::size_t>(length - 1), middle = last / 2;
  rows[1][middle] = kNaN;
  rows[2].assign(rows[2].size(), -kInf);
  rows[3][last] = kInf;
  rows[4].assign(rows[4].size(), kInf);
  rows[5].assign(rows[5].size(), 1e30);
  rows[6][0] = 1e30;
  rows[6][last] = -1e30;
  rows[7][1] = -kInf;
  rows[8][0] = kNaN;
  rows[8][1] = kInf;
  rows[8][last] = -kInf;
  std::vector<double> values;
  for (const auto& row : rows) values.insert(values.end(), row.begin(), row.end());
  return values;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(normalize_softmax)

using FloatTypes = boost::mpl::list<float, double, tx::float16, tx::bfloat16>;
using WideFloatTypes = boost::mpl::list<float, double>;

BOOST_AUTO_TEST_CASE_TEMPLATE(softmax_of_rows_of_every_length_is_one_pass, T, FloatTypes) {
  auto rng = tx::testing::make_rng(101);
  for (const tx::index_t length : tx::testing::kRowLengths) {
    const tx::index_t rows = tx::testing::random_row_count(rng, length);
    BOOST_TEST_CONTEXT("softmax of " << rows << " rows of " << length) {
      const auto x = random_array<T>(tx::make_dim(rows, length), rng, -8.0, 8.0);
      tx::Array<T, 2> p;
      const auto before = tx::stats::passes();
      p = tx::softmax<1>(x);
      BOOST_TEST(tx::stats::passes() - before == one_pass_for(p));
      BOOST_TEST(p.dims() == x.dims());
      check_rows(p, tx::testing::reference_softmax(rows_of(x)),
                 tx::testing::softmax_tolerance<T>(length, 16.0));
    }
  }
  // No rows at all.
  const auto none = random_array<T>(tx::make_dim(0, 33), rng);
  tx::Array<T, 2> p;
  const auto before = tx::stats::passes();
  p = tx::softmax<1>(none);
  BOOST_TEST(tx::stats::passes() == before);
  BOOST_TEST(p.dims() == tx::make_dim(0, 33));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(log_softmax_and_logsumexp_of_rows_of_every_length, T,
                              WideFloatTypes) {
  auto rng = tx::testing::make_rng(102);
  for (const tx::index_t length : tx::testing::kRowLengths) {
    const tx::index_t rows = tx::testing::random_row_count(rng, length);
    BOOST_TEST_CONTEXT(rows << " rows of " << length) {
      const auto x = random_array<T>(tx::make_dim(rows, length), rng, -8.0, 8.0);
      const auto values = rows_of(x);
      const auto tolerance = tx::testing::log_sum_tolerance<T>(length, 16.0);
      tx::Array<T, 2> q, kept;
      tx::Array<T, 1> s;
      auto before = tx::stats::passes();
      q = tx::log_softmax<1>(x);
      BOOST_TEST(tx::stats::passes() - before == one_pass_for(q));
      check_rows(q, tx::testing::reference_log_softmax(values), tolerance);
      before = tx::stats::passes();
      s = tx::logsumexp<1>(x);
      BOOST_TEST(tx::stats::passes() - before == one_pass_for(s));
      BOOST_TEST(s.dims() == tx::make_dim(rows));
      check_rows(s, tx::testing::reference_logsumexp(values), tolerance);
      before = tx::stats::passes();
      kept = tx::logsumexp<1>(x, tx::keepdims);
      BOOST_TEST(tx::stats::passes() - before == one_pass_for(kept));
      BOOST_TEST(kept.dims() == tx::make_dim(rows, 1));
      check_rows(kept, tx::testing::reference_logsumexp(values), tolerance);
    }
  }
}

BOOST_AUTO_TEST_CASE(ranks_3_and_4_along_the_last_axis) {
  auto rng = tx::testing::make_rng(103);
  for (int trial = 0; trial < 6; ++trial) {
    auto dims3 = tx::testing::random_dim<3>(rng, 0, 9);
    auto dims4 = tx::testing::random_dim<4>(rng, 1, 6);
    dims3[2] = tx::testing::kRowLengths[trial + 3];  // 32 to 8192
    dims4[3] = tx::testing::kRowLengths[trial];      // 0 to 1000
    BOOST_TEST_CONTEXT("shapes " << dims3 << " and " << dims4) {
      const auto x3 = random_array<float>(dims3, rng, -8.0, 8.0);
      const auto x4 = random_array<float>(dims4, rng, -8.0, 8.0);
      tx::Array<float, 3> p;
      tx::Array<float, 4> q, kept;
      tx::Array<float, 2> s;
      auto before = tx::stats::passes();
      p = tx::softmax<-1>(x3);
      BOOST_TEST(tx::stats::passes() - before == one_pass_for(p));
      check_rows(p, tx::testing::reference_softmax(rows_of(x3)),
                 tx::testing::softmax_tolerance<float>(dims3[2], 16.0));
      before = tx::stats::passes();
      s = tx::logsumexp<-1>(x3);
      BOOST_TEST(tx::stats::passes() - before == one_pass_for(s));
      BOOST_TEST(s.dims() == tx::make_dim(dims3[0], dims3[1]));
      check_rows(s, tx::testing::reference_logsumexp(rows_of(x3)),
                 tx::testing::log_sum_tolerance<float>(dims3[2], 16.0));
      before = tx::stats::passes();
      q = tx::log_softmax<-1>(x4);
      BOOST_TEST(tx::stats::passes() - before == one_pass_for(q));
      check_rows(q, tx::testing::reference_log_softmax(rows_of(x4)),
                 tx::testing::log_sum_tolerance<float>(dims4[3], 16.0));
      kept = tx::logsumexp<-1>(x4, tx::keepdims);
      BOOST_TEST(kept.dims() == tx::make_dim(dims4[0], dims4[1], dims4[2], 1));
      check_rows(kept, tx::testing::reference_logsumexp(rows_of(x4)),
                 tx::testing::log_sum_tolerance<float>(dims4[3], 16.0));
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(special_values_as_pytorch, T, WideFloatTypes) {
  auto rng = tx::testing::make_rng(104);
  for (const tx::index_t length : {3, 37, 4097}) {
    BOOST_TEST_CONTEXT("rows of " << length) {
      const auto x = tx::testing::array_from<T>(tx::make_dim(9, length), special_rows(length, rng));
      const auto values = rows_of(x);
      tx::Array<T, 2> p, q, kept;
      tx::Array<T, 1> s;
      p = tx::softmax<1>(x);
      q = tx::log_softmax<1>(x);
      s = tx::logsumexp<1>(x);
      kept = tx::logsumexp<1>(x, tx::keepdims);
      // Rows of 1e30 and -1e30 are 2e30 wide: their exp(x - max) is exactly 0 or 1.
      check_rows(p, tx::testing::reference_softmax(values),
                 tx::testing::softmax_tolerance<T>(length, 8.0));
      check_rows(q, tx::testing::reference_log_softmax(values),
                 tx::testing::log_sum_tolerance<T>(length, 8.0));
      check_rows(s, tx::testing::reference_logsumexp(values),
                 tx::testing::log_sum_tolerance<T>(length, 8.0));
      check_rows(kept, tx::testing::reference_logsumexp(values),
                 tx::testing::log_sum_tolerance<T>(length, 8.0));
      const auto hp = tx::testing::on_host(p);
      const auto hs = tx::testing::on_host(s);
      BOOST_TEST(std::isnan(static_cast<double>(hp(1, 0))), "a row with NaN gives NaN");
      BOOST_TEST(std::isnan(static_cast<double>(hs(1))));
      BOOST_TEST(std::isnan(static_cast<double>(hp(2, 0))), "softmax of -inf only is NaN");
      BOOST_TEST(static_cast<double>(hs(2)) == -kInf, "logsumexp of -inf only is -inf");
      BOOST_TEST(std::isnan(static_cast<double>(hp(3, 0))), "softmax of a row with +inf is NaN");
      BOOST_TEST(static_cast<double>(hs(4)) == kInf, "logsumexp of +inf is +inf");
      BOOST_TEST(hp(5, 0) == static_cast<T>(1.0 / static_cast<double>(length)),
                 "rows of 1e30 do not overflow");
      BOOST_TEST(static_cast<double>(hp(6, 0)) == 1.0);
      BOOST_TEST(static_cast<double>(hp(7, 1)) == 0.0, "exp(-inf) is 0");
    }
  }
  // An empty row gives an empty softmax and a logsumexp of -inf.
  const auto empty = tx::testing::zeros_on_test_place<T>(tx::make_dim(4, 0));
  tx::Array<T, 2> p, kept;
  tx::Array<T, 1> s;
  p = tx::softmax<1>(empty);
  BOOST_TEST(p.dims() == tx::make_dim(4, 0));
  s = tx::logsumexp<1>(empty);
  kept = tx::logsumexp<1>(empty, tx::keepdims);
  const auto hs = tx::testing::on_host(s);
  const auto hk = tx::testing::on_host(kept);
  for (int r = 0; r < 4; ++r) {
    BOOST_TEST(static_cast<double>(hs(r)) == -kInf);
    BOOST_TEST(static_cast<double>(hk(r, 0)) == -kInf);
  }
}

BOOST_AUTO_TEST_CASE(strided_transposed_and_broadcast_operands) {
  auto rng = tx::testing::make_rng(105);
  for (const tx::index_t length : {1, 33, 1024, 4097}) {
    BOOST_TEST_CONTEXT("rows of " << length) {
      const tx::index_t rows = 1 + tx::testing::random_row_count(rng, length);
      const auto tolerance = tx::testing::softmax_tolerance<float>(length, 16.0);
      // Columns [3, 3 + length) of a wider matrix: rows strided by length + 5.
      const auto wide = random_array<float>(tx::make_dim(rows, length + 5), rng, -8.0, 8.0);
      const auto columns = tx::slice(wide, 1, 3, 3 + length);
      tx::Array<float, 2> p;
      auto before = tx::stats::passes();
      p = tx::softmax<1>(columns);
      BOOST_TEST(tx::stats::passes() - before == 1u);
      check_rows(p, tx::testing::reference_softmax(rows_of(columns)), tolerance);

      // The transpose of a (length, rows) matrix: a view whose rows have stride `rows`, and the
      // same as a node.
      const auto tall = random_array<float>(tx::make_dim(length, rows), rng, -8.0, 8.0);
      const auto transposed = tx::transpose(tall).array();
      const auto expected = tx::testing::reference_softmax(rows_of(transposed));
      before = tx::stats::passes();
      p = tx::softmax<1>(transposed);
      BOOST_TEST(tx::stats::passes() - before == 1u);
      check_rows(p, expected, tolerance);
      before = tx::stats::passes();
      p = tx::softmax<1>(tx::transpose(tall));
      BOOST_TEST(tx::stats::passes() - before == 1u);
      check_rows(p, expected, tolerance);

      // Strided destinations: the transposed view of a (length, rows) array receives the rows,
      // and every third element of a vector one logsumexp per row.
      auto out = tx::testing::zeros_on_test_place<float>(tx::make_dim(length, rows));
      auto out_rows = tx::transpose(out).array();
      before = tx::stats::passes();
      out_rows = tx::softmax<1>(transposed);
      BOOST_TEST(tx::stats::passes() - before == 1u);
      check_rows(out_rows, expected, tolerance);
      auto sums = tx::testing::zeros_on_test_place<float>(tx::make_dim(3 * rows));
      auto every_third = tx::transpose(tx::reshape(sums, tx::make_dim(rows, 3))).array()[1];
      before = tx::stats::passes();
      every_third = tx::logsumexp<1>(transposed);
      BOOST_TEST(tx::stats::passes() - before == 1u);
      check_rows(every_third, tx::testing::reference_logsumexp(rows_of(transposed)),
                 tx::testing::log_sum_tolerance<float>(length, 16.0));
      const auto all_sums = rows_of(sums);
      tx::index_t written = 0;
      for (const double value : all_sums.values) written += value != 0.0;
      BOOST_TEST(written == rows, "only every third element is written");

      // A broadcast operand: a bias of the row's length added to every row; and a column
      // broadcast along the rows, whose every row is constant (inner stride 0).
      const auto x = random_array<float>(tx::make_dim(rows, length), rng, -4.0, 4.0);
      const auto bias = random_array<float>(tx::make_dim(length), rng, -4.0, 4.0);
      const auto hx = rows_of(x), hb = rows_of(bias);
      tx::testing::Rows biased(rows, length);
      for (tx::index_t r = 0; r < rows; ++r) {
        for (tx::index_t k = 0; k < length; ++k) biased.at(r, k) = hx.at(r, k) + hb.at(0, k);
      }
      before = tx::stats::passes();
      p = tx::softmax<1>(x + bias);
      BOOST_TEST(tx::stats::passes() - before == 1u);
      check_rows(p, tx::testing::reference_softmax(biased), tolerance);
      const auto column = random_array<float>(tx::make_dim(rows, 1), rng);
      p = tx::softmax<1>(tx::broadcast_to(column, tx::make_dim(rows, length)));
      tx::testing::Rows uniform(rows, length);
      uniform.values.assign(uniform.values.size(), 1.0 / static_cast<double>(length));
      check_rows(p, uniform, tolerance);
    }
  }
}

BOOST_AUTO_TEST_CASE(a_vector_s_softmax_and_its_one_logsumexp_and_variance) {
  auto rng = tx::testing::make_rng(106);
  for (const tx::index_t length : {1, 33, 4097}) {
    BOOST_TEST_CONTEXT("a vector of " << length) {
      const auto v = random_array<float>(tx::make_dim(length), rng, -8.0, 8.0);
      const auto values = rows_of(v);
      const auto tolerance = tx::testing::log_sum_tolerance<float>(length, 16.0);
      tx::Array<float, 1> p;
      auto before = tx::stats::passes();
      p = tx::softmax<0>(v);
      BOOST_TEST(tx::stats::passes() - before == 1u);
      check_rows(p, tx::testing::reference_softmax(values),
                 tx::testing::softmax_tolerance<float>(length, 16.0));
      // Reductions to rank 0: one result, computed from the vector as one row.
      auto s = tx::testing::scalar_on_test_place<float>();
      before = tx::stats::passes();
      s = tx::logsumexp<0>(v);
      BOOST_TEST(tx::stats::passes() - before == 1u);
      check_rows(s, tx::testing::reference_logsumexp(values), tolerance);
      s = tx::max<0>(v) + tx::log(tx::sum<0>(tx::exp(v - tx::max<0>(v, tx::keepdims))));
      check_rows(s, tx::testing::reference_logsumexp(values), tolerance);
      s += tx::logsumexp<0>(v);
      tx::testing::Rows twice = tx::testing::reference_logsumexp(values);
      twice.values[0] *= 2;
      check_rows(s, twice, {tolerance.relative, 2 * tolerance.absolute});
      before = tx::stats::passes();
      s = tx::var<0>(v);
      BOOST_TEST(tx::stats::passes() - before == 1u);
      check_rows(s, tx::testing::reference_var(values),
                 tx::testing::norm_tolerance<float>(length, 8.0, 8.0));
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
