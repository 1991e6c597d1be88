// How a product meets its destination: scalar factors folded into alpha, += and -= into beta,
// every OpReq, operands and enclosing expressions that need a temporary, with their pass counts.
#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>

#include "blas/dot_reference.h"

namespace tx = tensorx;
using tx::index_t;
using tx::testing::check_close;
using tx::testing::on_host;
using tx::testing::random_array;

namespace {

// Operands a (7 x 5), b (5 x 4), a destination c (7 x 4) holding known values, and the reference
// product p = a * b with the destination's values c0.
struct Operands {
  explicit Operands(unsigned seed) : rng(tx::testing::make_rng(seed)) {
    a = random_array<double>(tx::make_dim(7, 5), rng);
    b = random_array<double>(tx::make_dim(5, 4), rng);
    c = random_array<double>(tx::make_dim(7, 4), rng);
    product = tx::testing::matmul_reference(on_host(a), false, on_host(b), false);
    initial = on_host(c);
  }

  // The reference f(c0, p) element by element.
  template <class F>
  tx::Array<double, 2> expect(F f) const {
    return tx::testing::reference(product.dims(), [&](const tx::Dim<2>& i) {
      return f(static_cast<double>(initial[i]), product[i]);
    });
  }

  // Runs `statement` and returns the passes it started.
  template <class F>
  static std::uint64_t passes_of(F statement) {
    const auto before = tx::stats::passes();
    statement();
    return tx::stats::passes() - before;
  }

  std::mt19937_64 rng;
  tx::Array<double, 2> a, b, c;
  tx::Array<double, 2> product, initial;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(dot_assign)

BOOST_AUTO_TEST_CASE(scalar_factors_become_alpha_in_one_pass) {
  Operands o(601);
  BOOST_TEST(o.passes_of([&] { o.c = 0.5 * tx::dot(o.a, o.b); }) == 1u);
  check_close(o.c, o.expect([](double, double p) { return 0.5 * p; }));
  BOOST_TEST(o.passes_of([&] { o.c = tx::dot(o.a, o.b) * -3.0; }) == 1u);
  check_close(o.c, o.expect([](double, double p) { return -3.0 * p; }));
}

BOOST_AUTO_TEST_CASE(add_and_subtract_become_beta_in_one_pass) {
  Operands o(602);
  BOOST_TEST(o.passes_of([&] { o.c += 0.5 * tx::dot(o.a, o.b); }) == 1u);
  check_close(o.c, o.expect([](double c, double p) { return c + 0.5 * p; }));
  Operands s(603);
  BOOST_TEST(s.passes_of([&] { s.c -= tx::dot(s.a, s.b) * 2.0; }) == 1u);
  check_close(s.c, s.expect([](double c, double p) { return c - 2.0 * p; }));
  Operands t(604);
  BOOST_TEST(t.passes_of([&] { t.c -= tx::dot(t.a, t.b); }) == 1u);
  check_close(t.c, t.expect([](double c, double p) { return c - p; }));
}

BOOST_AUTO_TEST_CASE(multiply_and_divide_go_through_a_temporary) {
  Operands o(605);
  BOOST_TEST(o.passes_of([&] { o.c *= tx::dot(o.a, o.b); }) == 2u);
  check_close(o.c, o.expect([](double c, double p) { return c * p; }));
  Operands d(606);
  BOOST_TEST(d.passes_of([&] { d.c /= 2.0 * tx::dot(d.a, d.b); }) == 2u);
  check_close(d.c, d.expect([](double c, double p) { return c / (2.0 * p); }), 1e-10);
}

BOOST_AUTO_TEST_CASE(every_op_req) {
  Operands o(607);
  tx::assign(o.c, tx::dot(o.a, o.b), tx::OpReq::kNullOp);
  check_close(o.c, o.expect([](double c, double) { return c; }));
  tx::assign(o.c, 2.0 * tx::dot(o.a, o.b), tx::OpReq::kAddTo);
  check_close(o.c, o.expect([](double c, double p) { return c + 2.0 * p; }));
  tx::assign(o.c, tx::dot(o.a, o.b), tx::OpReq::kWriteTo);
  check_close(o.c, o.expect([](double, double p) { return p; }));
  tx::assign(o.c, tx::dot(o.a, o.b), tx::OpReq::kWriteInplace);
  check_close(o.c, o.expect([](double, double p) { return p; }));
}

BOOST_AUTO_TEST_CASE(expression_operands_are_materialised_first) {
  Operands o(608);
  BOOST_TEST(o.passes_of([&] { o.c = tx::dot(o.a * 2.0, o.b); }) == 2u);
  check_close(o.c, o.expect([](double, double p) { return 2.0 * p; }));
  BOOST_TEST(o.passes_of([&] { o.c = tx::dot(o.a, o.b + 1.0) - tx::dot(o.a, o.b); }) == 4u);
  const auto row_sums = tx::testing::matmul_reference(
      on_host(o.a), false, on_host(tx::Array<double, 2>(tx::ones<double>(tx::make_dim(5, 4)))),
      false);
  check_close(o.c, row_sums, 1e-12);
  // A broadcast operand is materialised, then multiplied.
  const auto row = random_array<double>(tx::make_dim(5), o.rng);
  o.c = tx::dot(o.a, tx::broadcast_to(tx::reshape(row, tx::make_dim(5, 1)), tx::make_dim(5, 4)));
  const auto column = on_host(tx::Array<double, 2>(
      tx::broadcast_to(tx::reshape(row, tx::make_dim(5, 1)), tx::make_dim(5, 4))));
  check_close(o.c, tx::testing::matmul_reference(on_host(o.a), false, column, false));
}

BOOST_AUTO_TEST_CASE(a_product_inside_an_expression_is_materialised_once) {
  Operands o(609);
  const auto bias = random_array<double>(tx::make_dim(4), o.rng);
  const auto hb = on_host(bias);
  // (A product plus a bias is a fused product instead: see fused_dot_test.cpp.)
  BOOST_TEST(o.passes_of([&] { o.c = tx::dot(o.a, o.b) * bias - 1.0; }) == 2u);
  const auto expected = tx::testing::reference(o.product.dims(), [&](const tx::Dim<2>& i) {
    return o.product[i] * static_cast<double>(hb[tx::make_dim(i[1])]) - 1.0;
  });
  check_close(o.c, expected);
}

BOOST_AUTO_TEST_CASE(an_unallocated_destination_takes_the_product_shape_and_place) {
  Operands o(610);
  tx::Array<double, 2> fresh;
  fresh = 0.25 * tx::dot(o.a, o.b);
  BOOST_TEST(fresh.dims() == tx::make_dim(7, 4));
  BOOST_TEST(fresh.place() == tx::testing::test_place());
  check_close(fresh, o.expect([](double, double p) { return 0.25 * p; }));
}

BOOST_AUTO_TEST_SUITE_END()
