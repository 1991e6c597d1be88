// Reductions over the last axis that users write inside their own expressions: the softmax and
// the layer norm written out, a logsumexp per row, min, prod and mean beside max and sum,
// reductions of broadcast operands and of operands whose rows are longer or shorter than the
// destination's; each ONE pass, against loops in double. A max over empty rows is a ShapeError
// before any work (the library's functions give -inf there instead).
#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <vector>

#include <tensorx/tensorx.h>

#include "normalize/normalize_reference.h"
#include "support/errors.h"

namespace tx = tensorx;
using tx::testing::check_rows;
using tx::testing::one_pass_for;
using tx::testing::random_array;
using tx::testing::Rows;
using tx::testing::rows_of;

namespace {

/// Rows of `count` by `length` whose element (r, k) is f(r, k).
template <class F>
Rows make_rows(tx::index_t count, tx::index_t length, F&& f) {
  Rows out(count, length);
  for (tx::index_t r = 0; r < count; ++r) {
    for (tx::index_t k = 0; k < length; ++k) out.at(r, k) = f(r, k);
  }
  return out;
}

enum class RowStat { kSum, kMean, kMin, kMax, kProd };

/// One statistic of every row of `x` (not empty, no NaN in these tests), each row read once.
std::vector<double> row_stats(const Rows& x, RowStat stat) {
  std::vector<double> out(static_cast<std::size_t>(x.count));
  for (tx::index_t r = 0; r < x.count; ++r) {
    double value = stat == RowStat::kProd                            ? 1.0
                   : stat == RowStat::kSum || stat == RowStat::kMean ? 0.0
                                                                     : x.at(r, 0);
    for (tx::index_t k = 0; k < x.length; ++k) {
      const double v = x.at(r, k);
      switch (stat) {
        case RowStat::kSum:
        case RowStat::kMean:
          value += v;
          break;
        case RowStat::kMin:
          value = std::min(value, v);
          break;
        case RowStat::kMax:
          value = std::max(value, v);
          break;
        case RowStat::kProd:
          value *= v;
          break;
      }
    }
    if (stat == RowStat::kMean) value /= static_cast<double>(x.length);
    out[static_cast<std::size_t>(r)] = value;
  }
  return out;
}

/// Row lengths without the empty one (a max over it is an error in user forms).
const tx::index_t kUserRowLengths[] = {1, 31, 33, 1000, 4097, 8192};

/// The relative rounding of a product of `length` factors (each multiplication rounds once).
double product_tolerance(tx::index_t length) {
  return tx::testing::compute_unit<float>() * (8.0 + static_cast<double>(length));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(normalize_user_forms)

using WideFloatTypes = boost::mpl::list<float, double>;

BOOST_AUTO_TEST_CASE_TEMPLATE(the_softmax_written_out_is_one_pass, T, WideFloatTypes) {
  auto rng = tx::testing::make_rng(131);
  for (const tx::index_t length : kUserRowLengths) {
    const tx::index_t rows = tx::testing::random_row_count(rng, length);
    BOOST_TEST_CONTEXT(rows << " rows of " << length) {
      const auto x = random_array<T>(tx::make_dim(rows, length), rng, -8.0, 8.0);
      tx::Array<T, 2> p;
      const auto before = tx::stats::passes();
      p = tx::exp(x - tx::max<1>(x, tx::keepdims)) /
          tx::sum<1>(tx::exp(x - tx::max<1>(x, tx::keepdims)), tx::keepdims);
      BOOST_TEST(tx::stats::passes() - before == one_pass_for(p));
      check_rows(p, tx::testing::reference_softmax(rows_of(x)),
                 tx::testing::softmax_tolerance<T>(length, 16.0));
    }
  }
}

BOOST_AUTO_TEST_CASE(the_layer_norm_and_a_logsumexp_per_row_written_out_are_one_pass) {
  auto rng = tx::testing::make_rng(132);
  for (const tx::index_t length : kUserRowLengths) {
    const tx::index_t rows = tx::testing::random_row_count(rng, length);
    BOOST_TEST_CONTEXT(rows << " rows of " << length) {
      const auto x = random_array<float>(tx::make_dim(rows, length), rng);
      const auto gamma = random_array<float>(tx::make_dim(length), rng, 0.5, 1.5);
      const auto beta = random_array<float>(tx::make_dim(length), rng);
      tx::Array<float, 2> y;
      auto before = tx::stats::passes();
      y = (x - tx::mean<1>(x, tx::keepdims)) * tx::rsqrt(tx::var<1>(x, tx::keepdims) + 1e-5f) *
              gamma +
          beta;
      BOOST_TEST(tx::stats::passes() - before == one_pass_for(y));
      check_rows(y,
                 tx::testing::reference_layer_norm(rows_of(x), rows_of(gamma), rows_of(beta),
                                                   static_cast<double>(1e-5f)),
                 tx::testing::norm_tolerance<float>(length, 2.0, 1.5));

      tx::Array<float, 1> s;
      before = tx::stats::passes();
      s = tx::max<1>(x) + tx::log(tx::sum<1>(tx::exp(x - tx::max<1>(x, tx::keepdims))));
      BOOST_TEST(tx::stats::passes() - before == one_pass_for(s));
      check_rows(s, tx::testing::reference_logsumexp(rows_of(x)),
                 tx::testing::log_sum_tolerance<float>(length, 2.0));
    }
  }
}

BOOST_AUTO_TEST_CASE(min_prod_and_mean_inside_expressions) {
  auto rng = tx::testing::make_rng(133);
  for (const tx::index_t length : kUserRowLengths) {
    const tx::index_t rows = tx::testing::random_row_count(rng, length);
    BOOST_TEST_CONTEXT(rows << " rows of " << length) {
      // Factors near 1, so that products of 8192 of them, and of their ratios to the row's max,
      // stay far from float's underflow.
      const auto x = random_array<float>(tx::make_dim(rows, length), rng, 0.999, 1.001);
      const auto h = rows_of(x);
      const auto smallest = row_stats(h, RowStat::kMin), largest = row_stats(h, RowStat::kMax);
      const auto product = row_stats(h, RowStat::kProd), mean = row_stats(h, RowStat::kMean);
      const auto growth = tx::testing::compute_unit<float>() * tx::testing::sum_growth(length);
      tx::Array<float, 2> y;
      tx::Array<float, 1> s;

      // Scaled to [0, 1] by the row's min and max (rows of one element give 0 / 0).
      auto before = tx::stats::passes();
      y = (x - tx::min<1>(x, tx::keepdims)) /
          (tx::max<1>(x, tx::keepdims) - tx::min<1>(x, tx::keepdims));
      BOOST_TEST(tx::stats::passes() - before == one_pass_for(y));
      check_rows(y,
                 make_rows(rows, length,
                           [&](tx::index_t r, tx::index_t k) {
                             return (h.at(r, k) - smallest[r]) / (largest[r] - smallest[r]);
                           }),
                 {8 * tx::testing::compute_unit<float>(), 0.0});

      before = tx::stats::passes();
      y = x * tx::prod<1>(x, tx::keepdims);
      BOOST_TEST(tx::stats::passes() - before == one_pass_for(y));
      check_rows(y,
                 make_rows(rows, length,
                           [&](tx::index_t r, tx::index_t k) { return h.at(r, k) * product[r]; }),
                 {product_tolerance(length), 0.0});

      before = tx::stats::passes();
      y = x - tx::mean<1>(x, tx::keepdims);
      BOOST_TEST(tx::stats::passes() - before == one_pass_for(y));
      check_rows(y,
                 make_rows(rows, length,
                           [&](tx::index_t r, tx::index_t k) { return h.at(r, k) - mean[r]; }),
                 {0.0, 2 * growth});

      // One value per row: the mean distance above the row's min, the product of x / max.
      before = tx::stats::passes();
      s = tx::mean<1>(x - tx::min<1>(x, tx::keepdims));
      BOOST_TEST(tx::stats::passes() - before == one_pass_for(s));
      check_rows(
          s, make_rows(rows, 1, [&](tx::index_t r, tx::index_t) { return mean[r] - smallest[r]; }),
          {0.0, 2 * growth});
      before = tx::stats::passes();
      s = tx::prod<1>(x / tx::max<1>(x, tx::keepdims));
      BOOST_TEST(tx::stats::passes() - before == one_pass_for(s));
      const auto ratios = make_rows(
          rows, length, [&](tx::index_t r, tx::index_t k) { return h.at(r, k) / largest[r]; });
      const auto ratio_products = row_stats(ratios, RowStat::kProd);
      check_rows(s,
                 make_rows(rows, 1, [&](tx::index_t r, tx::index_t) { return ratio_products[r]; }),
                 {2 * product_tolerance(length), 0.0});
    }
  }
}

BOOST_AUTO_TEST_CASE(reductions_of_broadcast_operands) {
  auto rng = tx::testing::make_rng(134);
  for (const tx::index_t length : {1, 33, 1024, 4097}) {
    const tx::index_t rows = tx::testing::random_row_count(rng, length);
    BOOST_TEST_CONTEXT(rows << " rows of " << length) {
      const auto dims = tx::make_dim(rows, length);
      const auto x = random_array<float>(dims, rng);
      const auto column = random_array<float>(tx::make_dim(rows, 1), rng);
      const auto weights = random_array<float>(tx::make_dim(length), rng);
      const auto h = rows_of(x), hc = rows_of(column), hw = rows_of(weights);
      const auto growth = tx::testing::compute_unit<float>() * tx::testing::sum_growth(length);
      tx::Array<float, 2> y;

      // A column broadcast along the rows: each row sums `length` copies of one value.
      auto before = tx::stats::passes();
      y = x - tx::sum<1>(tx::broadcast_to(column, dims), tx::keepdims);
      BOOST_TEST(tx::stats::passes() - before == one_pass_for(y));
      check_rows(y,
                 make_rows(rows, length,
                           [&](tx::index_t r, tx::index_t k) {
                             return h.at(r, k) - static_cast<double>(length) * hc.at(r, 0);
                           }),
                 {0.0, growth * static_cast<double>(length)});

      // Weights of the row's length, the same for every row (implicit broadcasting).
      before = tx::stats::passes();
      y = x - tx::sum<1>(x * weights, tx::keepdims);
      BOOST_TEST(tx::stats::passes() - before == one_pass_for(y));
      const auto dots = row_stats(
          make_rows(rows, length,
                    [&](tx::index_t r, tx::index_t k) { return h.at(r, k) * hw.at(0, k); }),
          RowStat::kSum);
      check_rows(y,
                 make_rows(rows, length,
                           [&](tx::index_t r, tx::index_t k) { return h.at(r, k) - dots[r]; }),
                 {0.0, growth * static_cast<double>(length)});

      before = tx::stats::passes();
      y = x * tx::max<1>(x + weights, tx::keepdims);
      BOOST_TEST(tx::stats::passes() - before == one_pass_for(y));
      const auto biased_max = row_stats(
          make_rows(rows, length,
                    [&](tx::index_t r, tx::index_t k) { return h.at(r, k) + hw.at(0, k); }),
          RowStat::kMax);
      check_rows(
          y,
          make_rows(rows, length,
                    [&](tx::index_t r, tx::index_t k) { return h.at(r, k) * biased_max[r]; }),
          {0.0, 8 * tx::testing::compute_unit<float>()});
    }
  }
}

BOOST_AUTO_TEST_CASE(reduced_rows_longer_or_shorter_than_the_destinations) {
  auto rng = tx::testing::make_rng(135);
  for (const tx::index_t rows : {0, 1, 7, 300}) {
    BOOST_TEST_CONTEXT(rows << " rows") {
      const auto x = random_array<float>(tx::make_dim(rows, 5), rng);
      const auto y = random_array<float>(tx::make_dim(rows, 7), rng);
      const auto h = rows_of(x), hy = rows_of(y);
      const auto y_sums = row_stats(hy, RowStat::kSum), x_max = row_stats(h, RowStat::kMax);
      const auto y_max = row_stats(hy, RowStat::kMax);
      const tx::testing::Tolerance tolerance = {0.0, 64 * tx::testing::compute_unit<float>()};
      tx::Array<float, 2> z;
      auto before = tx::stats::passes();
      z = x + tx::sum<1>(y, tx::keepdims);
      BOOST_TEST(tx::stats::passes() - before == one_pass_for(z));
      check_rows(
          z,
          make_rows(rows, 5, [&](tx::index_t r, tx::index_t k) { return h.at(r, k) + y_sums[r]; }),
          tolerance);

      // One value per row from rows of 5 and of 7.
      tx::Array<float, 1> s;
      before = tx::stats::passes();
      s = tx::max<1>(x) + tx::sum<1>(tx::exp(y - tx::max<1>(y, tx::keepdims)));
      BOOST_TEST(tx::stats::passes() - before == one_pass_for(s));
      check_rows(s,
                 make_rows(rows, 1,
                           [&](tx::index_t r, tx::index_t) {
                             double total = 0.0;
                             for (tx::index_t k = 0; k < 7; ++k)
                               total += std::exp(hy.at(r, k) - y_max[r]);
                             return x_max[r] + total;
                           }),
                 tolerance);

      // Reduced operands of lower rank broadcast over the destination's rows: a row of 7 for
      // every row of x, and a (rows, 7) matrix under a rank-3 destination.
      const auto w = random_array<float>(tx::make_dim(7), rng);
      const auto hw = rows_of(w);
      before = tx::stats::passes();
      z = x * tx::sum<0>(w, tx::keepdims);
      BOOST_TEST(tx::stats::passes() - before == one_pass_for(z));
      check_rows(z,
                 make_rows(rows, 5,
                           [&](tx::index_t r, tx::index_t k) {
                             return h.at(r, k) * row_stats(hw, RowStat::kSum)[0];
                           }),
                 tolerance);
      const auto x3 = random_array<float>(tx::make_dim(3, rows, 5), rng);
      const auto h3 = rows_of(x3);
      tx::Array<float, 3> z3;
      before = tx::stats::passes();
      z3 = x3 + tx::sum<1>(y, tx::keepdims);
      BOOST_TEST(tx::stats::passes() - before == one_pass_for(z3));
      check_rows(z3,
                 make_rows(3 * rows, 5,
                           [&](tx::index_t r, tx::index_t k) {
                             return h3.at(r, k) + y_sums[r % std::max<tx::index_t>(rows, 1)];
                           }),
                 tolerance);
    }
  }
}

BOOST_AUTO_TEST_CASE(parts_that_the_output_and_its_reductions_share_or_seem_to) {
  // The output and a reduction both read exp(x - max): of the same x, of another array of the
  // same shape, of rows of another length, of a column broadcast along the output's rows, and
  // twice in the output.
  auto rng = tx::testing::make_rng(137);
  for (const tx::index_t rows : {0, 1, 7, 70}) {
    BOOST_TEST_CONTEXT(rows << " rows") {
      const auto x = random_array<float>(tx::make_dim(rows, 1000), rng, -8.0, 8.0);
      const auto y = random_array<float>(tx::make_dim(rows, 1000), rng, -8.0, 8.0);
      const auto short_rows = random_array<float>(tx::make_dim(rows, 7), rng, -8.0, 8.0);
      const auto column = random_array<float>(tx::make_dim(rows, 1), rng, -8.0, 8.0);
      const auto w = random_array<float>(tx::make_dim(rows, 1000), rng);
      const auto hx = rows_of(x), hy = rows_of(y), hs = rows_of(short_rows), hw = rows_of(w);
      const auto tolerance = tx::testing::softmax_tolerance<float>(1000, 16.0);
      // Per row of `v`: the sum of exp(v - max), or its max.
      auto per_row = [](const Rows& v, bool sums) {
        std::vector<double> out(static_cast<std::size_t>(v.count));
        for (tx::index_t r = 0; r < v.count; ++r) {
          const double largest = tx::testing::row_max(v, r);
          double total = 0.0;
          for (tx::index_t k = 0; k < v.length; ++k) total += std::exp(v.at(r, k) - largest);
          out[static_cast<std::size_t>(r)] = sums ? total : largest;
        }
        return out;
      };
      const auto max_x = per_row(hx, false), sum_x = per_row(hx, true);
      const auto sum_y = per_row(hy, true), sum_short = per_row(hs, true);
      tx::Array<float, 2> z;
      auto before = tx::stats::passes();
      z = tx::exp(x - tx::max<1>(x, tx::keepdims)) /
          tx::sum<1>(tx::exp(y - tx::max<1>(y, tx::keepdims)), tx::keepdims);
      BOOST_TEST(tx::stats::passes() - before == one_pass_for(z));
      check_rows(z,
                 make_rows(rows, 1000,
                           [&](tx::index_t r, tx::index_t k) {
                             return std::exp(hx.at(r, k) - max_x[r]) / sum_y[r];
                           }),
                 tolerance);
      z = tx::exp(x - tx::max<1>(x, tx::keepdims)) /
          tx::sum<1>(tx::exp(short_rows - tx::max<1>(short_rows, tx::keepdims)), tx::keepdims);
      check_rows(z,
                 make_rows(rows, 1000,
                           [&](tx::index_t r, tx::index_t k) {
                             return std::exp(hx.at(r, k) - max_x[r]) / sum_short[r];
                           }),
                 tolerance);
      // A softmax over rows of one element is 1.
      z = w * (tx::exp(column - tx::max<1>(column, tx::keepdims)) /
               tx::sum<1>(tx::exp(column - tx::max<1>(column, tx::keepdims)), tx::keepdims));
      check_rows(z, hw, tolerance);
      z = tx::exp(x - tx::max<1>(x, tx::keepdims)) * tx::exp(x - tx::max<1>(x, tx::keepdims)) /
          tx::sum<1>(tx::exp(x - tx::max<1>(x, tx::keepdims)), tx::keepdims);
      check_rows(z,
                 make_rows(rows, 1000,
                           [&](tx::index_t r, tx::index_t k) {
                             return std::exp(2 * (hx.at(r, k) - max_x[r])) / sum_x[r];
                           }),
                 {2 * tolerance.relative, tolerance.absolute});
    }
  }
}

BOOST_AUTO_TEST_CASE(more_reductions_than_a_row_keeps_values_for) {
  // 19 reductions, 4 of them repeated: beyond the 16 that a row keeps, a repeated one is
  // computed again.
  auto rng = tx::testing::make_rng(138);
  const auto x = random_array<float>(tx::make_dim(30, 33), rng);
  const auto h = rows_of(x);
  const auto maxima = row_stats(h, RowStat::kMax), minima = row_stats(h, RowStat::kMin);
  const auto sums = row_stats(h, RowStat::kSum);
  const auto k = tx::keepdims;
  tx::Array<float, 2> y;
  const auto before = tx::stats::passes();
  y = x - (tx::max<1>(x, k) + tx::min<1>(x, k) + tx::sum<1>(x, k) + tx::mean<1>(x, k) +
           tx::max<1>(x * 2.0f, k) + tx::min<1>(x * 2.0f, k) + tx::sum<1>(x * 3.0f, k) +
           tx::mean<1>(x * 3.0f, k) + tx::max<1>(x + 1.0f, k) + tx::min<1>(x + 1.0f, k) +
           tx::sum<1>(x + 1.0f, k) + tx::mean<1>(x + 1.0f, k) + tx::max<1>(x - 1.0f, k) +
           tx::min<1>(x - 1.0f, k) + tx::sum<1>(x - 1.0f, k) + tx::mean<1>(x - 1.0f, k) +
           tx::max<1>(x, k) + tx::sum<1>(x * 3.0f, k) + tx::min<1>(x + 1.0f, k));
  BOOST_TEST(tx::stats::passes() - before == 1u);
  check_rows(
      y,
      make_rows(30, 33,
                [&](tx::index_t r, tx::index_t c) {
                  const double n = 33, largest = maxima[r], smallest = minima[r], total = sums[r];
                  const double mean = total / n;
                  const double all = largest + smallest + total + mean + 2 * largest +
                                     2 * smallest + 3 * total + 3 * mean + largest + 1 + smallest +
                                     1 + total + n + mean + 1 + largest - 1 + smallest - 1 + total -
                                     n + mean - 1 + largest + 3 * total + smallest + 1;
                  return h.at(r, c) - all;
                }),
      {0.0, 64 * tx::testing::compute_unit<float>() * 33 * 10});
}

BOOST_AUTO_TEST_CASE(a_max_over_empty_rows_is_a_shape_error_before_any_work) {
  const auto x = tx::testing::zeros_on_test_place<float>(tx::make_dim(3, 0));
  tx::Array<float, 2> p;
  auto s = tx::testing::zeros_on_test_place<float>(tx::make_dim(3));
  const auto before = tx::stats::passes();
  BOOST_CHECK_EXCEPTION(p = tx::exp(x - tx::max<1>(x, tx::keepdims)) /
                            tx::sum<1>(tx::exp(x - tx::max<1>(x, tx::keepdims)), tx::keepdims),
                        tx::ShapeError,
                        tx::testing::message_is("tx::max over axes (1) of an expression of shape "
                                                "(3, 0) has no elements to choose from"));
  BOOST_CHECK_EXCEPTION(
      s = tx::max<1>(x) + tx::log(tx::sum<1>(tx::exp(x - tx::max<1>(x, tx::keepdims)))),
      tx::ShapeError, tx::testing::message_has({"tx::max", "(3, 0)"}));
  BOOST_TEST(tx::stats::passes() == before);
  BOOST_TEST(!p.allocated(), "nothing was written");
  for (const double value : rows_of(s).values) BOOST_TEST(value == 0.0);
}

BOOST_AUTO_TEST_SUITE_END()
