// How a row-local pass is assigned: through every saver (=, +=, -=, *=, /=, tx::assign with
// kAddTo) in its one pass, for rows (softmax) and for one value per row (logsumexp); in place
// (`x = tx::softmax<1>(x)`, each row read before it is written) bit for bit as out of place;
// destinations that read the operand at other indices (a transposed or shifted view of it) through
// a temporary; operands and destinations whose rows start 16-byte aligned or not (the GPU reads and
// writes rows in 16-byte blocks only where they do); the same assignment twice gives the same
// bits; and along axis 0 the reductions are still materialised first.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <functional>

#include <tensorx/tensorx.h>

#include "normalize/normalize_reference.h"

namespace tx = tensorx;
using tx::testing::check_rows;
using tx::testing::random_array;
using tx::testing::rows_of;

namespace {

/// `before` combined element by element with `operand` (rows of the same shape) by `f`.
tx::testing::Rows combined(const tx::testing::Rows& before, const tx::testing::Rows& operand,
                           const std::function<double(double, double)>& f) {
  tx::testing::Rows out = before;
  for (std::size_t i = 0; i < out.values.size(); ++i) {
    out.values[i] = f(before.values[i], operand.values[i]);
  }
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(normalize_assign)

BOOST_AUTO_TEST_CASE(every_saver_writes_in_the_one_pass) {
  auto rng = tx::testing::make_rng(111);
  const auto x = random_array<float>(tx::make_dim(37, 300), rng, -8.0, 8.0);
  const auto start = random_array<float>(tx::make_dim(37, 300), rng, 1.0, 2.0);
  const auto start_sums = random_array<float>(tx::make_dim(37), rng, 1.0, 2.0);
  const auto p = tx::testing::reference_softmax(rows_of(x));
  const auto s = tx::testing::reference_logsumexp(rows_of(x));
  const auto h0 = rows_of(start), hs0 = rows_of(start_sums);
  // The saver's own rounding comes on top of the softmax's.
  auto tolerance = tx::testing::softmax_tolerance<float>(300, 16.0);
  tolerance.relative += 0x1p-23;
  const auto sum_tolerance = tx::testing::log_sum_tolerance<float>(300, 16.0);

  const std::function<double(double, double)> savers[] = {
      std::plus<double>(), std::minus<double>(), std::multiplies<double>(), std::divides<double>(),
      std::plus<double>()};
  const char* names[] = {"+=", "-=", "*=", "/=", "tx::assign with kAddTo"};
  for (int saver = 0; saver < 5; ++saver) {
    BOOST_TEST_CONTEXT("saver " << names[saver]) {
      auto r = tx::to(start, tx::testing::test_place());
      auto sums = tx::to(start_sums, tx::testing::test_place());
      const auto before = tx::stats::passes();
      switch (saver) {
        case 0:
          r += tx::softmax<1>(x);
          sums += tx::logsumexp<1>(x);
          break;
        case 1:
          r -= tx::softmax<1>(x);
          sums -= tx::logsumexp<1>(x);
          break;
        case 2:
          r *= tx::softmax<1>(x);
          sums *= tx::logsumexp<1>(x);
          break;
        case 3:
          r /= tx::softmax<1>(x);
          sums /= tx::logsumexp<1>(x);
          break;
        default:
          tx::assign(r, tx::softmax<1>(x), tx::OpReq::kAddTo);
          tx::assign(sums, tx::logsumexp<1>(x), tx::OpReq::kAddTo);
          break;
      }
      BOOST_TEST(tx::stats::passes() - before == 2u, "one pass for each assignment");
      // Relative to the result: a quotient by a small probability is large.
      check_rows(r, combined(h0, p, savers[saver]),
                 {tolerance.relative, saver == 1 ? tolerance.relative : 0.0});
      check_rows(sums, combined(hs0, s, savers[saver]),
                 {sum_tolerance.relative + 0x1p-23, 4 * sum_tolerance.absolute});
    }
  }
}

BOOST_AUTO_TEST_CASE(in_place_softmax_is_one_pass_and_bitwise_the_out_of_place_one) {
  auto rng = tx::testing::make_rng(112);
  for (const tx::index_t length : {1, 33, 1000, 8192}) {
    BOOST_TEST_CONTEXT("rows of " << length) {
      const tx::index_t rows = 1 + tx::testing::random_row_count(rng, length);
      auto x = random_array<float>(tx::make_dim(rows, length), rng, -8.0, 8.0);
      const auto original = tx::to(x, tx::testing::test_place());
      tx::Array<float, 2> out_of_place;
      out_of_place = tx::softmax<1>(original);
      const auto before = tx::stats::passes();
      x = tx::softmax<1>(x);
      BOOST_TEST(tx::stats::passes() - before == 1u, "in place needs no temporary");
      BOOST_TEST(tx::testing::same_bits(x, out_of_place));
      check_rows(x, tx::testing::reference_softmax(rows_of(original)),
                 tx::testing::softmax_tolerance<float>(length, 16.0));
    }
  }
}

BOOST_AUTO_TEST_CASE(overlapping_destinations_go_through_a_temporary) {
  auto rng = tx::testing::make_rng(113);
  const tx::index_t n = 33;
  const auto tolerance = tx::testing::softmax_tolerance<float>(n, 16.0);
  // The transposed view of a square x receives the softmax of x's rows: x's columns become the
  // softmax of its original rows, read before any is overwritten.
  for (int form = 0; form < 2; ++form) {
    BOOST_TEST_CONTEXT((form == 0 ? "a transposed view array" : "tx::transpose(x) =")) {
      auto x = random_array<float>(tx::make_dim(n, n), rng, -8.0, 8.0);
      const auto p = tx::testing::reference_softmax(rows_of(x));
      if (form == 0) {
        auto view = tx::transpose(x).array();
        view = tx::softmax<1>(x);
      } else {
        tx::transpose(x) = tx::softmax<1>(x);
      }
      tx::testing::Rows expected(n, n);
      for (tx::index_t r = 0; r < n; ++r) {
        for (tx::index_t c = 0; c < n; ++c) expected.at(r, c) = p.at(c, r);
      }
      check_rows(x, expected, tolerance);
    }
  }
  // Rows 1 .. 19 receive the softmax of rows 0 .. 18: each row is written after the next reads it.
  auto x = random_array<float>(tx::make_dim(20, n), rng, -8.0, 8.0);
  const auto original = rows_of(x);
  x.slice(1, 20) = tx::softmax<1>(x.slice(0, 19));
  auto expected = tx::testing::reference_softmax(original);
  expected.values.insert(expected.values.begin(), original.values.begin(),
                         original.values.begin() + n);
  expected.values.resize(original.values.size());
  expected.count = 20;
  check_rows(x, expected, tolerance);

  // Rows 0 .. 18 receive the softmax of rows 1 .. 19: each row is read after the previous wrote.
  x = random_array<float>(tx::make_dim(20, n), rng, -8.0, 8.0);
  const auto unshifted = rows_of(x);
  x.slice(0, 19) = tx::softmax<1>(x.slice(1, 20));
  expected = tx::testing::reference_softmax(unshifted);
  std::copy(expected.values.begin() + n, expected.values.end(), expected.values.begin());
  std::copy(unshifted.values.end() - n, unshifted.values.end(), expected.values.end() - n);
  check_rows(x, expected, tolerance);

  // Column 0 of x receives the logsumexp of x's rows, kept as a column, and added once more as
  // one value per row through a rank-1 view of the column.
  x = random_array<float>(tx::make_dim(20, n), rng, -8.0, 8.0);
  const auto before_sums = rows_of(x);
  tx::slice(x, 1, 0, 1) = tx::logsumexp<1>(x, tx::keepdims);
  auto column = tx::transpose(x).array()[0];
  column += tx::logsumexp<1>(x);
  const auto lse = tx::testing::reference_logsumexp(before_sums);
  expected = before_sums;
  for (tx::index_t r = 0; r < 20; ++r) {
    // The second logsumexp reads the row with its first element replaced by the first one.
    tx::testing::Rows row(1, n);
    std::copy(before_sums.values.begin() + r * n, before_sums.values.begin() + (r + 1) * n,
              row.values.begin());
    row.at(0, 0) = lse.at(r, 0);
    expected.at(r, 0) = lse.at(r, 0) + tx::testing::reference_logsumexp(row).at(0, 0);
  }
  const auto sum_tolerance = tx::testing::log_sum_tolerance<float>(n, 16.0);
  check_rows(x, expected, {sum_tolerance.relative, 2 * sum_tolerance.absolute});
}

BOOST_AUTO_TEST_CASE(rows_that_start_aligned_or_not_in_operands_and_destination) {
  // On a GPU a thread reads its share of a row 16 bytes at a time where every operand's rows start
  // 16-byte aligned, and writes 16 bytes at a time where the destination's do too; otherwise
  // element by element. Each side misaligned in turn (columns from 1 of a wider matrix), and rows
  // whose length leaves a remainder after the 16-byte blocks (37, 1029) or none (64).
  auto rng = tx::testing::make_rng(116);
  for (const tx::index_t length : {37, 64, 1029}) {
    BOOST_TEST_CONTEXT("rows of " << length) {
      const tx::index_t width = (length + 1 + 3) / 4 * 4;  // rows 16-byte aligned
      const auto wide = random_array<float>(tx::make_dim(23, width), rng, -8.0, 8.0);
      const auto gamma = random_array<float>(tx::make_dim(width), rng, 0.5, 1.5);
      const auto beta = random_array<float>(tx::make_dim(width), rng, -0.5, 0.5);
      const auto tolerance = tx::testing::softmax_tolerance<float>(length, 16.0);
      const auto norm_tolerance = tx::testing::norm_tolerance<float>(length, 2.0, 1.5);
      for (const tx::index_t source_start : {0, 1}) {
        for (const tx::index_t target_start : {0, 1}) {
          BOOST_TEST_CONTEXT("operand columns from "
                             << source_start << ", destination columns from " << target_start) {
            const auto x = tx::slice(wide, 1, source_start, source_start + length);
            const auto g = tx::slice(gamma, 0, source_start, source_start + length);
            const auto b = tx::slice(beta, 0, source_start, source_start + length);
            auto target = random_array<float>(tx::make_dim(23, width), rng);
            auto y = tx::slice(target, 1, target_start, target_start + length);
            auto before = tx::stats::passes();
            y = tx::softmax<1>(x);
            BOOST_TEST(tx::stats::passes() - before == 1u);
            check_rows(y, tx::testing::reference_softmax(rows_of(x)), tolerance);
            before = tx::stats::passes();
            y = tx::layer_norm<1>(x, g, b, 1e-5f);
            BOOST_TEST(tx::stats::passes() - before == 1u);
            check_rows(y,
                       tx::testing::reference_layer_norm(rows_of(x), rows_of(g), rows_of(b),
                                                         static_cast<double>(1e-5f)),
                       norm_tolerance);
          }
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(the_same_assignment_twice_gives_the_same_bits) {
  auto rng = tx::testing::make_rng(114);
  const auto x = random_array<float>(tx::make_dim(300, 1000), rng, -8.0, 8.0);
  const auto h = random_array<tx::float16>(tx::make_dim(7, 8192), rng, -8.0, 8.0);
  tx::Array<float, 2> p1, p2;
  tx::Array<float, 1> s1, s2;
  tx::Array<tx::float16, 2> q1, q2;
  p1 = tx::softmax<1>(x);
  p2 = tx::softmax<1>(x);
  s1 = tx::logsumexp<1>(x);
  s2 = tx::logsumexp<1>(x);
  q1 = tx::softmax<1>(h);
  q2 = tx::softmax<1>(h);
  BOOST_TEST(tx::testing::same_bits(p1, p2));
  BOOST_TEST(tx::testing::same_bits(s1, s2));
  BOOST_TEST(tx::testing::same_bits(q1, q2));
}

BOOST_AUTO_TEST_CASE(along_axis_0_the_reductions_are_materialised_and_correct) {
  auto rng = tx::testing::make_rng(115);
  const auto x = random_array<float>(tx::make_dim(300, 17), rng, -8.0, 8.0);
  // Axis 0 of x is the last axis of its transpose: the references of the transposed rows.
  const auto transposed = rows_of(tx::transpose(x).array());
  tx::Array<float, 2> p;
  tx::Array<float, 1> s;
  const auto before = tx::stats::passes();
  p = tx::softmax<0>(x);
  BOOST_TEST(tx::stats::passes() - before > 1u, "not row-local: the reductions come first");
  const auto columns = tx::testing::reference_softmax(transposed);
  tx::testing::Rows expected(300, 17);
  for (tx::index_t r = 0; r < 300; ++r) {
    for (tx::index_t c = 0; c < 17; ++c) expected.at(r, c) = columns.at(c, r);
  }
  check_rows(p, expected, tx::testing::softmax_tolerance<float>(300, 16.0));
  s = tx::logsumexp<0>(x);
  check_rows(s, tx::testing::reference_logsumexp(transposed),
             tx::testing::log_sum_tolerance<float>(300, 16.0));
}

BOOST_AUTO_TEST_SUITE_END()
