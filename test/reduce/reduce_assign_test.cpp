// How reductions are assigned: as the whole right-hand side they write the destination in ONE
// pass through every saver (=, +=, -=, *=, /=, tx::assign with each OpReq); inside a larger
// expression they are materialised once first (two passes, e.g. a softmax); destinations that
// the operand reads are handled; and the checks run before any work.
#include <boost/test/unit_test.hpp>

#include <cmath>

#include <tensorx/tensorx.h>

#include "reduce/reduce_reference.h"
#include "support/errors.h"

namespace tx = tensorx;
using tx::testing::on_host;
using tx::testing::random_array;

namespace {

/// Row sums of a host matrix, in double.
tx::Array<double, 1> row_sums(const tx::Array<double, 2>& m) {
  tx::Array<double, 1> sums(tx::make_dim(m.dims()[0]));
  for (tx::index_t r = 0; r < m.dims()[0]; ++r) {
    sums(r) = 0.0;
    for (tx::index_t c = 0; c < m.dims()[1]; ++c) sums(r) += m(r, c);
  }
  return sums;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(reduce_assign)

BOOST_AUTO_TEST_CASE(every_saver_and_op_req_writes_through_the_reduction) {
  auto rng = tx::testing::make_rng(61);
  const auto m = random_array<double>(tx::make_dim(6, 50), rng);
  const auto sums = row_sums(tx::testing::to_double(m));
  const auto start = random_array<double>(tx::make_dim(6), rng, 1.0, 2.0);
  const auto h0 = tx::testing::to_double(start);
  auto expect = [&](auto f) {
    return tx::testing::reference(tx::make_dim(6),
                                  [&](const auto& i) { return f(h0(i[0]), sums(i[0])); });
  };
  auto r = tx::to(start, tx::testing::test_place());
  const auto before = tx::stats::passes();
  r += tx::sum<1>(m);
  BOOST_TEST(tx::stats::passes() - before == 1u, "+= of a reduction is one pass");
  tx::testing::check_close(r, expect([](double x, double s) { return x + s; }));

  r = tx::to(start, tx::testing::test_place());
  r -= tx::sum<1>(m);
  tx::testing::check_close(r, expect([](double x, double s) { return x - s; }));
  r = tx::to(start, tx::testing::test_place());
  r *= tx::sum<1>(m);
  tx::testing::check_close(r, expect([](double x, double s) { return x * s; }));
  r = tx::to(start, tx::testing::test_place());
  r /= tx::sum<1>(m);
  tx::testing::check_close(r, expect([](double x, double s) { return x / s; }));

  r = tx::to(start, tx::testing::test_place());
  tx::assign(r, tx::sum<1>(m), tx::OpReq::kAddTo);
  tx::testing::check_close(r, expect([](double x, double s) { return x + s; }));
  tx::assign(r, tx::sum<1>(m), tx::OpReq::kNullOp);
  tx::testing::check_close(r, expect([](double x, double s) { return x + s; }));
  tx::assign(r, tx::sum<1>(m), tx::OpReq::kWriteTo);
  tx::testing::check_close(r, expect([](double, double s) { return s; }));
  tx::assign(r, tx::mean<1>(m), tx::OpReq::kWriteInplace);
  tx::testing::check_close(r, expect([](double, double s) { return s / 50; }));

  // A full reduction accumulates into a scalar.
  auto total = tx::testing::scalar_on_test_place<double>();
  total = tx::sum(m);
  total += tx::sum(m);
  double expected = 0.0;
  for (int i = 0; i < 6; ++i) expected += 2 * sums(i);
  BOOST_TEST(std::abs(total.item() - expected) <= 1e-12 * std::abs(expected) + 1e-12);
}

BOOST_AUTO_TEST_CASE(a_reduction_inside_an_expression_is_computed_once) {
  auto rng = tx::testing::make_rng(62);
  const auto dims = tx::make_dim(20, 33);
  const auto a = random_array<float>(dims, rng, -5.0, 5.0);
  const auto ha = tx::testing::to_double(a);
  tx::Array<float, 2> shifted;
  auto before = tx::stats::passes();
  shifted = tx::exp(a - tx::max<1>(a, tx::keepdims));
  BOOST_TEST(tx::stats::passes() - before == 1u, "a last-axis reduction fuses into the pass");

  // Softmax along rows, in place: each row's sum is computed before the row is written.
  tx::Array<float, 2> softmax = shifted;
  before = tx::stats::passes();
  softmax = softmax / tx::sum<1>(softmax, tx::keepdims);
  BOOST_TEST(tx::stats::passes() - before == 1u);
  const auto expected = tx::testing::reference(dims, [&](const auto& i) {
    double largest = ha(i[0], 0), total = 0.0;
    for (tx::index_t c = 0; c < dims[1]; ++c) largest = std::max(largest, ha(i[0], c));
    for (tx::index_t c = 0; c < dims[1]; ++c) total += std::exp(ha(i[0], c) - largest);
    return std::exp(ha(i[0], i[1]) - largest) / total;
  });
  tx::testing::check_close(softmax, expected, 1e-5);

  // Along another axis the reduction is materialised once, then read by the element-wise pass.
  tx::Array<float, 2> column_shifted;
  before = tx::stats::passes();
  column_shifted = a - tx::max<0>(a, tx::keepdims);
  BOOST_TEST(tx::stats::passes() - before == 2u, "the max, then the element-wise pass");
  tx::testing::check_close(column_shifted,
                           tx::testing::reference(dims,
                                                  [&](const auto& i) {
                                                    double largest = ha(0, i[1]);
                                                    for (tx::index_t r = 1; r < dims[0]; ++r) {
                                                      largest = std::max(largest, ha(r, i[1]));
                                                    }
                                                    return ha(i[0], i[1]) - largest;
                                                  }),
                           1e-6);

  // A scalar reduction broadcast into an element-wise expression.
  tx::Array<float, 2> centered;
  centered = a - tx::mean(a);
  double mean = 0.0;
  tx::testing::for_each_index(dims, [&](const auto& i) { mean += ha[i]; });
  mean /= static_cast<double>(tx::product(dims));
  tx::testing::check_close(
      centered, tx::testing::reference(dims, [&](const auto& i) { return ha[i] - mean; }), 1e-5);
}

BOOST_AUTO_TEST_CASE(destinations_the_operand_reads_go_through_a_temporary) {
  auto rng = tx::testing::make_rng(63);
  const auto m = random_array<float>(tx::make_dim(5, 5), rng);
  const auto hm = tx::testing::to_double(m);
  // Row 0 of m receives the column sums of m, which read row 0.
  auto row = m[0];
  row = tx::sum<0>(m);
  const auto after = tx::testing::to_double(m);
  for (int c = 0; c < 5; ++c) {
    double column = 0.0;
    for (int r = 0; r < 5; ++r) column += hm(r, c);
    BOOST_TEST(std::abs(after(0, c) - column) <= 1e-5);
    for (int r = 1; r < 5; ++r) BOOST_TEST(after(r, c) == hm(r, c));
  }
  // A column view accumulates the row sums of its own matrix.
  auto first_column = tx::transpose(m).array()[0];
  const auto sums = row_sums(after);
  first_column += tx::sum<1>(m);
  const auto last = tx::testing::to_double(m);
  for (int r = 0; r < 5; ++r) BOOST_TEST(std::abs(last(r, 0) - (after(r, 0) + sums(r))) <= 1e-5);
}

BOOST_AUTO_TEST_CASE(destinations_are_allocated_or_checked_before_any_work) {
  auto rng = tx::testing::make_rng(64);
  const auto m = random_array<float>(tx::make_dim(3, 4), rng);
  tx::Array<float, 1> fresh;
  fresh = tx::sum<0>(m);
  BOOST_TEST(fresh.dims() == tx::make_dim(4));
  BOOST_TEST(fresh.place() == tx::testing::test_place());
  tx::Array<std::int64_t, 3> kept =
      tx::argmax<-1>(tx::reshape(m, tx::make_dim(3, 1, 4)), tx::keepdims);
  BOOST_TEST(kept.dims() == tx::make_dim(3, 1, 1));

  auto wrong = tx::testing::zeros_on_test_place<float>(tx::make_dim(5));
  const auto before = tx::stats::passes();
  BOOST_CHECK_EXCEPTION(
      wrong = tx::sum<1>(m), tx::ShapeError,
      tx::testing::message_is("cannot assign an expression of shape (3) to an array of shape (5)"));
  tx::Array<float, 1> unallocated;
  BOOST_CHECK_EXCEPTION(unallocated += tx::sum<1>(m), tx::ShapeError,
                        tx::testing::message_has({"unallocated"}));
  BOOST_TEST(tx::stats::passes() == before);
  tx::testing::check_close(
      wrong, tx::testing::reference(tx::make_dim(5), [](const auto&) { return 0.0; }));

  // A rank-0 array lives on the CPU unless made elsewhere: a GPU operand is a PlaceError.
  if (tx::is_gpu_place(tx::testing::test_place())) {
    tx::Array<float, 0> host_scalar;
    BOOST_CHECK_EXCEPTION(host_scalar = tx::sum(m), tx::PlaceError,
                          tx::testing::message_has({"CudaPlace(0)", "CpuPlace"}));
  }
}

BOOST_AUTO_TEST_SUITE_END()
