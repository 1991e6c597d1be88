// Products of three or more labelled factors: contracted pairwise in the order with the fewest
// multiply-adds, one GEMM per pair, the last one writing the left side. Checked against
// brute-force Einstein sums in double, and the order against the multiply-adds of each choice.
#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>

#include "blas/dot_reference.h"
#include "labels/einsum_reference.h"

namespace tx = tensorx;
using tx::index_t;
using tx::testing::check_close;
using tx::testing::einsum_reference;
using tx::testing::product_tolerance;
using tx::testing::random_array;
using tx::testing::ref;

BOOST_AUTO_TEST_SUITE(labelled_chains)

BOOST_AUTO_TEST_CASE(a_matrix_chain_is_one_gemm_per_pair) {
  auto rng = tx::testing::make_rng(1401);
  const auto a = random_array<double>(tx::make_dim(5, 7), rng);
  const auto b = random_array<double>(tx::make_dim(7, 3), rng);
  const auto c = random_array<double>(tx::make_dim(3, 6), rng);
  const auto e = random_array<double>(tx::make_dim(6, 4), rng);
  tx::Array<double, 2> d;
  const auto gemms = tx::stats::gemms();
  const auto passes = tx::stats::passes();
  d("i,l") = a("i,j") * b("j,k") * c("k,l");
  BOOST_TEST(tx::stats::gemms() - gemms == 2u);
  BOOST_TEST(tx::stats::passes() - passes == 2u);
  check_close(
      d, einsum_reference("il", tx::make_dim(5, 6), {ref(a, "ij"), ref(b, "jk"), ref(c, "kl")}),
      product_tolerance<double>(21));
  tx::Array<double, 2> f;
  f("m,i") = 0.5 * a("i,j") * b("j,k") * c("k,l") * e("l,m");
  check_close(f,
              einsum_reference("mi", tx::make_dim(4, 5),
                               {ref(a, "ij"), ref(b, "jk"), ref(c, "kl"), ref(e, "lm")}, 0.5),
              product_tolerance<double>(126));
}

BOOST_AUTO_TEST_CASE(the_order_has_the_fewest_multiply_adds) {
  // (a b) c costs 10*1000*10 + 10*10*1000 = 2e5; a (b c) costs 1000*10*1000 + 10*1000*1000 = 2e7.
  tx::detail::LabelTable table;
  const char* names[] = {"i", "j", "k", "l"};
  const index_t extents[] = {10, 1000, 10, 1000};
  for (int id = 0; id < 4; ++id) {
    table.labels[id] = tx::parse_labels(names[id]).labels[0];
    table.extents[id] = extents[id];
  }
  table.size = 4;
  const tx::detail::LabelMask masks[] = {0b0011, 0b0110, 0b1100};
  const auto order = tx::detail::order_chain(table, masks, 3, 0b1001);
  BOOST_TEST(order.steps == 2);
  BOOST_TEST(order.step[0].left == 0);
  BOOST_TEST(order.step[0].right == 1);
  BOOST_TEST(order.step[0].result == 0b0101u);
  BOOST_TEST(order.step[1].left == 3);
  BOOST_TEST(order.step[1].right == 2);
  BOOST_TEST(order.multiply_adds == 2e5);
  // Reversed extents favour a (b c).
  const index_t reversed[] = {1000, 10, 1000, 10};
  for (int id = 0; id < 4; ++id) table.extents[id] = reversed[id];
  const auto other = tx::detail::order_chain(table, masks, 3, 0b1001);
  BOOST_TEST(other.step[0].left == 1);
  BOOST_TEST(other.step[0].right == 2);
  BOOST_TEST(other.multiply_adds == 2e5);
}

BOOST_AUTO_TEST_CASE(chains_with_batch_labels_and_vectors) {
  auto rng = tx::testing::make_rng(1402);
  const auto x = random_array<float>(tx::make_dim(3, 4, 5), rng);
  const auto y = random_array<float>(tx::make_dim(3, 5, 6), rng);
  const auto v = random_array<float>(tx::make_dim(6), rng);
  tx::Array<float, 2> r;
  r("b,i") = x("b,i,j") * y("b,j,k") * v("k");
  check_close(
      r, einsum_reference("bi", tx::make_dim(3, 4), {ref(x, "bij"), ref(y, "bjk"), ref(v, "k")}),
      product_tolerance<float>(30));
  // A full contraction to a number, on the operands' place (a default rank-0 array is on the CPU).
  auto s = tx::testing::scalar_on_test_place<float>();
  s("") = x("b,i,j") * y("b,j,k") * v("k");
  tx::testing::check_scalar(
      s, einsum_reference("", tx::Dim<0>(), {ref(x, "bij"), ref(y, "bjk"), ref(v, "k")}),
      product_tolerance<float>(360));
}

BOOST_AUTO_TEST_CASE(float16_chains_accumulate_in_float) {
  auto rng = tx::testing::make_rng(1403);
  const auto a = random_array<tx::float16>(tx::make_dim(6, 8), rng);
  const auto b = random_array<tx::float16>(tx::make_dim(8, 5), rng);
  const auto c = random_array<tx::float16>(tx::make_dim(7, 5), rng);
  tx::Array<tx::float16, 2> d;
  d("i,l") = a("i,j") * b("j,k") * c("l,k");
  check_close(
      d, einsum_reference("il", tx::make_dim(6, 7), {ref(a, "ij"), ref(b, "jk"), ref(c, "lk")}),
      product_tolerance<tx::float16>(40));
}

BOOST_AUTO_TEST_SUITE_END()
