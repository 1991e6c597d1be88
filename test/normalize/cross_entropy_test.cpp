// tx::cross_entropy(logits, labels) assigned to a rank-0 array: ONE pass (the losses per row of a
// row-local pass and their mean), against loops in double, for float, double and bfloat16 logits
// and int32 and int64 labels, rows of every length, strided logits, compound assignment, the same
// bits for any thread count; NaN for no rows. Every label is
// checked before anything is written (on a GPU by a kernel, one pass more): one out of range is an
// IndexError naming it and its row, and a label count that differs from the row count a ShapeError
// naming both shapes.
#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <utility>

#include <tensorx/tensorx.h>

#include "normalize/normalize_reference.h"
#include "support/errors.h"

namespace tx = tensorx;
using tx::testing::random_array;
using tx::testing::rows_of;

namespace {

/// Passes of the labels' check: on a GPU a kernel of its own (layout/index_bounds.h).
#if defined(TENSORX_TEST_ON_GPU)
constexpr std::uint64_t kLabelCheckPasses = 1;
#else
constexpr std::uint64_t kLabelCheckPasses = 0;
#endif

/// `count` random labels of type I in [0, classes), on the test place.
template <class I>
tx::Array<I, 1> random_labels(tx::index_t count, tx::index_t classes, std::mt19937_64& rng) {
  tx::Array<I, 1> host(tx::make_dim(count));
  std::uniform_int_distribution<tx::index_t> label(0, classes - 1);
  for (tx::index_t r = 0; r < count; ++r) host(r) = static_cast<I>(label(rng));
  return tx::testing::on_test_place(host);
}

/// Checks a loss of T against the reference for `rows` rows of `length`: the logsumexp rounding
/// per row (absolute, so also of the mean), and the mean's own sum (relative).
template <class T>
void check_loss(const tx::Array<T, 0>& loss, double expected, tx::index_t rows,
                tx::index_t length) {
  const double got = static_cast<double>(tx::testing::on_host(loss).item());
  const auto tolerance = tx::testing::log_sum_tolerance<T>(length, 16.0);
  const double relative =
      tolerance.relative + tx::testing::compute_unit<T>() * tx::testing::sum_growth(rows);
  const double allowed = relative * std::abs(expected) + tolerance.absolute;
  BOOST_TEST(std::abs(got - expected) <= allowed,
             "loss " << got << ", expected " << expected << " within " << allowed);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(normalize_cross_entropy)

using LogitsAndLabels =
    boost::mpl::list<std::pair<float, std::int32_t>, std::pair<float, std::int64_t>,
                     std::pair<double, std::int32_t>, std::pair<double, std::int64_t>>;

BOOST_AUTO_TEST_CASE_TEMPLATE(the_mean_loss_of_rows_of_every_length_is_one_pass, Types,
                              LogitsAndLabels) {
  using T = typename Types::first_type;
  using I = typename Types::second_type;
  auto rng = tx::testing::make_rng(141);
  for (const tx::index_t length : {1, 31, 33, 1000, 1024, 4097, 8192}) {
    const tx::index_t rows = 1 + tx::testing::random_row_count(rng, length);
    BOOST_TEST_CONTEXT(rows << " rows of " << length << " classes") {
      const auto logits = random_array<T>(tx::make_dim(rows, length), rng, -8.0, 8.0);
      const auto labels = random_labels<I>(rows, length, rng);
      auto loss = tx::testing::scalar_on_test_place<T>();
      const auto before = tx::stats::passes();
      loss = tx::cross_entropy(logits, labels);
      BOOST_TEST(tx::stats::passes() - before == 1u + kLabelCheckPasses,
                 "the losses per row and their mean");
      check_loss(loss, tx::testing::reference_cross_entropy(rows_of(logits), rows_of(labels)), rows,
                 length);
    }
  }
}

BOOST_AUTO_TEST_CASE(strided_logits_and_no_rows) {
  auto rng = tx::testing::make_rng(142);
  // Columns [2, 12) of a (50, 15) matrix: rows strided by 15.
  const auto wide = random_array<float>(tx::make_dim(50, 15), rng, -8.0, 8.0);
  const auto logits = tx::slice(wide, 1, 2, 12);
  const auto labels = random_labels<std::int64_t>(50, 10, rng);
  auto loss = tx::testing::scalar_on_test_place<float>();
  loss = tx::cross_entropy(logits, labels);
  check_loss(loss, tx::testing::reference_cross_entropy(rows_of(logits), rows_of(labels)), 50, 10);

  const auto none = random_array<float>(tx::make_dim(0, 10), rng);
  loss = tx::cross_entropy(none, random_labels<std::int64_t>(0, 10, rng));
  BOOST_TEST(std::isnan(tx::testing::on_host(loss).item()), "the mean over no rows is NaN");
}

BOOST_AUTO_TEST_CASE(compound_assignment_narrow_floats_and_any_thread_count) {
  auto rng = tx::testing::make_rng(145);
  const tx::index_t rows = 37, classes = 300;
  const auto logits = random_array<float>(tx::make_dim(rows, classes), rng, -8.0, 8.0);
  const auto labels = random_labels<std::int32_t>(rows, classes, rng);
  const double expected = tx::testing::reference_cross_entropy(rows_of(logits), rows_of(labels));

  auto loss = tx::testing::scalar_on_test_place<float>();
  loss = 1.5f;
  loss += tx::cross_entropy(logits, labels);
  const double got = static_cast<double>(tx::testing::on_host(loss).item());
  BOOST_TEST(std::abs(got - (1.5 + expected)) <= 1e-5 * (1.5 + expected), "+= adds the mean");
  loss -= tx::cross_entropy(logits, labels);
  BOOST_TEST(std::abs(tx::testing::on_host(loss).item() - 1.5f) <= 1e-5f, "-= takes it away");

  // bfloat16 logits: the losses and their mean in float, rounded once to bfloat16.
  const tx::Array<tx::bfloat16, 2> narrow = tx::cast<tx::bfloat16>(logits);
  auto narrow_loss = tx::testing::scalar_on_test_place<tx::bfloat16>();
  narrow_loss = tx::cross_entropy(narrow, labels);
  const double narrow_expected =
      tx::testing::reference_cross_entropy(rows_of(narrow), rows_of(labels));
  const double narrow_got = static_cast<double>(tx::testing::on_host(narrow_loss).item());
  BOOST_TEST(std::abs(narrow_got - narrow_expected) <= 0x1p-8 * narrow_expected,
             "bfloat16 loss " << narrow_got << ", expected " << narrow_expected);

  // The rows' losses are summed in row order, whatever the threads: the same bits.
  const int threads = tx::num_threads();
  auto one_thread = tx::testing::scalar_on_test_place<float>();
  tx::set_num_threads(1);
  one_thread = tx::cross_entropy(logits, labels);
  tx::set_num_threads(threads);
  auto all_threads = tx::testing::scalar_on_test_place<float>();
  all_threads = tx::cross_entropy(logits, labels);
  BOOST_TEST(tx::testing::on_host(one_thread).item() == tx::testing::on_host(all_threads).item());
}

BOOST_AUTO_TEST_CASE(a_label_out_of_range_is_an_index_error_before_any_work) {
  auto rng = tx::testing::make_rng(143);
  const auto logits = random_array<float>(tx::make_dim(4, 5), rng);
  auto loss = tx::testing::scalar_on_test_place<float>();
  loss = 42.0f;
  tx::Array<std::int32_t, 1> labels(tx::make_dim(4));
  labels(0) = 1;
  labels(1) = 4;
  labels(2) = 5;  // one past the last class
  labels(3) = 0;
  const auto before = tx::stats::passes();
  BOOST_CHECK_EXCEPTION(loss = tx::cross_entropy(logits, tx::testing::on_test_place(labels)),
                        tx::IndexError,
                        tx::testing::message_is("tx::cross_entropy: label 5 of row 2 is out of "
                                                "range for 5 classes"));
  labels(2) = 0;
  labels(3) = -1;
  BOOST_CHECK_EXCEPTION(loss = tx::cross_entropy(logits, tx::testing::on_test_place(labels)),
                        tx::IndexError, tx::testing::message_has({"label -1", "row 3"}));
  BOOST_TEST(tx::stats::passes() - before == 2 * kLabelCheckPasses, "the checks only");
  BOOST_TEST(tx::testing::on_host(loss).item() == 42.0f, "the destination is unchanged");
}

BOOST_AUTO_TEST_CASE(a_label_count_other_than_the_row_count_is_a_shape_error) {
  auto rng = tx::testing::make_rng(144);
  const auto logits = random_array<float>(tx::make_dim(4, 5), rng);
  auto loss = tx::testing::scalar_on_test_place<float>();
  loss = 42.0f;
  const auto before = tx::stats::passes();
  BOOST_CHECK_EXCEPTION(loss = tx::cross_entropy(logits, random_labels<std::int64_t>(3, 5, rng)),
                        tx::ShapeError, tx::testing::message_has({"(4, 5)", "(3)"}));
  BOOST_TEST(tx::stats::passes() == before);
  BOOST_TEST(tx::testing::on_host(loss).item() == 42.0f);
}

BOOST_AUTO_TEST_SUITE_END()
